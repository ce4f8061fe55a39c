// The changes an alert tells of, read from offer_history (written by offer syncs,
// core/supply/sync.ts, and console edits, core/offers/editor.ts): an offer's first
// row is its arrival, a row whose payout differs from the one before is a payout
// change, a row that turns it 'retired' its retirement. Plus a followed network's
// retirement (networks.retired_at). Each change has a key, so it is mentioned once.
import { sql, array, type Queryable, type SQL } from "#db/client.ts";
import type { SavedSearchPayload } from "#contracts/saved-searches.ts";
import { buildTextQuery } from "#core/offers/text-query.ts";

export type ChangeKind = "new" | "payout" | "retired" | "networkRetired";

export type AlertChange = {
  /** Unique per change: "offer:<offer_history id>" or "network:<id>:<retired at, ms>". */
  key: string;
  kind: ChangeKind;
  offerId: number | null;
  offerName: string | null;
  offerSlug: string | null;
  networkName: string;
  payoutType: string | null;
  currency: string | null;
  amount: number | null;
  percent: number | null;
  previousCurrency: string | null;
  previousAmount: number | null;
  previousPercent: number | null;
};

/** The history rows an alert reads in one run: (after, upTo], at most `limit` of them. */
export type ChangeWindow = { userId: number; after: number; upTo: number; limit: number };

/**
 * What kind of change history row `h` of offer `oc` is, given `p`, the offer's row before it
 * (NULL: none). A first row is an arrival only when written with the offer (a sync or the
 * console creating it); an older offer's first row is where its history starts, no news.
 */
const KIND = sql`CASE
  WHEN p.id IS NULL THEN CASE WHEN h.status = 'active' AND h.recorded_at < oc.created_at + interval '1 hour' THEN 'new' END
  WHEN h.status = 'retired' THEN CASE WHEN p.status <> 'retired' THEN 'retired' END
  WHEN h.status = 'active' AND (h.payout_amount IS DISTINCT FROM p.payout_amount
    OR h.payout_percent IS DISTINCT FROM p.payout_percent OR h.currency <> p.currency) THEN 'payout'
  END`;

async function offerChanges(db: Queryable, w: ChangeWindow, matches: SQL): Promise<AlertChange[]> {
  const rows = await db.query<AlertChange & { id: number }>(sql`
    WITH c AS (
      SELECT h.id, h.offer_id, ${KIND} AS kind, h.payout_type, btrim(h.currency) AS currency,
        h.payout_amount, h.payout_percent, h.payout_usd, btrim(p.currency) AS previous_currency,
        p.payout_amount AS previous_amount, p.payout_percent AS previous_percent, p.payout_usd AS previous_usd
      FROM offer_history h JOIN offers oc ON oc.id = h.offer_id
      LEFT JOIN LATERAL (
        SELECT * FROM offer_history p WHERE p.offer_id = h.offer_id AND p.id < h.id
        ORDER BY p.recorded_at DESC, p.id DESC LIMIT 1) p ON true
      WHERE h.id > ${w.after} AND h.id <= ${w.upTo}
    )
    SELECT c.id, 'offer:' || c.id AS key, c.kind, o.id AS "offerId", o.name AS "offerName", o.slug AS "offerSlug",
      n.name AS "networkName", c.payout_type AS "payoutType", c.currency, c.payout_amount::float8 AS amount,
      c.payout_percent::float8 AS percent, c.previous_currency AS "previousCurrency",
      c.previous_amount::float8 AS "previousAmount", c.previous_percent::float8 AS "previousPercent"
    FROM c JOIN offers o ON o.id = c.offer_id JOIN networks n ON n.id = o.network_id
    WHERE c.kind IS NOT NULL AND (${matches})
      AND NOT EXISTS (SELECT 1 FROM alert_mentions m WHERE m.user_id = ${w.userId} AND m.change_key = 'offer:' || c.id)
    ORDER BY c.id LIMIT ${w.limit}`);
  return rows.map(({ id: _id, ...change }) => ({ ...change, offerId: Number(change.offerId) }));
}

/**
 * The search's own filters (as core/offers/search.ts plans them, without the typo-tolerant
 * fallback) on the offer `o` as it is now. Its tab counts where it narrows: pay-per-call,
 * mobile, and "Payout increased" (only rises); "Updated" and "Newest" are what an alert is anyway.
 */
function searchFilter(search: SavedSearchPayload): SQL {
  const where: SQL[] = [sql`o.status = 'active'`];
  if (search.networks.length) where.push(sql`o.network_id = ANY (${array(search.networks)}::bigint[])`);
  if (search.countries.length) where.push(sql`o.countries && ${array(search.countries)}::text[]`);
  if (search.categories.length) where.push(sql`o.category_ids && ${array(search.categories)}::int[]`);
  if (search.ppc || search.selectedTab === "payPerCall") where.push(sql`o.ppc`);
  if (search.mobile || search.selectedTab === "mobile") where.push(sql`o.mobile`);
  if (search.selectedTab === "payoutIncreased") where.push(sql`c.kind = 'payout' AND c.payout_usd > c.previous_usd`);
  const text = buildTextQuery(search.query);
  if (text) where.push(sql`o.search_document @@ ${text.tsquery}`);
  return sql.join(where, sql` AND `);
}

/** A saved search's news: matching offers that arrived or changed payout, and retirements of offers it announced. */
export function savedSearchChanges(db: Queryable, w: ChangeWindow, searchId: number, search: SavedSearchPayload) {
  return offerChanges(
    db,
    w,
    sql`(c.kind IN ('new', 'payout') AND ${searchFilter(search)})
      OR (c.kind = 'retired' AND EXISTS (SELECT 1 FROM alert_mentions m WHERE m.subject_kind = 'search'
        AND m.subject_id = ${searchId} AND m.offer_id = c.offer_id))`,
  );
}

/** A watchlist's news: followed offers' payout changes and retirements, followed networks' new offers and retirement. */
export async function watchlistChanges(db: Queryable, w: ChangeWindow): Promise<AlertChange[]> {
  const offers = await offerChanges(
    db,
    w,
    sql`(c.kind IN ('payout', 'retired') AND EXISTS (SELECT 1 FROM watchlist_items i
        WHERE i.user_id = ${w.userId} AND i.offer_id = c.offer_id))
      OR (c.kind = 'new' AND EXISTS (SELECT 1 FROM watchlist_items i
        WHERE i.user_id = ${w.userId} AND i.network_id = o.network_id))`,
  );
  // Bounded by the user's watchlist; a retirement before the network was followed is no news.
  const networks = await db.query<AlertChange>(sql`
    SELECT 'network:' || n.id || ':' || floor(extract(epoch FROM n.retired_at) * 1000)::bigint AS key,
      'networkRetired' AS kind, NULL::bigint AS "offerId", NULL AS "offerName", NULL AS "offerSlug",
      n.name AS "networkName", NULL AS "payoutType", NULL AS currency, NULL::float8 AS amount, NULL::float8 AS percent,
      NULL AS "previousCurrency", NULL::float8 AS "previousAmount", NULL::float8 AS "previousPercent"
    FROM watchlist_items i JOIN networks n ON n.id = i.network_id
    WHERE i.user_id = ${w.userId} AND n.retired_at IS NOT NULL AND n.retired_at >= i.created_at
      AND NOT EXISTS (SELECT 1 FROM alert_mentions m WHERE m.user_id = ${w.userId}
        AND m.change_key = 'network:' || n.id || ':' || floor(extract(epoch FROM n.retired_at) * 1000)::bigint)
    ORDER BY n.id LIMIT ${w.limit}`);
  return [...networks, ...offers].slice(0, w.limit);
}
