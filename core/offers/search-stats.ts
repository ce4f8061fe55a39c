// What ANALYZE's statistics (pg_stats) say about the offers, for the costs a search weighs
// (order-windows.ts, search.ts). The planner reads the same lists, but it prices an index's
// bitmap by the pages it reads, while at a million offers what a bitmap costs is CPU for each
// entry it takes in: the text index's bitmap of "app:*" takes in 510,000 entries (140 ms from 192
// buffers), the countries index's bitmap of "US" 647,000 (60 ms).
import { sql, type Queryable, type SQL } from "#db/client.ts";
import { createCache } from "#core/cache/cache.ts";

/** A search's text: `key` names it (the same key, the same tsquery). */
export type SearchText = { key: string; tsquery: SQL };

/** Statistics move only as offers are imported and analysed; stale ones cost speed, never answers. */
const STATS_TTL_MS = 10 * 60_000;

/** Columns of offers whose elements are counted: the documents' words, countries, verticals. */
type Column = "search_document" | "countries" | "category_ids";

export function createSearchStats() {
  /** The most common elements of a column and the share of offers holding each (a few hundred at most). */
  type Elements = { shares: Map<string, number>; offers: number };
  const lists = createCache<Elements>({ ttlMs: STATS_TTL_MS, max: 3 });
  const elementsOf = (db: Queryable, column: Column) =>
    lists.get(column, async () => {
      const rows = await db.query<{ element: string; share: number; offers: number }>(sql`
        SELECT e.element, e.share::float8 AS share,
          (SELECT reltuples::float8 FROM pg_class WHERE oid = 'offers'::regclass) AS offers
        FROM pg_stats s CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[],
          s.most_common_elem_freqs[1:cardinality(s.most_common_elems)]) AS e(element, share)
        WHERE s.schemaname = current_schema() AND s.tablename = 'offers' AND s.attname = ${column}`);
      return {
        shares: new Map(rows.map((r) => [r.element, Number(r.share)])),
        offers: rows.length ? Math.max(0, Number(rows[0].offers)) : 0,
      };
    });
  const entries = createCache<number>({ ttlMs: STATS_TTL_MS, max: 1000 });

  return {
    /** About how many offers there are (0 before the first ANALYZE: nothing is estimated then). */
    offers: async (db: Queryable) => (await elementsOf(db, "search_document")).offers,

    /**
     * About how many entries the text index puts in a text's bitmap: every offer holding each of
     * its words, or each word a prefix starts (all of them, even for words AND-ed). Words rarer
     * than the statistics list count as none: their bitmaps are small.
     */
    textEntries: (db: Queryable, text: SearchText) =>
      entries.get(text.key, async () => {
        const { shares, offers } = await elementsOf(db, "search_document");
        if (!shares.size) return 0;
        const [{ query }] = await db.query<{ query: string }>(sql`SELECT (${text.tsquery})::text AS query`);
        const items = new Set(
          [...query.matchAll(/'((?:[^']|'')*)'(:\*)?/g)].map((m) => `${m[1].replace(/''/g, "'")}${m[2] ?? ""}`),
        );
        let share = 0;
        for (const item of items) {
          const prefix = item.endsWith(":*") ? item.slice(0, -2) : null;
          if (prefix === null) share += shares.get(item) ?? 0;
          else for (const [word, s] of shares) if (word.startsWith(prefix)) share += s;
        }
        return share * offers;
      }),

    /** About how many offers hold any of `values` (a filter's list: OR), at most all of them. */
    async offersWith(db: Queryable, column: "countries" | "category_ids", values: readonly (string | number)[]) {
      const { shares, offers } = await elementsOf(db, column);
      return (
        Math.min(
          1,
          values.reduce<number>((sum, v) => sum + (shares.get(String(v)) ?? 0), 0),
        ) * offers
      );
    },
  };
}

export type SearchStats = ReturnType<typeof createSearchStats>;
