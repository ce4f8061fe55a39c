// /sitemap.xml: the index of the per-kind, per-id-range sitemaps.
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/sitemap-index";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return new Response(await services.seo.sitemapIndex(site), {
    headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
