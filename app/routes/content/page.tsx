// /privacy and /terms: one content page each, kept as Markdown in
// content/{privacy,terms}.md. routes.ts mounts this module at both addresses.
import { requestContext } from "#app/context.ts";
import { breadcrumbs, pageMeta } from "#app/lib/seo.ts";
import { Prose } from "./Prose";
import type { Route } from "./+types/page";

/** The page a route's path names (`/terms` → "terms"). */
const slugOf = (path: string) => path.replace(/\/+$/, "").split("/").pop() ?? "";

export async function loader({ pattern, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  // The route's own path, not the address asked for (which may end in .data or a slash).
  const page = await services.content.page(slugOf(pattern));
  return { page, seo: { origin: services.seo.origin(site), siteName: site.name } };
}

export const meta: Route.MetaFunction = ({ loaderData, location }) => {
  const slug = slugOf(location.pathname);
  const title = loaderData?.page.title ?? slug.charAt(0).toUpperCase() + slug.slice(1);
  return pageMeta(loaderData?.seo, {
    title,
    description: loaderData?.page.description ?? "",
    path: `/${slug}`,
    type: "article",
    extra: breadcrumbs(loaderData?.seo, [{ name: title, path: `/${slug}` }]),
  });
};

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1 className="text-2xl font-semibold">{loaderData.page.title}</h1>
      <Prose html={loaderData.page.html} className="mt-3" />
    </section>
  );
}
