// /advertise (docs/product.md §2, §7): an advertiser asks the sales desk for placements.
// Stored first, then mailed to sales and confirmed to the sender.
import {
  AD_BUDGETS,
  AD_PLACEMENTS,
  ADVERTISE_FIELDS as F,
  advertisementRequestSchema,
  LEAD_ACTIONS,
  LEAD_CONFIRMATIONS,
} from "#contracts/leads.ts";
import { CheckboxGroup, SelectField, TextArea, TextField } from "#app/ui/form/Fields.tsx";
import { leadMeta, LeadPage } from "./LeadPage";
import { leadAction } from "./lead.server";
import type { Route } from "./+types/advertise";

export const meta: Route.MetaFunction = leadMeta("/advertise");

export const action = leadAction(({ values }, origin, services) => services.leads.requestAdvertising(values, origin));

export default function AdvertisePage() {
  return (
    <LeadPage
      title="Advertise with OfferAtlas"
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
      confirmation={{
        title: "Request sent",
        fallback: LEAD_CONFIRMATIONS.advertise,
        againLabel: "Send another request",
      }}
      form={{
        action: "/advertise",
        antibotAction: LEAD_ACTIONS.advertise,
        schema: advertisementRequestSchema,
        submitLabel: "Send request",
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField name="name" label={F.name} required autoComplete="name" />
        <TextField name="email" label={F.email} required type="email" autoComplete="email" />
        <TextField name="company" label={F.company} required autoComplete="organization" />
        <TextField
          name="website"
          label={F.website}
          required
          type="url"
          inputMode="url"
          placeholder="https://"
          autoComplete="url"
        />
        <TextField name="phone" label={F.phone} type="tel" autoComplete="tel" hint="Optional" />
        <TextField name="messenger" label="Skype / Telegram" hint="Optional" />
      </div>
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
