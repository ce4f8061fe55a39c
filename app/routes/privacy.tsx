// /privacy (spec §2): the privacy text, kept as Markdown in content/privacy.md.
import { requestContext } from "#app/context.ts";
import { Prose } from "#app/components/content/Prose.tsx";
import { breadcrumbs, pageMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/privacy";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return { page: await services.content.page("privacy"), seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.seo, {
    title: loaderData?.page.title ?? "Privacy",
    description: loaderData?.page.description ?? "",
    path: "/privacy",
    type: "article",
    extra: breadcrumbs(loaderData?.seo, [{ name: loaderData?.page.title ?? "Privacy", path: "/privacy" }]),
  });

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1 className="text-2xl font-semibold">{loaderData.page.title}</h1>
      <Prose html={loaderData.page.html} className="mt-3" />
    </section>
  );
}
