// What people search for: every first-page offer search with text is logged
// (normalised) and GET /api/top-searches reads the recent, repeated ones back.
import { sql, type Queryable } from "#db/client.ts";
import { normalizeOfferQuery } from "#contracts/offers.ts";

/** Searches counted for top searches: the last 30 days. */
const WINDOW_DAYS = 30;
/** A keyword must have been searched by at least this many different visitors (no one-offs). */
const MIN_SEARCHERS = 2;
const MAX_KEYWORD_LENGTH = 60;
export const TOP_SEARCHES_LIMIT = 10;

/** `searcher` is the hashed address of who searched (see core/privacy.ts), for counting distinct searchers. */
export async function recordSearch(db: Queryable, entry: { siteId: string; query: string; resultCount: number; searcher?: string }) {
  const query = normalizeOfferQuery(entry.query);
  if (!query || query.length > MAX_KEYWORD_LENGTH) return;
  await db.query(sql`
    INSERT INTO search_log (site_id, query, result_count, ip_hash)
    VALUES (${entry.siteId}, ${query}, ${entry.resultCount}, ${entry.searcher ?? null})`);
}

/**
 * The most searched keywords of the window. Junk is left out: no letters, too
 * short or long, never found anything, or typed by a single visitor only. A
 * keyword that is only a half-typed form of a listed one ("insu" for
 * "insurance") is dropped too; a whole word ("car" for "car insurance") stays.
 */
export async function topSearches(db: Queryable, siteId: string, limit = TOP_SEARCHES_LIMIT): Promise<string[]> {
  const rows = await db.query<{ query: string }>(sql`
    SELECT query
    FROM search_log
    WHERE site_id = ${siteId} AND created_at > now() - make_interval(days => ${WINDOW_DAYS})
      AND char_length(query) BETWEEN 2 AND ${MAX_KEYWORD_LENGTH} AND query ~ '[a-z]'
    GROUP BY query
    HAVING max(result_count) > 0 AND count(DISTINCT coalesce(ip_hash, id::text)) >= ${MIN_SEARCHERS}
    ORDER BY count(DISTINCT coalesce(ip_hash, id::text)) DESC, count(*) DESC, query
    LIMIT ${limit * 5}`);
  const all = rows.map((r) => r.query);
  const partial = (k: string) => all.some((other) => other !== k && other.startsWith(k) && other[k.length] !== " ");
  return all.filter((k) => !partial(k)).slice(0, limit);
}
