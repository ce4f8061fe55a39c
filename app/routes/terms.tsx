// /terms (spec §2): the terms text, kept as Markdown in content/terms.md.
import { requestContext } from "#app/context.ts";
import { Prose } from "#app/components/content/Prose.tsx";
import { breadcrumbs, pageMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/terms";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return { page: await services.content.page("terms"), seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.seo, {
    title: loaderData?.page.title ?? "Terms",
    description: loaderData?.page.description ?? "",
    path: "/terms",
    type: "article",
    extra: breadcrumbs(loaderData?.seo, [{ name: loaderData?.page.title ?? "Terms", path: "/terms" }]),
  });

export default function TermsPage({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1 className="text-2xl font-semibold">{loaderData.page.title}</h1>
      <Prose html={loaderData.page.html} className="mt-3" />
    </section>
  );
}
