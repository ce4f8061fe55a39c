// /contact, "Help" in the navigation (docs/product.md §2, §7): a message to the support
// desk. Stored first, then mailed to support and confirmed to the sender.
import { Link } from "react-router";
import {
  CONTACT_FIELDS as F,
  CONTACT_TOPICS,
  contactMessageSchema,
  LEAD_ACTIONS,
  LEAD_CONFIRMATIONS,
} from "#contracts/leads.ts";
import { SelectField, TextArea, TextField } from "#app/ui/form/Fields.tsx";
import { leadMeta, LeadPage } from "./LeadPage";
import { leadAction } from "./lead.server";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = leadMeta("/contact");

export const action = leadAction(({ values }, origin, services) => services.leads.contactSupport(values, origin));

export default function ContactPage() {
  return (
    <LeadPage
      title="Help"
      width="max-w-2xl"
      intro={
        <p className="mt-2 text-slate-600">
          Many answers are already in our{" "}
          <Link to="/faq" className="link">
            FAQ
          </Link>
          . For anything else, write to our support team: we answer every message, usually within one business day.
        </p>
      }
      confirmation={{ title: "Message sent", fallback: LEAD_CONFIRMATIONS.contact, againLabel: "Send another message" }}
      form={{
        action: "/contact",
        antibotAction: LEAD_ACTIONS.contact,
        schema: contactMessageSchema,
        submitLabel: "Send message",
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField name="name" label={F.name} required autoComplete="name" />
        <TextField name="email" label={F.email} required type="email" autoComplete="email" />
      </div>
      <SelectField name="topic" label={F.topic} required options={CONTACT_TOPICS} placeholder="Select a topic" />
      <TextField name="subject" label={F.subject} required maxLength={200} />
      <TextArea name="message" label={F.message} required maxLength={5000} rows={7} />
    </LeadPage>
  );
}
