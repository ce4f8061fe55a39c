// /add-your-network (docs/product.md §2, §7): a network asks to be listed. The logo is
// checked in the browser for a quick answer and again on the server from its
// bytes; the submission is stored as pending and the staff are mailed.
import {
  LEAD_ACTIONS,
  LEAD_CONFIRMATIONS,
  LOGO_RULES,
  NETWORK_FIELDS as F,
  networkSubmissionSchema,
} from "#contracts/leads.ts";
import { requestContext } from "#app/context.ts";
import { CheckboxGroup, FileField, SelectField, TextArea, TextField } from "#app/ui/form/Fields.tsx";
import { leadMeta, LeadPage } from "./LeadPage";
import { checkLogoInBrowser } from "./logo-check";
import { leadAction } from "./lead.server";
import type { Route } from "./+types/add-your-network";

export async function loader({ context }: Route.LoaderArgs) {
  return { options: await context.get(requestContext).services.networks.options() };
}

export const meta: Route.MetaFunction = leadMeta("/add-your-network");

export const action = leadAction(async ({ values, form }, origin, services) => {
  const file = form.get("logo");
  const logo =
    file instanceof File && (file.name || file.size)
      ? { filename: file.name, bytes: Buffer.from(await file.arrayBuffer()), truncated: false }
      : undefined;
  return services.leads.submitNetwork(values, logo, origin);
});

const ACCEPT = LOGO_RULES.extensions.map((e) => `.${e}`).join(",");

async function checkFiles(form: FormData): Promise<Record<string, string>> {
  const file = form.get("logo");
  if (!(file instanceof File) || (!file.name && !file.size)) return { logo: `${F.logo} cannot be blank` };
  const message = await checkLogoInBrowser(file);
  return message ? { logo: message } : {};
}

export default function AddYourNetworkPage({ loaderData: { options } }: Route.ComponentProps) {
  return (
    <LeadPage
      title="Add your network"
      intro={
        <p className="mt-2 text-slate-600">
          List your affiliate network where affiliates compare networks, payouts and reviews. Our team reviews every
          submission, usually within five business days.
        </p>
      }
      confirmation={{
        title: "Network submitted",
        fallback: LEAD_CONFIRMATIONS.network,
        againLabel: "Submit another network",
      }}
      form={{
        action: "/add-your-network",
        antibotAction: LEAD_ACTIONS.network,
        schema: networkSubmissionSchema(options),
        multipart: true,
        checkFiles,
        submitLabel: "Submit network",
      }}
    >
      <h2 className="text-base font-semibold">Your network</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField name="networkName" label={F.networkName} required maxLength={120} autoComplete="organization" />
        <TextField
          name="website"
          label={F.website}
          required
          type="url"
          inputMode="url"
          placeholder="https://"
          autoComplete="url"
        />
        <TextField name="offerCount" label={F.offerCount} required inputMode="numeric" />
        <SelectField
          name="trackingPlatform"
          label={F.trackingPlatform}
          required
          options={options.trackingPlatforms}
          placeholder="Select a platform"
        />
      </div>
      <TextArea
        name="description"
        label={F.description}
        required
        maxLength={5000}
        hint="What makes your network worth joining: verticals, exclusive offers, support, payments (at least 30 characters)."
      />
      <CheckboxGroup name="verticals" label={F.verticals} required options={options.verticals} />
      <CheckboxGroup
        name="commissionTypes"
        label={F.commissionTypes}
        required
        options={options.commissionTypes}
        columns={4}
      />

      <h2 className="pt-2 text-base font-semibold">Payments</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          name="paymentFrequency"
          label={F.paymentFrequency}
          required
          options={options.paymentFrequencies}
          placeholder="Select a frequency"
        />
        <TextField name="minimumPayment" label={`${F.minimumPayment} (USD)`} required inputMode="numeric" />
      </div>
      <CheckboxGroup
        name="paymentMethods"
        label={F.paymentMethods}
        required
        options={options.paymentMethods}
        columns={4}
      />

      <h2 className="pt-2 text-base font-semibold">Contact</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField name="contactName" label={F.contactName} required autoComplete="name" />
        <TextField name="email" label={F.email} required type="email" autoComplete="email" />
        <TextField name="phone" label={F.phone} type="tel" autoComplete="tel" />
        <TextField name="messenger" label="Skype / Telegram" hint="Optional" />
      </div>

      <FileField
        name="logo"
        label={F.logo}
        required
        accept={ACCEPT}
        hint={`${LOGO_RULES.extensions.join(", ").toUpperCase()}; exactly ${LOGO_RULES.width} × ${LOGO_RULES.height} pixels; at most ${LOGO_RULES.maxKb} KB.`}
      />
    </LeadPage>
  );
}
