// /robots.txt: what crawlers may fetch, and where the sitemap index is.
import { requestContext } from "#app/context.ts";
import type { Route } from "./+types/robots";

export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = context.get(requestContext);
  return new Response(services.seo.robots(site), {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
