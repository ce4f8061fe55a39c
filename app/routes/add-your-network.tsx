// /add-your-network (spec §2, §7): a network asks to be listed. The logo is
// checked in the browser for a quick answer and again on the server from its
// bytes; the submission is stored as pending and the staff are mailed.
import { useActionData } from "react-router";
import { LEAD_ACTIONS, LEAD_CONFIRMATIONS, LOGO_RULES, NETWORK_FIELDS as F, networkSubmissionSchema } from "#contracts/leads.ts";
import { requestContext } from "#app/context.ts";
import { CheckboxGroup, FileField, SelectField, TextArea, TextField } from "#app/components/forms/Fields.tsx";
import { LeadConfirmation, LeadForm } from "#app/components/forms/LeadForm.tsx";
import { checkLogoInBrowser, type LeadFormResult } from "#app/components/forms/lead-form.ts";
import { handleLeadPost } from "#app/components/forms/lead-action.server.ts";
import { breadcrumbs, pageMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/add-your-network";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return { options: await services.networks.options(), seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.seo, {
    title: "Add your affiliate network",
    description: "Submit your affiliate network to be listed in the OfferAtlas directory and reach affiliates comparing networks and offers.",
    path: "/add-your-network",
    extra: breadcrumbs(loaderData?.seo, [{ name: "Add Your Network", path: "/add-your-network" }]),
  });

export const action = ({ request, context }: Route.ActionArgs) =>
  handleLeadPost(request, context, async ({ values, form }, meta, services) => {
    const file = form.get("logo");
    const logo = file instanceof File && (file.name || file.size)
      ? { filename: file.name, bytes: Buffer.from(await file.arrayBuffer()), truncated: false }
      : undefined;
    return services.leads.submitNetwork(values, logo, meta);
  });

const ACCEPT = LOGO_RULES.extensions.map((e) => `.${e}`).join(",");

async function checkFiles(form: FormData): Promise<Record<string, string>> {
  const file = form.get("logo");
  if (!(file instanceof File) || (!file.name && !file.size)) return { logo: `${F.logo} cannot be blank` };
  const message = await checkLogoInBrowser(file);
  return message ? { logo: message } : {};
}

export default function AddYourNetworkPage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<LeadFormResult>();
  const { options } = loaderData;
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold">Add your network</h1>
      <p className="mt-2 text-slate-600">
        List your affiliate network where affiliates compare networks, payouts and reviews. Our team reviews every
        submission, usually within five business days.
      </p>
      <div className="mt-4">
        {result?.ok ? (
          <LeadConfirmation title="Network submitted" message={result.message ?? LEAD_CONFIRMATIONS.network} again={{ href: "/add-your-network", label: "Submit another network" }} />
        ) : (
          <LeadForm action="/add-your-network" antibotAction={LEAD_ACTIONS.network} schema={networkSubmissionSchema(options)}
            result={result} multipart checkFiles={checkFiles} submitLabel="Submit network">
            <h2 className="text-base font-semibold">Your network</h2>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name="networkName" label={F.networkName} required maxLength={120} autoComplete="organization" />
              <TextField name="website" label={F.website} required type="url" inputMode="url" placeholder="https://" autoComplete="url" />
              <TextField name="offerCount" label={F.offerCount} required inputMode="numeric" />
              <SelectField name="trackingPlatform" label={F.trackingPlatform} required options={options.trackingPlatforms} placeholder="Select a platform" />
            </div>
            <TextArea name="description" label={F.description} required maxLength={5000}
              hint="What makes your network worth joining: verticals, exclusive offers, support, payments (at least 30 characters)." />
            <CheckboxGroup name="verticals" label={F.verticals} required options={options.verticals} />
            <CheckboxGroup name="commissionTypes" label={F.commissionTypes} required options={options.commissionTypes} columns={4} />

            <h2 className="pt-2 text-base font-semibold">Payments</h2>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField name="paymentFrequency" label={F.paymentFrequency} required options={options.paymentFrequencies} placeholder="Select a frequency" />
              <TextField name="minimumPayment" label={`${F.minimumPayment} (USD)`} required inputMode="numeric" />
            </div>
            <CheckboxGroup name="paymentMethods" label={F.paymentMethods} required options={options.paymentMethods} columns={4} />

            <h2 className="pt-2 text-base font-semibold">Contact</h2>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name="contactName" label={F.contactName} required autoComplete="name" />
              <TextField name="email" label={F.email} required type="email" autoComplete="email" />
              <TextField name="phone" label={F.phone} type="tel" autoComplete="tel" />
              <TextField name="messenger" label="Skype / Telegram" hint="Optional" />
            </div>

            <FileField name="logo" label={F.logo} required accept={ACCEPT}
              hint={`${LOGO_RULES.extensions.join(", ").toUpperCase()}; exactly ${LOGO_RULES.width} × ${LOGO_RULES.height} pixels; at most ${LOGO_RULES.maxKb} KB.`} />
          </LeadForm>
        )}
      </div>
    </section>
  );
}
