// The lists around the offers search: filter options (networks, categories,
// countries), top categories and the featured networks of the sidebar.
import { sql, type Queryable } from "#db/client.ts";
import type { Category, FilterCountry, FilterNetwork, TopCategory } from "#contracts/offers.ts";
import type { FeaturedNetwork, PayPerCallNetwork } from "#contracts/networks.ts";

/** docs/product.md §4: the name-sorted network list holds only networks with offerCount > 0, sorted by lowercase name. */
export async function networksWithOffers(db: Queryable): Promise<FilterNetwork[]> {
  return db.query<FilterNetwork>(sql`
    SELECT id, name FROM networks
    WHERE status = 'active' AND offer_count > 0 ORDER BY lower(name), id`);
}

export async function categories(db: Queryable): Promise<Category[]> {
  return db.query<Category>(sql`SELECT id, slug, name, top FROM categories ORDER BY name`);
}

/** The categories marked top, with how many active offers each holds (kept by triggers, db/migrations/0027). */
export async function topCategories(db: Queryable): Promise<TopCategory[]> {
  return db.query<TopCategory>(sql`
    SELECT c.id, c.slug, c.name, c.top, c.offer_count AS "offerCount"
    FROM categories c WHERE c.top ORDER BY c.sort_order, c.name`);
}

/** Countries with the United States first (the reference table's order). */
export async function countries(db: Queryable): Promise<FilterCountry[]> {
  return db.query<FilterCountry>(sql`SELECT code, name FROM countries ORDER BY sort_order`);
}

/** The sidebar's candidates: every active featured network listed on the site (a short list, cached by the service). */
export async function featuredNetworkCandidates(db: Queryable, siteId: string): Promise<FeaturedNetwork[]> {
  return db.query<FeaturedNetwork>(sql`
    SELECT n.id, n.slug, n.name, n.logo_url AS "logoUrl", n.avg_rating::float8 AS "avgRating", n.offer_count AS "offerCount"
    FROM networks n
    WHERE n.featured AND n.status = 'active'
      AND EXISTS (SELECT 1 FROM network_properties p WHERE p.network_id = n.id AND p.identifier = ${siteId})
    ORDER BY n.id`);
}

/** Featured networks for the sidebar: `limit` of the candidates, shuffled on every load (docs/product.md §4). */
export function pickFeaturedNetworks(
  candidates: readonly FeaturedNetwork[],
  limit = 5,
  random: () => number = Math.random,
): FeaturedNetwork[] {
  const pool = [...candidates];
  // A partial Fisher–Yates shuffle: the first `limit` places get a uniform pick.
  for (let i = 0; i < Math.min(limit, pool.length); i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, limit);
}

/**
 * Networks with the most active pay-per-call offers (the /pay-per-call page): their counts are kept
 * by triggers (db/migrations/0027), and each best payout is one probe of a partial index.
 */
export async function payPerCallNetworks(db: Queryable, limit = 8): Promise<PayPerCallNetwork[]> {
  return db.query<PayPerCallNetwork>(sql`
    SELECT n.id, n.slug, n.name, n.avg_rating::float8 AS "avgRating", n.ppc_offer_count AS "ppcOffers",
      (SELECT max(o.payout_usd) FROM offers o WHERE o.network_id = n.id AND o.status = 'active' AND o.ppc) AS "bestPayoutUsd"
    FROM networks n
    WHERE n.status = 'active' AND n.ppc_offer_count > 0
    ORDER BY n.ppc_offer_count DESC, n.avg_rating DESC, n.id LIMIT ${limit}`);
}
