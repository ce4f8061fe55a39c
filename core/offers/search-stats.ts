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
  const counts = createCache<{
    entries: number;
    collected?: number;
    matches: number;
    words?: number;
    rarestWord?: number;
  }>({
    ttlMs: STATS_TTL_MS,
    max: 1000,
  });
  /** Per flag column, the share of offers where it is true. */
  const flags = createCache<Map<string, number>>({ ttlMs: STATS_TTL_MS, max: 1 });

  return {
    /** About how many offers there are (0 before the first ANALYZE: nothing is estimated then). */
    offers: async (db: Queryable) => (await elementsOf(db, "search_document")).offers,

    /**
     * About how many entries the text index puts in a text's bitmap (`entries`): every offer holding
     * each of its words, or each word a prefix starts (all of them, even for words AND-ed); words
     * rarer than the statistics list count as none, their bitmaps are small. And at most how many
     * offers match (`matches`): no more than hold its rarest word (a word the list lacks, at most
     * as many as hold the list's rarest element). "budget app": 530,000 entries, at most 20,000
     * matches (7,869 in fact). `words`: how many words are AND-ed; for one, `matches` is about its
     * count, not only a bound. `rarestWord`: the entries of the AND-ed word that holds fewest (its
     * spellings' or its prefix's together; a word the list lacks, as many as its rarest element).
     */
    text: (db: Queryable, text: SearchText) =>
      counts.get(text.key, async () => {
        const { shares, offers } = await elementsOf(db, "search_document");
        if (!shares.size) return { entries: 0, matches: Infinity, words: 0 }; // never analysed: no bound
        const [{ query }] = await db.query<{ query: string }>(sql`SELECT (${text.tsquery})::text AS query`);
        const rarest = Math.min(...shares.values());
        let entries = 0;
        let collected = 0;
        let matches = Infinity;
        let rarestWord = Infinity;
        const words = andedWords(query);
        for (const word of words) {
          const items = [...new Set([...word.matchAll(/'((?:[^']|'')*)'(:\*)?/g)].map((m) => m[0]))];
          const held = items.map((item) => {
            const lexeme = item.slice(1, item.lastIndexOf("'")).replace(/''/g, "'");
            return item.endsWith(":*")
              ? [...shares].filter(([w]) => w.startsWith(lexeme)).reduce((sum, [, share]) => sum + share, 0)
              : (shares.get(lexeme) ?? 0);
          });
          entries += held.reduce((sum, share) => sum + share, 0);
          collected += held.reduce((sum, share, i) => sum + (items[i].endsWith(":*") ? share : 0), 0);
          // The offers holding this word, a share of them all. A typed word's two spellings (the name's,
          // the description's stem: 'mortgage' | 'mortgag') are mostly in the same offers: 1.16% of a
          // million each, 1.16% either. Taken as the commoner one; more words (a prefix's) add up.
          const plain = items.length === 2 && items.every((item) => item.endsWith("'"));
          // A prefix the list has no word of holds only rare words: with the prefixes of a split one
          // (knownWords), as many as the prefix's listed words hold; alone, as the rarest listed word.
          const holding = held.map((share, i) => share || (items[i].endsWith(":*") ? 0 : rarest));
          const sum = holding.reduce((total, share) => total + share, 0);
          matches = Math.min(matches, plain ? Math.max(...holding) : sum || rarest);
          rarestWord = Math.min(rarestWord, sum || rarest);
        }
        return {
          entries: entries * offers,
          collected: collected * offers,
          matches: Math.min(1, matches) * offers,
          words: words.length,
          rarestWord: rarestWord * offers,
        };
      }),

    /**
     * About what share of the offers have a flag set (pay per call: 6% of the seeded catalogue; mobile:
     * 29%). ANALYZE keeps a boolean's values with their frequencies; a value it leaves out is the
     * rest. 1 before the first ANALYZE: nothing is known.
     */
    async flagShare(db: Queryable, column: "ppc" | "mobile"): Promise<number> {
      const shares = await flags.get("flags", async () => {
        const rows = await db.query<{ column: string; share: number }>(sql`
          SELECT s.attname AS column, coalesce(
              (SELECT v.freq FROM unnest(s.most_common_vals::text::text[], s.most_common_freqs) AS v(value, freq)
               WHERE v.value = 't'),
              1 - s.null_frac - coalesce((SELECT sum(f) FROM unnest(s.most_common_freqs) AS f), 0)
            )::float8 AS share
          FROM pg_stats s
          WHERE s.schemaname = current_schema() AND s.tablename = 'offers' AND s.attname IN ('ppc', 'mobile')`);
        return new Map(rows.map((r) => [r.column, Math.min(1, Math.max(0, Number(r.share)))]));
      });
      return shares.get(column) ?? 1;
    },

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

/** The parts of a tsquery's text AND-ed at its top level: one per word searched for. */
function andedWords(query: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === "'")
      quoted = !quoted; // an escaped quote ('') toggles twice
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")") depth--;
    else if (!quoted && depth === 0 && c === "&") {
      words.push(query.slice(from, i));
      from = i + 1;
    }
  }
  words.push(query.slice(from));
  return words;
}
