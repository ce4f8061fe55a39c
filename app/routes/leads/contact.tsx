// /contact, "Help" in the navigation (docs/product.md §2, §7): a message to the support
// desk. Stored first, then mailed to support and confirmed to the sender.
import { Link } from "#app/ui/Link.tsx";
import { CONTACT_FIELDS as F, CONTACT_TOPICS } from "#contracts/leads.ts";
import { SelectField, TextArea, TextField } from "#app/ui/form/Fields.tsx";
import { EmailField, FieldPairs } from "./lead-fields";
import { LeadPage } from "./LeadPage";
import { leadAction } from "./lead.server";

export { leadMeta as meta } from "./LeadPage";
export { leadClientAction as clientAction } from "./lead-failures";

export const action = leadAction(({ values }, origin, services) => services.leads.contactSupport(values, origin));

export default function ContactPage() {
  return (
    <LeadPage
      kind="contact"
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
      form={{ schema: async () => (await import("#contracts/lead-schemas.ts")).contactMessageSchema }}
    >
      <FieldPairs>
        <TextField name="name" label={F.name} required autoComplete="name" />
        <EmailField label={F.email} />
      </FieldPairs>
      <SelectField name="topic" label={F.topic} required options={CONTACT_TOPICS} placeholder="Select a topic" />
      <TextField name="subject" label={F.subject} required maxLength={200} />
      <TextArea name="message" label={F.message} required maxLength={5000} rows={7} />
    </LeadPage>
  );
}
