// What people search for: every first-page offer search with text is logged
// (normalised) and GET /api/top-searches reads the recent, repeated ones back.
import { sql, type Queryable } from "#db/client.ts";
import { normalizeOfferQuery } from "#contracts/offers.ts";
import { isStorableText } from "#contracts/text.ts";

/** Searches counted for top searches: the last 30 days. */
const WINDOW_DAYS = 30;
/** A keyword must have been searched by at least this many different visitors (no one-offs). */
const MIN_SEARCHERS = 2;
const MAX_KEYWORD_LENGTH = 60;
const TOP_SEARCHES_LIMIT = 10;

export type SearchLogEntry = { siteId: string; query: string; resultCount: number; searcher?: string };

/** Entries kept while the database refuses them; beyond this the oldest go (it is a statistic). */
const MAX_PENDING = 10_000;

/**
 * The search log, written in batches: a search answer (often from the cache)
 * never waits for a database write, and a busy second costs one INSERT, not
 * one commit per search. The server's background work flushes it every
 * second and when the server closes; top searches flush it before reading.
 */
export function createSearchLog(db: Queryable) {
  let pending: SearchLogEntry[] = [];
  let writing: Promise<void> = Promise.resolve();

  const insert = (batch: SearchLogEntry[]) =>
    db.query(sql`
      INSERT INTO search_log (site_id, query, result_count, ip_hash)
      VALUES ${sql.join(
        batch.map((e) => sql`(${e.siteId}, ${e.query}, ${e.resultCount}, ${e.searcher ?? null})`),
        sql`, `,
      )}`);

  async function write(batch: SearchLogEntry[]) {
    try {
      await insert(batch);
    } catch (err) {
      if (!refusedForItsData(err)) {
        pending = [...batch, ...pending].slice(-MAX_PENDING); // the database is away: kept for the next flush
        throw err;
      }
      // One entry the database will never take must not sink the others: write them one by one, drop what is refused.
      for (const entry of batch) await insert([entry]).catch(() => {});
    }
  }

  function flush(): Promise<void> {
    const batch = pending;
    pending = [];
    // One write at a time, in order.
    writing = writing.catch(() => {}).then(() => (batch.length ? write(batch) : undefined));
    return writing;
  }

  return {
    /** `searcher` is the hashed address of who searched (see core/privacy.ts), for counting distinct searchers. */
    record(entry: SearchLogEntry) {
      const query = normalizeOfferQuery(entry.query);
      if (!query || query.length > MAX_KEYWORD_LENGTH || !isStorableText(query)) return;
      pending.push({ ...entry, query });
      if (pending.length > MAX_PENDING) pending.shift();
    },
    flush,
  };
}

/** SQLSTATE classes 22 (data exception) and 23 (constraint violation): the row is at fault, not the connection. */
const refusedForItsData = (err: unknown) => /^2[23]/.test(String((err as { code?: unknown }).code ?? ""));

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
