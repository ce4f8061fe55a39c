// The offers service: search, offer pages, compare, top searches and the lists
// around them. API routes and page loaders both call it, so a rule lives once.
import type { Database } from "#db/client.ts";
import { notFound } from "#core/errors.ts";
import type { OfferSearch, OfferSearchResult } from "#contracts/offers.ts";
import { createTtlCache } from "../cache/ttl-cache.ts";
import { hashIp } from "../privacy.ts";
import { searchOffers } from "./search.ts";
import { createOrderWindows } from "./order-windows.ts";
import { createSearchLog, topSearches } from "./search-log.ts";
import {
  offerById, offerByLegacyId, offerBySlug, offersForCompare, sameOfferAtOtherNetworks, similarOffers, type OfferDetail,
} from "./detail.ts";
import {
  countries, featuredNetworks, networksWithOffers, payPerCallNetworks, topVerticals, verticals, type FilterOptions,
} from "./catalog.ts";

/** Lists that change only when offers are imported: cached briefly per process (a speed-up, not state). */
function cached<T>(ttlMs: number, load: () => Promise<T>) {
  let entry: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!entry || Date.now() - entry.at > ttlMs) {
      const value = load();
      entry = { at: Date.now(), value };
      value.catch(() => (entry = undefined));
    }
    return entry.value;
  };
}

/**
 * Search answers are public and popular searches repeat constantly, so an answer
 * is reused for a few seconds. Offers change through imports, not per request.
 */
export const SEARCH_CACHE_TTL_MS = 15_000;

export function createOfferService(db: Database, options: { searchCacheTtlMs?: number; ipHashSalt: string }) {
  const searchCache = createTtlCache<OfferSearchResult>({ ttlMs: options.searchCacheTtlMs ?? SEARCH_CACHE_TTL_MS, maxEntries: 1000 });
  const filterOptions = cached<FilterOptions>(60_000, async () => ({
    networks: await networksWithOffers(db),
    categories: await verticals(db),
    countries: await countries(db),
  }));
  const windows = createOrderWindows();
  const searchLog = createSearchLog(db);
  const topCategories = cached(300_000, () => topVerticals(db));
  const topPayPerCallNetworks = cached(300_000, () => payPerCallNetworks(db));

  return {
    /**
     * Runs a search. With `log`, a first-page search with text is recorded for
     * top searches (later pages of the same search are not new searches).
     */
    async search(input: OfferSearch, log?: { siteId: string; clientIp?: string }): Promise<OfferSearchResult> {
      const ttl = options.searchCacheTtlMs ?? SEARCH_CACHE_TTL_MS;
      const result = ttl > 0 ? await searchCache.get(JSON.stringify(input), () => searchOffers(db, windows, input)) : await searchOffers(db, windows, input);
      if (log && input.query && input.page === 1) {
        searchLog.record({
          siteId: log.siteId, query: input.query, resultCount: result.total,
          searcher: log.clientIp ? hashIp(log.clientIp, options.ipHashSalt) : undefined,
        });
      }
      return result;
    },

    byId: (siteId: string, id: string | number) => offerById(db, siteId, id),
    byLegacyId: (siteId: string, id: string | number) => offerByLegacyId(db, siteId, id),
    bySlug: (siteId: string, slug: string) => offerBySlug(db, siteId, slug),

    /** An offer or a 404 `{ message: "Offer not found" }`. */
    async require(found: Promise<OfferDetail | null>): Promise<OfferDetail> {
      const offer = await found;
      if (!offer) throw notFound("Offer not found");
      return offer;
    },

    /** Everything the offer page shows besides the offer itself. */
    async related(offer: OfferDetail) {
      return { sameOffer: await sameOfferAtOtherNetworks(db, offer), similarOffers: await similarOffers(db, offer) };
    },

    compare: (siteId: string, ids: readonly number[]) => offersForCompare(db, siteId, ids),
    async topSearches(siteId: string) {
      // Pending searches count once written; while the database refuses them, what is stored still answers.
      await searchLog.flush().catch(() => {});
      return topSearches(db, siteId);
    },
    /** Writes the search log's pending entries (the server calls it when closing). */
    flushSearchLog: () => searchLog.flush(),
    filterOptions,
    verticals: () => verticals(db),
    topCategories,
    featuredNetworks: (siteId: string) => featuredNetworks(db, siteId),
    payPerCallNetworks: topPayPerCallNetworks,
  };
}

export type OfferService = ReturnType<typeof createOfferService>;
