// /advertise (docs/product.md §2, §7): an advertiser asks the sales desk for placements.
// Stored first, then mailed to sales and confirmed to the sender.
import { AD_BUDGETS, AD_PLACEMENTS, ADVERTISE_FIELDS as F } from "#contracts/leads.ts";
import { CheckboxGroup, SelectField, TextArea, TextField } from "#app/ui/form/Fields.tsx";
import { EmailField, FieldPairs, MessengerField, WebsiteField } from "./lead-fields";
import { LeadPage } from "./LeadPage";
import { leadAction } from "./lead.server";

export { leadMeta as meta } from "./LeadPage";
export { leadClientAction as clientAction } from "./lead-failures";

export const action = leadAction(({ values }, origin, services) => services.leads.requestAdvertising(values, origin));

export default function AdvertisePage() {
  return (
    <LeadPage
      kind="advertise"
      intro={
        <>
          <p className="mt-2 text-slate-600">
            Reach affiliates who are choosing their next offer, network and traffic source. Tell us what you would like
            to promote and our sales team will reply with availability and rates within two business days.
          </p>
          <ul className="mt-3 grid gap-2 text-sm text-slate-700 sm:grid-cols-2">
            <li className="card py-2">
              <strong>Banner ads</strong>: header and footer 728×90, top 270×70, sidebar 250×250 and 125×125 slots.
            </li>
            <li className="card py-2">
              <strong>Featured network listing</strong>: your network first in the networks directory.
            </li>
            <li className="card py-2">
              <strong>Sponsored offers</strong>: your offers at the top of the offers table, clearly marked.
            </li>
            <li className="card py-2">
              <strong>Newsletter</strong>: a placement in our mail to registered affiliates.
            </li>
          </ul>
        </>
      }
      form={{ schema: async () => (await import("#contracts/lead-schemas.ts")).advertisementRequestSchema }}
    >
      <FieldPairs>
        <TextField name="name" label={F.name} required autoComplete="name" />
        <EmailField label={F.email} />
        <TextField name="company" label={F.company} required autoComplete="organization" />
        <WebsiteField label={F.website} />
        <TextField name="phone" label={F.phone} type="tel" autoComplete="tel" hint="Optional" />
        <MessengerField />
      </FieldPairs>
      <CheckboxGroup name="placements" label={F.placements} required options={AD_PLACEMENTS} columns={2} />
      <SelectField name="budget" label={F.budget} required options={AD_BUDGETS} placeholder="Select a budget" />
      <TextArea
        name="message"
        label={F.message}
        required
        maxLength={5000}
        hint="What you promote, the dates and the geos you target."
      />
    </LeadPage>
  );
}
