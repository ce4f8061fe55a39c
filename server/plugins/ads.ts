// House-ad counting (docs/decisions/0015-house-ad-impressions-from-the-page.md):
// GET /ads/{id}/click counts a click and redirects to the ad's own stored target
// (never an address from the request, so it is no open redirect); POST
// /ads/impressions takes the ids of the ads a page showed. Both are limited per
// address in memory (or Redis), so counting costs no database statement per hit.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AD_IMPRESSIONS_PATH } from "#contracts/ads.ts";
import { refusalOf } from "#core/errors.ts";

/** Clicks per address and minute, as for join clicks. */
const CLICKS_PER_MINUTE = 60;
/** Page views per address and minute that may report the ads they showed. */
const IMPRESSION_REPORTS_PER_MINUTE = 120;

/** Agents that say they are robots (crawlers, link previews) follow links but are nobody's click. */
const ROBOT = /bot|crawl|spider|slurp/i;

const GONE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ad not found | OfferAtlas</title>
<meta name="robots" content="noindex"></head><body style="font-family:system-ui,sans-serif;margin:3rem auto;max-width:36rem">
<h1>This ad is no longer running</h1><p><a href="/">Back to OfferAtlas</a></p></body></html>`;

/** A browser following a link gets a page; a script gets `{ message }`. */
function notRunning(request: FastifyRequest, reply: FastifyReply, message: string) {
  if (/text\/html/.test(String(request.headers.accept ?? ""))) {
    return reply.status(404).type("text/html; charset=utf-8").header("cache-control", "no-store").send(GONE_PAGE);
  }
  return reply.status(404).header("cache-control", "no-store").send({ message });
}

export function registerAdRoutes(app: FastifyInstance) {
  const { ads } = app.services;
  app.get<{ Params: { id: string } }>(
    "/ads/:id/click",
    { preHandler: app.rateLimit({ max: CLICKS_PER_MINUTE, timeWindow: 60_000 }) },
    async (request, reply) => {
      try {
        const robot = ROBOT.test(String(request.headers["user-agent"] ?? ""));
        const target = await ads.click(request.params.id, { count: request.method === "GET" && !robot });
        return reply.header("cache-control", "no-store").redirect(target, 302);
      } catch (err) {
        const refusal = refusalOf(err);
        if (refusal?.status === 404) return notRunning(request, reply, refusal.message);
        throw err;
      }
    },
  );
  app.post(
    AD_IMPRESSIONS_PATH,
    {
      config: { keepsPersonalParts: true },
      preHandler: app.rateLimit({ max: IMPRESSION_REPORTS_PER_MINUTE, timeWindow: 60_000 }),
    },
    async (request, reply) => {
      ads.recordImpressions(request.body);
      return reply.status(204).header("cache-control", "no-store").send();
    },
  );
}
