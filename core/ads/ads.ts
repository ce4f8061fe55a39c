// Ad slots (spec §9). Slots are filled from our house ads; a slot with no ad
// shows an "Advertise here" tile, so every slot keeps its exact size.
import { sql, type Queryable } from "#db/client.ts";

export const AD_SLOTS = {
  header: "728x90",
  footer: "728x90",
  top: "270x70",
  sidebar: "250x250",
  sidebarSmall: "125x125",
  searchBar: "370x165",
} as const;

export type AdSize = (typeof AD_SLOTS)[keyof typeof AD_SLOTS];

export type HouseAd = {
  id: number;
  size: AdSize;
  headline: string;
  body: string;
  imageUrl: string | null;
  targetUrl: string;
};

/** How many of each size one page shows: 3 top ads, 6 small sidebar ads. */
const PER_PAGE: Record<AdSize, number> = { "728x90": 2, "270x70": 3, "250x250": 1, "125x125": 6, "370x165": 1 };

export type AdsBySize = Record<AdSize, HouseAd[]>;

export function createAdService(db: Queryable) {
  // Per site, briefly cached: ads change rarely and every page asks for them.
  const cache = new Map<string, { at: number; ads: HouseAd[]; weights: number[] }>();
  const TTL_MS = 60_000;

  async function load(siteId: string) {
    const hit = cache.get(siteId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const rows = await db.query<{
      id: number; slot_size: AdSize; headline: string; body: string; image_url: string | null; target_url: string; weight: number;
    }>(sql`SELECT id, slot_size, headline, body, image_url, target_url, weight FROM house_ads
           WHERE active AND (site_id IS NULL OR site_id = ${siteId}) ORDER BY id`);
    const entry = {
      at: Date.now(),
      ads: rows.map((r) => ({ id: r.id, size: r.slot_size, headline: r.headline, body: r.body, imageUrl: r.image_url, targetUrl: r.target_url })),
      weights: rows.map((r) => r.weight),
    };
    cache.set(siteId, entry);
    return entry;
  }

  return {
    /** A weighted pick of distinct ads for every slot size on one page. */
    async forPage(siteId: string, random: () => number = Math.random): Promise<AdsBySize> {
      const { ads, weights } = await load(siteId);
      const result = {} as AdsBySize;
      for (const size of Object.keys(PER_PAGE) as AdSize[]) {
        const pool = ads.map((ad, i) => ({ ad, w: weights[i] })).filter((x) => x.ad.size === size);
        const picked: HouseAd[] = [];
        while (picked.length < PER_PAGE[size] && pool.length > 0) {
          let r = random() * pool.reduce((s, x) => s + x.w, 0);
          const i = Math.max(0, pool.findIndex((x) => (r -= x.w) < 0));
          picked.push(pool.splice(i, 1)[0].ad);
        }
        result[size] = picked;
      }
      return result;
    },
  };
}

export type AdService = ReturnType<typeof createAdService>;
