// /sitemaps/{kind}/{page}.xml: one sitemap file, streamed (up to 50,000 URLs).
import { data } from "react-router";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/sitemap-page";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const m = /^([1-9][0-9]{0,8})\.xml$/.exec(params.page);
  const body = m ? await services.seo.sitemapPage(site, params.kind, Number(m[1])) : null;
  if (!body) throw data("Not found", { status: 404 });
  return new Response(body, {
    headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
