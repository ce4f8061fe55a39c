// Ad slots (docs/product.md §9). Slots are filled from our house ads; a slot with no ad
// shows an "Advertise here" tile, so every slot keeps its exact size. An ad serves
// within its dates (UTC days) on its site or on all; the search-bar ad (370x165)
// answers to the words searched. Impressions and clicks are counted in stats.ts.
import { sql, type Database } from "#db/client.ts";
import { createCache } from "#core/cache/cache.ts";
import { notFound } from "#core/errors.ts";
import {
  AD_SIZES,
  KEYWORD_AD_SIZE,
  adImpressions,
  adReportRange,
  isAdTarget,
  type AdReport,
  type AdSize,
  type AdsBySize,
  type HouseAd,
} from "#contracts/ads.ts";
import { integerField } from "#contracts/validation.ts";
import { createAdConsole } from "./console.ts";
import { adReport, createAdCounter } from "./stats.ts";
import { AD_SERVES } from "./status.ts";

/** How many of each size one page shows: 3 top ads, 6 small sidebar ads. */
const PER_PAGE: Record<AdSize, number> = { "728x90": 2, "270x70": 3, "250x250": 1, "125x125": 6, "370x165": 1 };

type Candidate = { ad: HouseAd; weight: number; keywords: string[] };

const AD_GONE = "This ad is no longer running";
const clickId = integerField("id", 1).refine(Number.isSafeInteger);

/** Lower-case words of a search, as the keywords are stored. */
const wordsOf = (search: string) =>
  search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** A keyword matches when each of its words is among the search's ("car insurance" in "cheap car insurance"). */
const matches = (keywords: string[], words: Set<string>) =>
  keywords.some((k) => {
    const own = wordsOf(k);
    return own.length > 0 && own.every((w) => words.has(w));
  });

/** A weighted pick of up to `count` distinct ads. */
function pick(pool: Candidate[], count: number, random: () => number): HouseAd[] {
  const left = [...pool];
  const picked: HouseAd[] = [];
  while (picked.length < count && left.length > 0) {
    let r = random() * left.reduce((s, x) => s + x.weight, 0);
    const i = Math.max(
      0,
      left.findIndex((x) => (r -= x.weight) < 0),
    );
    picked.push(left.splice(i, 1)[0].ad);
  }
  return picked;
}

export function createAdService(db: Database) {
  // Per site, briefly cached: ads change rarely and every page asks for them. A change
  // on this instance moves to a new generation of keys, so neither a cached list nor
  // a load already under way can serve the old ad again.
  const cache = createCache<Candidate[]>({ ttlMs: 60_000, max: 100 });
  let generation = 0;
  const counter = createAdCounter(db);

  const load = (siteId: string) =>
    cache.get(`${generation}:${siteId}`, async () => {
      const rows = await db.query<HouseAd & { weight: number; keywords: string[] }>(sql`
        SELECT a.id, a.slot_size AS size, a.headline, a.body, a.image_url AS "imageUrl", a.target_url AS "targetUrl",
               a.weight, a.keywords
        FROM house_ads a
        WHERE ${AD_SERVES} AND (a.site_id IS NULL OR a.site_id = ${siteId})
        ORDER BY a.id`);
      return rows.map(({ weight, keywords, ...ad }) => ({ ad, weight, keywords }));
    });

  const changed = () => {
    generation += 1;
    cache.clear();
  };

  return {
    /**
     * A weighted pick of distinct ads for every slot size on one page. With a search,
     * the search-bar ad is one whose keywords match it, else one answering to no keywords.
     */
    async forPage(
      siteId: string,
      options: { search?: string } = {},
      random: () => number = Math.random,
    ): Promise<AdsBySize> {
      const candidates = await load(siteId);
      const words = new Set(wordsOf(options.search ?? ""));
      const result = {} as AdsBySize;
      for (const size of AD_SIZES) {
        const pool = candidates.filter((c) => c.ad.size === size);
        if (size !== KEYWORD_AD_SIZE) {
          result[size] = pick(pool, PER_PAGE[size], random);
          continue;
        }
        const targeted = words.size > 0 ? pool.filter((c) => matches(c.keywords, words)) : [];
        const untargeted = pool.filter((c) => c.keywords.length === 0);
        result[size] = pick(targeted.length > 0 ? targeted : untargeted, PER_PAGE[size], random);
      }
      return result;
    },

    /** Counts the ads a page showed (`body`: `{ ads: [ids] }`); ids of no ad are dropped when written. */
    recordImpressions(body: unknown): void {
      const { ads } = adImpressions.parse(body ?? {});
      for (const id of new Set(ads)) counter.impression(id);
    },

    /**
     * Where a click on a running ad leads: its own stored target, nothing else. The
     * click is counted unless `count` is false (a HEAD request, a crawler).
     */
    async click(rawId: unknown, { count = true }: { count?: boolean } = {}): Promise<string> {
      const parsed = clickId.safeParse(rawId);
      if (!parsed.success) throw notFound(AD_GONE);
      const [ad] = await db.query<{ target_url: string }>(
        sql`SELECT target_url FROM house_ads WHERE id = ${parsed.data} AND active`,
      );
      if (!ad || !isAdTarget(ad.target_url)) throw notFound(AD_GONE);
      if (count) counter.click(parsed.data);
      return ad.target_url;
    },

    flushStats: () => counter.flush(),

    /** Impressions, clicks and CTR per ad over `?from=&to=` (default: the last 30 days). */
    async report(query: unknown): Promise<AdReport> {
      const range = adReportRange.parse(query ?? {});
      await counter.flush();
      return adReport(db, range);
    },

    console: createAdConsole(db, { changed, beforeRead: () => counter.flush() }),
  };
}
