// What the offer queries share. They select every column under the name the
// contracts give it (`o.payout_amount AS "payoutAmount"`, nested objects built
// with json_build_object), in the order of the contract type, so a row is the
// answer as it stands: only its timestamps are still Dates to turn into ISO strings.
import { sql, type SQL } from "#db/client.ts";
import { sponsorKeywordText } from "#contracts/offers.ts";

/** An offer with its network and its currency. */
export const OFFER_FROM = sql`offers o JOIN networks n ON n.id = o.network_id JOIN currencies c ON c.code = o.currency`;

/** The offer's currency with what formatting its payouts needs (OfferCurrency), as `currency`. */
export const OFFER_CURRENCY = sql`json_build_object(
    'code', btrim(o.currency), 'symbol', c.symbol, 'decimalDigits', c.decimal_digits, 'rounding', c.rounding::float8
  ) AS currency`;

/**
 * Whether offer `o` shows as sponsored for a search for `query` (none outside a
 * search): sponsored, inside its window of UTC days, and, when it was sold for
 * keywords, searched for one of them (contracts/offers.ts sponsorKeywordText).
 */
export function sponsoredNow(query?: string | null): SQL {
  const words = sponsorKeywordText(query ?? "");
  const keywords = words
    ? sql`(cardinality(o.sponsored_keywords) = 0 OR EXISTS (
        SELECT 1 FROM unnest(o.sponsored_keywords) k WHERE strpos(${` ${words} `}, ' ' || k || ' ') > 0))`
    : sql`cardinality(o.sponsored_keywords) = 0`;
  return sql`(o.sponsored
    AND (o.sponsored_from IS NULL OR o.sponsored_from <= (now() AT TIME ZONE 'UTC')::date)
    AND (o.sponsored_until IS NULL OR (now() AT TIME ZONE 'UTC')::date <= o.sponsored_until)
    AND ${keywords})`;
}
