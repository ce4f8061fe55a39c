// The frame of every lead form page: its heading and introduction, then the
// form, or in its place the confirmation once the form is accepted.
import { useFormResult } from "#app/ui/form/Fields.tsx";
import type { ComponentProps, ReactNode } from "react";

import { LEAD_ACTIONS, LEAD_CONFIRMATIONS } from "#contracts/leads.ts";
import { breadcrumbs, pageMeta, rootSeo } from "#app/lib/seo.ts";
import { LeadForm } from "./LeadForm";

// What each lead page says: its search and sharing texts (`crumb` names the page in its breadcrumb
// from Home), its heading, the submit button and the confirmation that replaces the form.
const LEAD_PAGES = {
  advertise: {
    path: "/advertise",
    title: "Advertise with OfferAtlas",
    description:
      "Reach affiliates choosing their next offer, network and traffic source: banners, featured network listings, sponsored offers and newsletter placements.",
    crumb: "Advertise",
    heading: "Advertise with OfferAtlas",
    submitLabel: "Send request",
    confirmation: { title: "Request sent", againLabel: "Send another request" },
  },
  contact: {
    path: "/contact",
    title: "Help and support",
    description:
      "Contact the OfferAtlas support team about listings, offers, network reviews or your account. We answer within one business day.",
    crumb: "Help",
    heading: "Help",
    submitLabel: "Send message",
    confirmation: { title: "Message sent", againLabel: "Send another message" },
  },
  network: {
    path: "/add-your-network",
    title: "Add your affiliate network",
    description:
      "Submit your affiliate network to be listed in the OfferAtlas directory and reach affiliates comparing networks and offers.",
    crumb: "Add Your Network",
    heading: "Add your network",
    submitLabel: "Submit network",
    confirmation: { title: "Network submitted", againLabel: "Submit another network" },
  },
} satisfies Record<keyof typeof LEAD_ACTIONS, unknown>;

type LeadKind = keyof typeof LEAD_PAGES;

/**
 * The meta export of every lead page, found by its address (routes match it in any case,
 * with or without a trailing slash).
 */
export const leadMeta = ({
  matches,
  location,
}: {
  matches: Parameters<typeof rootSeo>[0];
  location: { pathname: string };
}) => {
  const at = location.pathname.replace(/\/+$/, "").toLowerCase();
  const page = Object.values(LEAD_PAGES).find((p) => p.path === at);
  if (!page) return [];
  const { path, title, description, crumb } = page;
  const seo = rootSeo(matches);
  return pageMeta(seo, { title, description, path, extra: breadcrumbs(seo, [{ name: crumb, path }]) });
};

export function LeadPage({
  kind,
  intro,
  width = "max-w-3xl",
  form,
  children,
}: {
  kind: LeadKind;
  intro: ReactNode;
  width?: string;
  form: Omit<ComponentProps<typeof LeadForm>, "action" | "antibotAction" | "submitLabel" | "result" | "children">;
  children: ReactNode;
}) {
  const { path, heading, submitLabel, confirmation } = LEAD_PAGES[kind];
  // A refusal, or a post that failed on its way (lead-failures.ts), is also notified as an ERROR.
  const { result } = useFormResult();
  return (
    <section className={`mx-auto ${width}`}>
      <h1 className="text-2xl font-semibold">{heading}</h1>
      {intro}
      <div className="mt-4">
        {result?.ok ? (
          <div role="status" data-testid="lead-confirmation" className="card border-emerald-300 bg-emerald-50">
            <h2 className="text-xl font-semibold text-emerald-900">{confirmation.title}</h2>
            <p className="mt-2 text-emerald-900">{result.message ?? LEAD_CONFIRMATIONS[kind]}</p>
            <a href={path} className="link mt-3 inline-block">
              {confirmation.againLabel}
            </a>
          </div>
        ) : (
          <LeadForm
            {...form}
            action={path}
            antibotAction={LEAD_ACTIONS[kind]}
            submitLabel={submitLabel}
            result={result}
          >
            {children}
          </LeadForm>
        )}
      </div>
    </section>
  );
}
