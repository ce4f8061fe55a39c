// Ad slots (docs/product.md §9). Slots are filled from our house ads; a slot with no ad
// shows an "Advertise here" tile, so every slot keeps its exact size.
import { sql, type Queryable } from "#db/client.ts";
import { createCache } from "#core/cache/cache.ts";
import type { AdSize, AdsBySize, HouseAd } from "#contracts/ads.ts";

/** How many of each size one page shows: 3 top ads, 6 small sidebar ads. */
const PER_PAGE: Record<AdSize, number> = { "728x90": 2, "270x70": 3, "250x250": 1, "125x125": 6, "370x165": 1 };

export function createAdService(db: Queryable) {
  // Per site, briefly cached: ads change rarely and every page asks for them.
  const cache = createCache<{ ads: HouseAd[]; weights: number[] }>({ ttlMs: 60_000, max: 100 });

  const load = (siteId: string) =>
    cache.get(siteId, async () => {
      const rows = await db.query<{
        id: number;
        slot_size: AdSize;
        headline: string;
        body: string;
        image_url: string | null;
        target_url: string;
        weight: number;
      }>(sql`SELECT id, slot_size, headline, body, image_url, target_url, weight FROM house_ads
             WHERE active AND (site_id IS NULL OR site_id = ${siteId}) ORDER BY id`);
      return {
        ads: rows.map((r) => ({
          id: r.id,
          size: r.slot_size,
          headline: r.headline,
          body: r.body,
          imageUrl: r.image_url,
          targetUrl: r.target_url,
        })),
        weights: rows.map((r) => r.weight),
      };
    });

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
          const i = Math.max(
            0,
            pool.findIndex((x) => (r -= x.w) < 0),
          );
          picked.push(pool.splice(i, 1)[0].ad);
        }
        result[size] = picked;
      }
      return result;
    },
  };
}
