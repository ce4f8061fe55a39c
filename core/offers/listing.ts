// Offer rows as tables show them, with the currency facts needed to format payouts.
// The offer page and the offers feed list offers through queryOfferRows too.
import { sql, array, type Queryable, type SQL } from "#db/client.ts";
import type { OfferListItem } from "#contracts/offers.ts";
import { OFFER_CURRENCY, OFFER_FROM, sponsoredNow } from "./columns.ts";

// The columns in the order of OfferListItem, under its names (see ./columns.ts); `sponsored`
// as it stands for a search for `query` (none outside a search).
const offerRowColumns = (query?: string, extra?: SQL) => sql`
  o.id, o.slug, o.name, o.network_id AS "networkId", n.slug AS "networkSlug", n.name AS "networkName",
  o.payout_amount AS "payoutAmount", o.payout_percent AS "payoutPercent", o.payout_type AS "payoutType", ${OFFER_CURRENCY},
  o.countries, ARRAY(SELECT cat.name FROM categories cat WHERE cat.id = ANY (o.category_ids) ORDER BY cat.name) AS categories,
  ${sponsoredNow(query)} AS sponsored, o.mobile, o.ppc, o.created_at AS "createdAt"${extra ? sql`, ${extra}` : sql``}`;

type RawOfferRow = Omit<OfferListItem, "createdAt"> & { createdAt: Date };

export async function queryOfferRows(db: Queryable, where: SQL, orderAndLimit: SQL, query?: string, extra?: SQL) {
  const rows = await db.query<RawOfferRow>(
    sql`SELECT ${offerRowColumns(query, extra)} FROM ${OFFER_FROM} WHERE ${where} ${orderAndLimit}`,
  );
  return rows.map((r): OfferListItem => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/**
 * The rows for `ids`, in the order of `ids` (a search for `query` picks ids first, then fetches their
 * rows), with `extra` columns of OfferListItem's optional ones.
 */
export async function offerRowsByIds(
  db: Queryable,
  ids: readonly number[],
  query?: string,
  extra?: SQL,
): Promise<OfferListItem[]> {
  if (!ids.length) return [];
  const rows = await queryOfferRows(db, sql`o.id = ANY (${array(ids)}::bigint[])`, sql``, query, extra);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is OfferListItem => r !== undefined);
}
