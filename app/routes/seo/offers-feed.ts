// /feeds/offers.xml?vertical=<slug or name>: RSS of the newest offers.
import { data } from "react-router";
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/offers-feed";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  const vertical = new URL(request.url).searchParams.get("vertical");
  if (vertical !== null && vertical.length > 100) throw data("Not found", { status: 404 });
  const feed = await services.seo.offersFeed(site, vertical);
  if (feed === null) throw data("Not found", { status: 404 });
  return new Response(feed, {
    headers: { "content-type": "application/rss+xml; charset=utf-8", "cache-control": "public, max-age=600" },
  });
}
