// When a source last saw one of its offers, for the offer page's "Verified … ago"
// (core/offers/detail.ts) and the sync's first miss (core/supply/sync.ts). A run
// that finds an offer unchanged writes nothing to it; the source's last_verified_at
// is the start of its last successful run.
import { sql, type SQL } from "#db/client.ts";

/**
 * The verification time of offer `o` from source `s` (SQL aliases): an offer the source's
 * last successful run saw (missed_runs = 0, not retired) was verified when that run started,
 * unless it was written later (new or changed since) with a time of its own.
 */
export const verifiedAtSql = (o: SQL, s: SQL) => sql`
  CASE WHEN ${o}.missed_runs = 0 AND ${o}.status <> 'retired'
    THEN greatest(${o}.verified_at, ${s}.last_verified_at) ELSE ${o}.verified_at END`;
