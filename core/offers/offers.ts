// The offers service: search, offer pages, compare, top searches and the lists
// around them. API routes and page loaders both call it, so a rule lives once.
import type { Database } from "#db/client.ts";
import type { FilterOptions, OfferDetail, OfferSearch, OfferSearchResult } from "#contracts/offers.ts";
import type { FeaturedNetwork } from "#contracts/networks.ts";
import { cachedValue, createCache, type SharedStore } from "#core/cache/cache.ts";
import { localGeneration, type Generation } from "#core/cache/generation.ts";
import { hashIp } from "#core/privacy.ts";
import { searchOffers } from "./search.ts";
import { createOrderWindows } from "./order-windows.ts";
import { createCloseSpellings, createKnownWords } from "./text-query.ts";
import { createSearchLog, topSearches } from "./search-log.ts";
import { createOfferEditor } from "./editor.ts";
import { findOffer, offersForCompare, sameOfferAtOtherNetworks, similarOffers, type OfferKey } from "./detail.ts";
import {
  categories,
  countries,
  featuredNetworkCandidates,
  networksWithOffers,
  pickFeaturedNetworks,
  payPerCallNetworks,
  topCategories,
} from "./catalog.ts";

export type OfferSettings = {
  /**
   * Search answers are public and popular searches repeat constantly, so an answer is
   * reused for a few seconds (0: not at all). Offers change through imports and console edits (which clear it).
   */
  searchCacheTtlMs: number;
  ipHashSalt: string;
  /** Bumped by every catalogue edit; with REDIS_URL one for every instance. */
  generation?: Generation;
  /** With REDIS_URL: search answers every instance shares. */
  sharedStore?: SharedStore;
  /** DATABASE_READ_URL: where searches and the lists of search pages read; the primary otherwise. */
  readDb?: Database;
};

/** How long after a catalogue edit searches read the primary instead of the replica (its replay lag, with room). */
const READ_PRIMARY_AFTER_EDIT_MS = 5000;

// The lists below change when offers are imported or edited in the console (which
// clears them): cached briefly per process (a speed-up, not state).
export function createOfferService(db: Database, options: OfferSettings) {
  // Read-only catalogue queries may go to a replica; edits, the search log and offer pages stay on the primary.
  // Right after a catalogue edit they read the primary too: a replica may not have replayed it yet, and
  // an answer computed there would be cached as the new one.
  let editedAt = -Infinity;
  const reads = () => (options.readDb && Date.now() - editedAt > READ_PRIMARY_AFTER_EDIT_MS ? options.readDb : db);
  const searchCache = createCache<OfferSearchResult>({
    ttlMs: options.searchCacheTtlMs,
    // Past its TTL an answer is still given for twice as long while one search replaces it (as the page cache does).
    staleMs: options.searchCacheTtlMs * 2,
    max: 1000,
    shared: options.sharedStore && { store: options.sharedStore, name: "search" },
  });
  const filterOptions = cachedValue<FilterOptions>(60_000, async () => ({
    networks: await networksWithOffers(reads()),
    categories: await categories(reads()),
    countries: await countries(reads()),
  }));
  const windows = createOrderWindows();
  const closeSpellings = createCloseSpellings();
  const knownWords = createKnownWords();
  const searchLog = createSearchLog(db);
  const topCategoryList = cachedValue(300_000, () => topCategories(reads()));
  const topPayPerCallNetworks = cachedValue(300_000, () => payPerCallNetworks(reads()));
  /** Page caches compare it to drop copies made before a catalogue edit (here or on another instance). */
  const generation = options.generation ?? localGeneration();
  // Every search page's sidebar: the candidates are read once a minute, the pick is made per view.
  const featuredCandidates = createCache<FeaturedNetwork[]>({ ttlMs: 60_000, max: 100 });
  // After a console edit, no cached answer may still show the offer as it was.
  generation.onChange(() => {
    editedAt = Date.now();
    searchCache.clear();
    filterOptions.clear();
    topCategoryList.clear();
    topPayPerCallNetworks.clear();
    featuredCandidates.clear();
  });
  const changed = () => generation.bump();

  return {
    /**
     * Runs a search. With `log`, a first-page search with text is recorded for
     * top searches (later pages of the same search are not new searches).
     */
    async search(input: OfferSearch, log?: { siteId: string; clientIp?: string }): Promise<OfferSearchResult> {
      // The catalogue's version in the key: a search still running when an edit lands is not reused after it.
      const key = `${generation.current()}:${JSON.stringify(input)}`;
      const result = await searchCache.get(key, () =>
        searchOffers(reads(), windows, input, closeSpellings, knownWords),
      );
      if (log && input.query && input.page === 1) {
        searchLog.record({
          siteId: log.siteId,
          query: input.query,
          resultCount: result.total,
          searcher: log.clientIp ? hashIp(log.clientIp, options.ipHashSalt) : undefined,
        });
      }
      return result;
    },

    /** The offer an address names (by id, old-site id or slug), or null. */
    lookup: (siteId: string, key: OfferKey) => findOffer(db, siteId, key),

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
    /** Writes the search log's pending entries (the server's background work: every second, and when closing). */
    flushSearchLog: () => searchLog.flush(),
    filterOptions,
    categories: () => categories(db),
    topCategories: topCategoryList,
    featuredNetworks: async (siteId: string) =>
      pickFeaturedNetworks(await featuredCandidates.get(siteId, () => featuredNetworkCandidates(reads(), siteId))),
    payPerCallNetworks: topPayPerCallNetworks,
    /** The console's offer editing (create, edit, retire, restore). */
    editor: createOfferEditor(db, { changed }),
    catalogueVersion: generation.current,
    /** A console change elsewhere in the catalogue (networks, verticals, traffic sources): the same forgetting. */
    catalogueChanged: changed,
  };
}
