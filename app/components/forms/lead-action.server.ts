// Server side of the lead forms' page actions: read the post, and turn a refusal
// from the lead service into field errors that keep what the visitor typed.
import { data, type RouterContextProvider } from "react-router";
import { requestContext, type RequestContext } from "#app/context.ts";
import type { z } from "zod";
import { ADVERTISE_FIELDS, CONTACT_FIELDS, formValues, NETWORK_FIELDS } from "#contracts/leads.ts";
import { echoable } from "#app/lib/account-forms.ts";
import { fieldErrors } from "#contracts/validation.ts";
import type { LeadFormResult, LeadFormValues } from "./lead-form";

export type ReadForm = { values: LeadFormValues; form: FormData };

/** The posted form; the server already bounded its size and refused unreadable ones (server/plugins/react-router.ts). */
export async function readLeadForm(request: Request): Promise<ReadForm> {
  const form = await request.formData();
  return { values: formValues(form, ["g-recaptcha-response"]), form };
}

// Duck-typed: the services' zod may be another module instance than the app bundle's.
const isZodError = (err: unknown): err is z.ZodError =>
  typeof err === "object" && err !== null && (err as { name?: unknown }).name === "ZodError" &&
  Array.isArray((err as { issues?: unknown }).issues);

type ServiceError = Error & { status: number; headers?: Record<string, string> };
const isRefusal = (err: unknown): err is ServiceError =>
  err instanceof Error && typeof (err as { status?: unknown }).status === "number" && (err as ServiceError).status < 500;

const LEAD_FIELDS: ReadonlySet<string> = new Set([...Object.keys(NETWORK_FIELDS), ...Object.keys(ADVERTISE_FIELDS), ...Object.keys(CONTACT_FIELDS)]);

/** A refused submission as the form shows it; anything unexpected is rethrown (the error page). */
export function leadFailure(err: unknown, posted: LeadFormValues) {
  const values = echoable(posted, LEAD_FIELDS);
  if (isZodError(err)) return data<LeadFormResult>({ ok: false, errors: fieldErrors(err), values }, { status: 400 });
  if (isRefusal(err)) {
    return data<LeadFormResult>({ ok: false, message: err.message, values }, { status: err.status, headers: err.headers });
  }
  throw err;
}

export type LeadMeta = { siteId: string; ip: string; token?: string };

/**
 * The whole action of a lead form page: read the post, hand it to the lead
 * service (which stores it before mailing), answer what the form shows.
 */
export async function handleLeadPost(
  request: Request,
  context: Readonly<RouterContextProvider>,
  submit: (read: { values: LeadFormValues; form: FormData }, meta: LeadMeta, services: RequestContext["services"]) => Promise<{ message: string; id: number }>,
) {
  const { services, site, clientIp } = context.get(requestContext);
  const read = await readLeadForm(request);
  const token = read.form.get("g-recaptcha-response");
  try {
    const meta = { siteId: site.id, ip: clientIp, token: typeof token === "string" ? token : undefined };
    const receipt = await submit({ values: read.values, form: read.form }, meta, services);
    return { ok: true, message: receipt.message, id: receipt.id } satisfies LeadFormResult;
  } catch (err) {
    return leadFailure(err, read.values);
  }
}
