// What the offer queries share. They select every column under the name the
// contracts give it (`o.payout_amount AS "payoutAmount"`, nested objects built
// with json_build_object), in the order of the contract type, so a row is the
// answer as it stands: only its timestamps are still Dates to turn into ISO strings.
import { sql } from "#db/client.ts";

/** An offer with its network and its currency. */
export const OFFER_FROM = sql`offers o JOIN networks n ON n.id = o.network_id JOIN currencies c ON c.code = o.currency`;

/** The offer's currency with what formatting its payouts needs (OfferCurrency), as `currency`. */
export const OFFER_CURRENCY = sql`json_build_object(
    'code', btrim(o.currency), 'symbol', c.symbol, 'decimalDigits', c.decimal_digits, 'rounding', c.rounding::float8
  ) AS currency`;
