// Offer rows as tables show them, with the currency facts needed to format payouts.
// The offer page and the offers feed list offers through queryOfferRows too.
import { sql, array, type Queryable, type SQL } from "#db/client.ts";
import type { OfferListItem } from "#contracts/offers.ts";

const OFFER_ROW_COLUMNS = sql`
  o.id, o.slug, o.name, o.network_id, n.slug AS network_slug, n.name AS network_name, o.payout_amount, o.payout_percent,
  o.payout_type, o.currency, c.symbol AS currency_symbol, c.decimal_digits, c.rounding::float8 AS rounding,
  o.countries, o.sponsored, o.mobile, o.ppc, o.created_at,
  ARRAY(SELECT cat.name FROM categories cat WHERE cat.id = ANY (o.category_ids) ORDER BY cat.name) AS category_names`;

const OFFER_ROW_FROM = sql`offers o JOIN networks n ON n.id = o.network_id JOIN currencies c ON c.code = o.currency`;

type RawOfferRow = {
  id: number;
  slug: string;
  name: string;
  network_id: number;
  network_slug: string;
  network_name: string;
  payout_amount: number | null;
  payout_percent: number | null;
  payout_type: string;
  currency: string;
  currency_symbol: string;
  decimal_digits: number;
  rounding: number;
  countries: string[];
  sponsored: boolean;
  mobile: boolean;
  ppc: boolean;
  created_at: Date;
  category_names: string[];
};

function toOfferRow(r: RawOfferRow): OfferListItem {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    networkId: r.network_id,
    networkSlug: r.network_slug,
    networkName: r.network_name,
    payoutAmount: r.payout_amount,
    payoutPercent: r.payout_percent,
    payoutType: r.payout_type,
    currency: {
      code: r.currency.trim(),
      symbol: r.currency_symbol,
      decimalDigits: r.decimal_digits,
      rounding: r.rounding,
    },
    countries: r.countries,
    categories: r.category_names,
    sponsored: r.sponsored,
    mobile: r.mobile,
    ppc: r.ppc,
    createdAt: r.created_at.toISOString(),
  };
}

export async function queryOfferRows(db: Queryable, where: SQL, orderAndLimit: SQL) {
  const rows = await db.query<RawOfferRow>(
    sql`SELECT ${OFFER_ROW_COLUMNS} FROM ${OFFER_ROW_FROM} WHERE ${where} ${orderAndLimit}`,
  );
  return rows.map(toOfferRow);
}

/** The rows for `ids`, in the order of `ids` (a search picks ids first, then fetches their rows). */
export async function offerRowsByIds(db: Queryable, ids: readonly number[]): Promise<OfferListItem[]> {
  if (!ids.length) return [];
  const rows = await queryOfferRows(db, sql`o.id = ANY (${array(ids)}::bigint[])`, sql``);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is OfferListItem => r !== undefined);
}
