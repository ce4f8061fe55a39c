// What changed lately about an offer, read off its own row (migration 0017 keeps
// the last payout change there): the search's "Updated" and "Payout increased"
// views filter on it, and its rows carry the "New" and payout-change marks.
import { sql, type SQL } from "#db/client.ts";
import { RECENT_DAYS } from "#contracts/offers.ts";

/** The start of the recent past the views and marks look at. */
const RECENT_SINCE = sql`(now() - ${RECENT_DAYS}::int * interval '1 day')`;

/** Whether the payout moved in USD (both amounts known and different); otherwise it is read in percent. */
const MOVED_IN_USD = sql`coalesce(o.payout_usd <> o.previous_payout_usd, false)`;

/** The last change's difference (USD or percentage points, see MOVED_IN_USD); NULL when it cannot be told. */
const PAYOUT_DELTA = sql`(CASE WHEN ${MOVED_IN_USD} THEN o.payout_usd - o.previous_payout_usd
  ELSE o.payout_percent - o.previous_payout_percent END)`;

/** Offer `o` was added or changed (by its source or an editor) lately. */
export const updatedLately: SQL = sql`o.updated_at >= ${RECENT_SINCE}`;

/** Offer `o`'s payout rose lately (its last change, if lately, went up). */
export const payoutRoseLately: SQL = sql`(o.payout_changed_at >= ${RECENT_SINCE} AND ${PAYOUT_DELTA} > 0)`;

/**
 * The columns of an offer row's marks, as `isNew` (first listed lately) and `payoutChange` (the
 * payout's last change, if it was lately): the search reads them with its rows, in one statement.
 */
export const recentMarkColumns: SQL = sql`o.created_at >= ${RECENT_SINCE} AS "isNew",
  CASE WHEN o.payout_changed_at >= ${RECENT_SINCE} AND ${PAYOUT_DELTA} <> 0 THEN json_build_object(
    'at', to_char(o.payout_changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'direction', CASE WHEN ${PAYOUT_DELTA} > 0 THEN 'up' ELSE 'down' END,
    'usd', CASE WHEN ${MOVED_IN_USD} THEN abs(o.payout_usd - o.previous_payout_usd)::float8 END,
    'percent', CASE WHEN NOT ${MOVED_IN_USD} THEN abs(o.payout_percent - o.previous_payout_percent)::float8 END)
  END AS "payoutChange"`;
