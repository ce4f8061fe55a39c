// Offers API (spec §7): search, offer lookups by id, legacy id and slug, top
// searches, verticals and the search's filter lists. Thin adapters over services.offers.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { parseOfferSearchPayload } from "#contracts/offers.ts";

export async function offerRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const offers = services.offers;

  // Per address and instance (shared with the search pages): enough for a person paging through results, not for a scraper.
  api.post("/offers/search", { onRequest: api.searchBudget }, async (request) => {
    const input = parseOfferSearchPayload(request.body);
    return offers.search(input, { siteId: request.site.id, clientIp: request.ip });
  });

  const offerPage = async (offer: Awaited<ReturnType<typeof offers.require>>) => ({ offer, ...(await offers.related(offer)) });

  // Literal segment first: /offers/legacy/{id} is a lookup by the old site's id.
  api.get<{ Params: { id: string } }>("/offers/legacy/:id", async (request) =>
    offerPage(await offers.require(offers.byLegacyId(request.site.id, request.params.id))),
  );

  // The slug is decoration: the id decides, and the answer carries the canonical slug.
  api.get<{ Params: { id: string; slug: string } }>("/offers/:id/:slug", async (request) =>
    offerPage(await offers.require(offers.byId(request.site.id, request.params.id))),
  );

  // A bare number is an id (links without a slug); anything else is a slug.
  api.get<{ Params: { slug: string } }>("/offers/:slug", async (request) => {
    const { slug } = request.params;
    const found = /^\d+$/.test(slug) ? offers.byId(request.site.id, slug) : offers.bySlug(request.site.id, slug);
    return offerPage(await offers.require(found));
  });

  api.get("/top-searches", async (request) => ({ keywords: await offers.topSearches(request.site.id) }));
  api.addHook("onClose", async () => {
    await offers.flushSearchLog().catch((err: unknown) => api.log.error({ err }, "search log not written"));
  });

  api.get("/verticals", async () => ({ categories: await offers.verticals() }));

  // The whole filter lists of the offers search, loaded when a dropdown first opens.
  api.get("/offer-filters", async (_request, reply) => {
    reply.header("cache-control", "public, max-age=60");
    return offers.filterOptions();
  });

  api.get("/top-categories", async () => ({ categories: await offers.topCategories() }));
}
