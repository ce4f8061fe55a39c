// The frame of every lead form page: its heading and introduction, then the
// form, or in its place the confirmation once the form is accepted.
import type { ComponentProps, ReactNode } from "react";
import { useActionData } from "react-router";
import { breadcrumbs, pageMeta, rootSeo } from "#app/lib/seo.ts";
import type { FormResult } from "#app/ui/form/form.ts";
import { LeadForm } from "./LeadForm";

// The lead pages' search and sharing texts; `crumb` names the page in its breadcrumb from Home.
const LEAD_PAGES = {
  "/advertise": {
    title: "Advertise with OfferAtlas",
    description:
      "Reach affiliates choosing their next offer, network and traffic source: banners, featured network listings, sponsored offers and newsletter placements.",
    crumb: "Advertise",
  },
  "/contact": {
    title: "Help and support",
    description:
      "Contact the OfferAtlas support team about listings, offers, network reviews or your account. We answer within one business day.",
    crumb: "Help",
  },
  "/add-your-network": {
    title: "Add your affiliate network",
    description:
      "Submit your affiliate network to be listed in the OfferAtlas directory and reach affiliates comparing networks and offers.",
    crumb: "Add Your Network",
  },
};

/** The meta export of the lead page at `path`. */
export const leadMeta =
  (path: keyof typeof LEAD_PAGES) =>
  ({ matches }: { matches: Parameters<typeof rootSeo>[0] }) => {
    const { crumb, ...page } = LEAD_PAGES[path];
    const seo = rootSeo(matches);
    return pageMeta(seo, { ...page, path, extra: breadcrumbs(seo, [{ name: crumb, path }]) });
  };

export function LeadPage({
  title,
  intro,
  width = "max-w-3xl",
  confirmation,
  form,
  children,
}: {
  title: string;
  intro: ReactNode;
  width?: string;
  confirmation: { title: string; fallback: string; againLabel: string };
  form: Omit<ComponentProps<typeof LeadForm>, "result" | "children">;
  children: ReactNode;
}) {
  const result = useActionData<FormResult>();
  return (
    <section className={`mx-auto ${width}`}>
      <h1 className="text-2xl font-semibold">{title}</h1>
      {intro}
      <div className="mt-4">
        {result?.ok ? (
          <div role="status" data-testid="lead-confirmation" className="card border-emerald-300 bg-emerald-50">
            <h2 className="text-xl font-semibold text-emerald-900">{confirmation.title}</h2>
            <p className="mt-2 text-emerald-900">{result.message ?? confirmation.fallback}</p>
            <a href={form.action} className="link mt-3 inline-block">
              {confirmation.againLabel}
            </a>
          </div>
        ) : (
          <LeadForm {...form} result={result}>
            {children}
          </LeadForm>
        )}
      </div>
    </section>
  );
}
