// Where a house ad stands, in UTC days: inactive (retired), scheduled (its start
// is still ahead), ended (its end has passed) or active (it serves).
import { sql } from "#db/client.ts";

const TODAY = sql`(now() AT TIME ZONE 'UTC')::date`;

/** The status of the row `a` (house_ads). */
export const AD_STATUS = sql`CASE WHEN NOT a.active THEN 'inactive' WHEN a.starts_on > ${TODAY} THEN 'scheduled'
  WHEN a.ends_on < ${TODAY} THEN 'ended' ELSE 'active' END`;

/** Whether the row `a` serves today. */
export const AD_SERVES = sql`(a.active AND a.starts_on <= ${TODAY} AND (a.ends_on IS NULL OR a.ends_on >= ${TODAY}))`;
