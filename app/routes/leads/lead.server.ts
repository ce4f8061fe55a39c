// The action of every lead form page: read the post, hand it to the lead
// service (which stores it before mailing), answer what the form shows.
import type { RouterContextProvider } from "react-router";
import { requestContext, type RequestContext } from "#app/context.ts";
import { ANTIBOT_FIELD } from "#contracts/antibot.ts";
import { ADVERTISE_FIELDS, CONTACT_FIELDS, NETWORK_FIELDS } from "#contracts/leads.ts";
import type { FormResult, FormValues } from "#app/ui/form/form.ts";
import { handleForm, type FormSpec } from "#app/ui/form/form.server.ts";
import type { LeadOrigin } from "#core/leads/leads.ts";

const LEAD_FORM: FormSpec = {
  fields: new Set([...Object.keys(NETWORK_FIELDS), ...Object.keys(ADVERTISE_FIELDS), ...Object.keys(CONTACT_FIELDS)]),
};

type Submit = (
  post: { values: FormValues; form: FormData },
  origin: LeadOrigin,
  services: RequestContext["services"],
) => Promise<{ message: string }>;

/** The page's action for the lead service call `submit`. */
export const leadAction =
  (submit: Submit) =>
  ({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) => {
    const { services, site, clientIp } = context.get(requestContext);
    return handleForm(request, LEAD_FORM, async ({ [ANTIBOT_FIELD]: token, ...values }, form) => {
      const origin = { siteId: site.id, ip: clientIp, token: typeof token === "string" ? token : undefined };
      const receipt = await submit({ values, form }, origin, services);
      return { ok: true, message: receipt.message } satisfies FormResult;
    });
  };
