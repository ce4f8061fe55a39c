// /contact, "Help" in the navigation (spec §2, §7): a message to the support
// desk. Stored first, then mailed to support and confirmed to the sender.
import { Link, useActionData } from "react-router";
import { CONTACT_FIELDS as F, CONTACT_TOPICS, contactMessageSchema, LEAD_ACTIONS, LEAD_CONFIRMATIONS } from "#contracts/leads.ts";
import { requestContext } from "#app/context.ts";
import { SelectField, TextArea, TextField } from "#app/components/forms/Fields.tsx";
import { LeadConfirmation, LeadForm } from "#app/components/forms/LeadForm.tsx";
import type { LeadFormResult } from "#app/components/forms/lead-form.ts";
import { handleLeadPost } from "#app/components/forms/lead-action.server.ts";
import { breadcrumbs, pageMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/contact";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return { seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.seo, {
    title: "Help and support",
    description: "Contact the OfferAtlas support team about listings, offers, network reviews or your account. We answer within one business day.",
    path: "/contact",
    extra: breadcrumbs(loaderData?.seo, [{ name: "Help", path: "/contact" }]),
  });

export const action = ({ request, context }: Route.ActionArgs) =>
  handleLeadPost(request, context, ({ values }, meta, services) => services.leads.contactSupport(values, meta));

export default function ContactPage() {
  const result = useActionData<LeadFormResult>();
  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">Help</h1>
      <p className="mt-2 text-slate-600">
        Many answers are already in our <Link to="/faq" className="link">FAQ</Link>. For anything else, write to our
        support team: we answer every message, usually within one business day.
      </p>
      <div className="mt-4">
        {result?.ok ? (
          <LeadConfirmation title="Message sent" message={result.message ?? LEAD_CONFIRMATIONS.contact} again={{ href: "/contact", label: "Send another message" }} />
        ) : (
          <LeadForm action="/contact" antibotAction={LEAD_ACTIONS.contact} schema={contactMessageSchema} result={result} submitLabel="Send message">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name="name" label={F.name} required autoComplete="name" />
              <TextField name="email" label={F.email} required type="email" autoComplete="email" />
            </div>
            <SelectField name="topic" label={F.topic} required options={CONTACT_TOPICS} placeholder="Select a topic" />
            <TextField name="subject" label={F.subject} required maxLength={200} />
            <TextArea name="message" label={F.message} required maxLength={5000} rows={7} />
          </LeadForm>
        )}
      </div>
    </section>
  );
}
