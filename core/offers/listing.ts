// Offer rows as tables show them, with the currency facts needed to format payouts.
// The offer page and the offers feed list offers through queryOfferRows too.
import { sql, array, keepPlan, type Queryable, type SQL } from "#db/client.ts";
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

const offerRowsSql = (where: SQL, orderAndLimit: SQL, query?: string, extra?: SQL) =>
  sql`SELECT ${offerRowColumns(query, extra)} FROM ${OFFER_FROM} WHERE ${where} ${orderAndLimit}`;

const asItems = (rows: RawOfferRow[]) =>
  rows.map((r): OfferListItem => ({ ...r, createdAt: r.createdAt.toISOString() }));

export async function queryOfferRows(db: Queryable, where: SQL, orderAndLimit: SQL, query?: string, extra?: SQL) {
  return asItems(await db.query<RawOfferRow>(offerRowsSql(where, orderAndLimit, query, extra)));
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
  // The same text for any ids: its plan is kept.
  const statement = keepPlan(offerRowsSql(sql`o.id = ANY (${array(ids)}::bigint[])`, sql``, query, extra));
  const rows = asItems(await db.query<RawOfferRow>(statement));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is OfferListItem => r !== undefined);
}
