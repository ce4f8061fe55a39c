// /add-your-network (docs/product.md §2, §7): a network asks to be listed. The logo is
// checked in the browser for a quick answer and again on the server from its
// bytes; the submission is stored as pending and the staff are mailed.
import type { ReactNode } from "react";
import { LOGO_RULES, NETWORK_FIELDS as F } from "#contracts/leads.ts";
import { SELECT_COUNTRY } from "#contracts/networks.ts";
import { requestContext } from "#app/context.ts";
import { CheckboxGroup, FileField, SelectField, TextArea, TextField } from "#app/ui/form/Fields.tsx";
import { EmailField, FieldPairs, MessengerField, WebsiteField } from "./lead-fields";
import { LeadPage } from "./LeadPage";
import { checkLogoInBrowser } from "./logo-check";
import { leadAction } from "./lead.server";
import type { Route } from "./+types/add-your-network";

export { leadMeta as meta } from "./LeadPage";
export { leadClientAction as clientAction } from "./lead-failures";

export async function loader({ context }: Route.LoaderArgs) {
  return { options: await context.get(requestContext).services.networks.options() };
}

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

// A titled part of the form: its short fields side by side, then the wide ones.
function Section({
  title,
  first = false,
  pairs,
  children,
}: {
  title: string;
  first?: boolean;
  pairs: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <h2 className={first ? "text-base font-semibold" : "pt-2 text-base font-semibold"}>{title}</h2>
      <FieldPairs>{pairs}</FieldPairs>
      {children}
    </>
  );
}

export default function AddYourNetworkPage({ loaderData: { options } }: Route.ComponentProps) {
  // The checkboxes of a field whose options the loader brought under the same name.
  const choices = (name: "verticals" | "commissionTypes" | "paymentMethods", columns?: 4) => (
    <CheckboxGroup name={name} label={F[name]} required options={options[name]} columns={columns} />
  );
  return (
    <LeadPage
      kind="network"
      intro={
        <p className="mt-2 text-slate-600">
          List your affiliate network where affiliates compare networks, payouts and reviews. Our team reviews every
          submission, usually within five business days.
        </p>
      }
      form={{
        schema: async () => (await import("#contracts/lead-schemas.ts")).networkSubmissionSchema(options),
        multipart: true,
        checkFiles,
      }}
    >
      <Section
        title="Your network"
        first
        pairs={
          <>
            <TextField name="networkName" label={F.networkName} required maxLength={120} autoComplete="organization" />
            <WebsiteField label={F.website} />
            <SelectField
              name="country"
              label={F.country}
              options={options.countries.map((c) => ({ value: c.code, label: c.name }))}
              placeholder={SELECT_COUNTRY}
            />
            <TextField name="offerCount" label={F.offerCount} required inputMode="numeric" />
            <SelectField
              name="trackingPlatform"
              label={F.trackingPlatform}
              required
              options={options.trackingPlatforms}
              placeholder="Select a platform"
            />
          </>
        }
      >
        <TextArea
          name="description"
          label={F.description}
          required
          maxLength={5000}
          hint="What makes your network worth joining: verticals, exclusive offers, support, payments (at least 30 characters)."
        />
        {choices("verticals")}
        {choices("commissionTypes", 4)}
      </Section>
      <Section
        title="Payments"
        pairs={
          <>
            <SelectField
              name="paymentFrequency"
              label={F.paymentFrequency}
              required
              options={options.paymentFrequencies}
              placeholder="Select a frequency"
            />
            <TextField name="minimumPayment" label={`${F.minimumPayment} (USD)`} required inputMode="numeric" />
          </>
        }
      >
        {choices("paymentMethods", 4)}
      </Section>
      <Section
        title="Contact"
        pairs={
          <>
            <TextField name="contactName" label={F.contactName} required autoComplete="name" />
            <EmailField label={F.email} />
            <TextField name="phone" label={F.phone} type="tel" autoComplete="tel" />
            <MessengerField />
          </>
        }
      />
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
