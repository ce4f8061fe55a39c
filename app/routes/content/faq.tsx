// /faq (docs/product.md §2): questions and answers kept in content/faq.md, shown as an
// accordion, with FAQPage structured data for search engines.
import { requestContext } from "#app/context.ts";
import { FaqAccordion } from "./FaqAccordion";
import { Prose } from "./Prose";
import { breadcrumbs, jsonLd, pageMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/faq";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return { faq: await services.content.faq(), seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const faq = loaderData?.faq;
  return pageMeta(loaderData?.seo, {
    title: faq?.title ?? "Frequently asked questions",
    description: faq?.description || "Answers to what affiliates, networks and advertisers ask us most.",
    path: "/faq",
    extra: [
      ...breadcrumbs(loaderData?.seo, [{ name: "FAQ", path: "/faq" }]),
      ...(faq
        ? [
            jsonLd({
              "@context": "https://schema.org",
              "@type": "FAQPage",
              mainEntity: faq.sections
                .flatMap((s) => s.items)
                .map((q) => ({
                  "@type": "Question",
                  name: q.question,
                  acceptedAnswer: { "@type": "Answer", text: q.answerHtml.trim() },
                })),
            }),
          ]
        : []),
    ],
  });
};

export default function FaqPage({ loaderData }: Route.ComponentProps) {
  const { faq } = loaderData;
  return (
    <section>
      <h1 className="text-2xl font-semibold">{faq.title}</h1>
      <Prose html={faq.introHtml} className="mt-2 text-slate-600" />
      <div className="mt-5">
        <FaqAccordion sections={faq.sections} />
      </div>
    </section>
  );
}
