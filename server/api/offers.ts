// Offers API (docs/product.md §7): search, offer lookups by id, legacy id and slug, top
// searches, categories and the search's filter lists. Thin adapters over services.offers.
import type { FastifyInstance } from "fastify";
import type { Services } from "#core/services.ts";
import { HttpError, notFound } from "#core/errors.ts";
import type { OfferKey } from "#core/offers/detail.ts";
import { OFFER_RETIRED, parseOfferSearchPayload, type OfferPage } from "#contracts/offers.ts";

export async function offerRoutes(api: FastifyInstance, { services }: { services: Services }) {
  const offers = services.offers;

  // Per address and instance (shared with the search pages): enough for a person paging through results, not for a scraper.
  api.post("/offers/search", { onRequest: api.searchBudget }, async (request) => {
    const input = parseOfferSearchPayload(request.body);
    return offers.search(input, { siteId: request.site.id, clientIp: request.ip });
  });

  // One offer's page: the offer (404 when the address names none) and the lists around it.
  const offerPage = async (siteId: string, key: OfferKey): Promise<OfferPage> => {
    const offer = await offers.lookup(siteId, key);
    if (!offer) throw notFound("Offer not found");
    // Retired from the directory: gone for good, not merely unknown.
    if (offer.status === "retired") throw new HttpError(410, OFFER_RETIRED);
    return { offer, ...(await offers.related(offer)) };
  };

  // Literal segment first: /offers/legacy/{id} is a lookup by the old site's id.
  api.get<{ Params: { id: string } }>("/offers/legacy/:id", async (request) =>
    offerPage(request.site.id, { legacyId: request.params.id }),
  );

  // The slug is decoration: the id decides, and the answer carries the canonical slug.
  api.get<{ Params: { id: string; slug: string } }>("/offers/:id/:slug", async (request) =>
    offerPage(request.site.id, { id: request.params.id }),
  );

  // A bare number is an id (links without a slug); anything else is a slug.
  api.get<{ Params: { slug: string } }>("/offers/:slug", async (request) =>
    offerPage(request.site.id, { segment: request.params.slug }),
  );

  api.get("/top-searches", async (request) => ({ keywords: await offers.topSearches(request.site.id) }));

  api.get("/verticals", async () => ({ categories: await offers.categories() }));

  // The whole filter lists of the offers search, loaded when a dropdown first opens.
  api.get("/offer-filters", async (_request, reply) => {
    reply.header("cache-control", "public, max-age=60");
    return offers.filterOptions();
  });

  api.get("/top-categories", async () => ({ categories: await offers.topCategories() }));
}
