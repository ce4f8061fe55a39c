// Order windows: the offers that lead an order table-wide (the 4,096 most
// popular, the 16,384 newest, …), each described by the key value at its edge.
//
// Why: a search with text wants the first N matches in some order (N is the
// count cap, 1,001). A rare word is best found through the GIN index: collect
// its few matches, then sort them. A common word matches 7% of a million
// offers, and collecting them all costs hundreds of milliseconds (more for a
// prefix, which the index expands into every word it starts). Walking the
// order's own b-tree and testing each offer stops after about N / 7% rows
// instead. The walk only pays for a common word, and planner estimates of a
// word's frequency are rough, so the smallest window is walked first, as a
// sample: it often holds N matches already, and otherwise tells the word's
// frequency among the offers the walk would visit. From that, either a window
// long enough is walked, or (no window is) the search reads all matches
// through the GIN index.
// Walks are bounded by their window, and a window's answer is taken only when
// it holds N matches, so the answer is always the same; only the work differs.
import { sql, array, type Queryable, type SQL } from "#db/client.ts";
import { createCache } from "#core/cache/cache.ts";
import { createSearchStats, type SearchStats, type SearchText } from "./search-stats.ts";

/**
 * The leading column of an order: what a window bounds. `scope` narrows the
 * offers the order runs over (the sponsored ones, for pins), so windows and
 * walks count only those. A scope has a text index of its own (migration 0031),
 * so the text's bitmap takes in only the scope's share of its entries.
 */
export type OrderKey = {
  name: string;
  column: SQL;
  desc: boolean;
  scope?: SQL;
  /**
   * Whether the order's index carries what a search tests (migration 0004: popularity), so a
   * walk reads index pages only; otherwise each offer walked is a table read, like each
   * match the text index finds.
   */
  covering?: boolean;
  /**
   * Whether a narrow b-tree on the key holds its ranges (each order's own; migration 0026's for
   * popularity, whose covering index is too wide to read a window of as a range), so the matches
   * inside a window can be collected through the text index: its bitmap and the range, intersected.
   */
  ranged?: boolean;
  /**
   * The order's bands in the text index (migration 0032), when it has them: the matches inside a
   * window of a descending order are then collected by one scan that takes in only the matches in
   * the window's band, not every match.
   */
  band?: "payout" | "popularity";
  /**
   * A key's text as a number that sorts as the key does, so that an edge can be placed among the
   * windows' edges (offersAbove). None for a key only the database's collation orders (names).
   */
  ordinal?: (edge: string) => number;
};

/** A timestamp as PostgreSQL writes it ("2026-11-30 10:11:12.5+00"), in milliseconds. */
export const timeOrdinal = (edge: string) => Date.parse(edge.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
/**
 * Reads the first matches within `bound` (null: all matches), either by walking the order's
 * index (`walk`), or by collecting the text index's matches inside the bound (the text index's
 * bitmap and the order index's range, intersected), so that only they are read from the table.
 */
export type ReadMatches<T> = (bound: SQL | null, walk: boolean) => Promise<T & { found: number }>;

/** Window sizes, smallest first. */
const WINDOW_SIZES = [4_096, 16_384, 65_536, 262_144] as const;

/** Edges move only as offers are imported; a stale edge costs speed, never correctness. */
const EDGES_TTL_MS = 10 * 60_000;
/** About how many offers the edges are read from (see load). */
const EDGE_SAMPLE_ROWS = 20_000;
/** A window is walked when the sample says it holds this many heads. */
const WALK_SLACK = 1.5;
/**
 * What testing an offer on a walk of a covering index costs, against reading it from the table
 * (measured at a million offers: 11,863 buffers for a walk past 38,540 offers).
 */
const COVERED_ROW_COST = 0.3;
/** A head this short is a page's own rows (search.ts), not a head counted up to the cap. */
const PAGE_HEAD = 100;
/**
 * What each entry the text index's bitmap takes in costs, against reading an offer from the table.
 * Measured in time at a million offers: building the bitmap is CPU, not buffers ("app:*", 510,000
 * entries: 140 ms from 192 buffers, 0.27–0.34 µs an entry), and a match read from the table costs
 * 1.4 µs when its page is in shared buffers, about 5 µs when it is not (most, under load).
 * Every statement that uses the bitmap builds it again.
 */
const TEXT_ENTRY_COST = 0.1;
/** What each offer of a window costs the order index's range bitmap (262,144 offers: 30 ms). */
const RANGE_ENTRY_COST = 0.04;
/**
 * What each offer a band holds costs a scan of the text index that asks for the band, against
 * reading an offer from the table: the scan steps through the band's list of offers as it meets
 * the text's matches. Measured at a million offers, "panel" in GB: 2.8 ms with no band, 5.8 ms in
 * the band of popularity 1 and up (every offer), 4.8 ms in the band of 8 and up (45% of them), 2.8 ms
 * in the band of 128 and up (7%); a match read from the table, 1.5–2 µs.
 */
const BAND_ENTRY_COST = 0.002;

type Edge = { size: number; edge: string };

/**
 * What a search's filters keep of the offers (`share`), and how many entries the country and vertical
 * indexes' bitmaps take in (a search without text).
 */
export type FilterReach = {
  share: number;
  entries: number;
  /**
   * For the text index's scan, which skips along its rarest key: the offers the rarest filter it
   * holds names (a list of countries, or of verticals; none: Infinity), and the share of the offers
   * its index holds (`indexed`: pay per call and mobile have their own; all: 1).
   */
  rarest?: number;
  indexed?: number;
};

/**
 * The entries a scan of the text index steps through for `text`: every word a prefix starts, which
 * it collects before any other key (`collected`), and of the rest no more than its rarest key holds:
 * it skips along that one, a filter ("signup" in one vertical at a million offers: 381,000 offers hold
 * the word, 11,000 the vertical; its first 1,001 matches by popularity 10 ms in the band of 16 and up,
 * against 46 ms walked) or a word AND-ed ("signup cams": 382,819 offers hold 'signup', 26,926 the
 * words 'cam' starts; 7,411 matches counted in 18 ms, against 60 ms walking 138,844 popular offers).
 */
const scanned = (text: { entries: number; collected?: number; rarestWord?: number }, reach: FilterReach) => {
  const collected = Math.min(text.collected ?? 0, text.entries);
  const rarest = Math.min(reach.rarest ?? Infinity, text.rarestWord ?? Infinity);
  return (collected + Math.min(text.entries - collected, rarest)) * (reach.indexed ?? 1);
};

/**
 * What a capped count read of the matches (search.ts, countWithPage): `read` of them, in the
 * table's order (in no relation to a payout), and the first `keys` of those in the order of the
 * page (the order's key, best first). A random sample of every match, so it says where the head lies.
 */
export type Sampled = { read: number; keys: string[] };

/**
 * How many heads of matches a sample's edge should have at or above it (edgeFrom). More than a walk's
 * slack: a count's matches come in the table's order, a sample of whole pages, where offers imported
 * together lie together, so its rate near the top is rougher than a random sample's. At a million
 * offers, with 1.5, four of the explain tool's 1,033 searches fell short at the edge and read again
 * ("budget app" by highest payout, page 3: 53 ms, 22 with 2); with 2, seven others read more matches
 * at the edge, 1,743 buffers in all, against 11,026 fewer for the four.
 */
const EDGE_SLACK = 2;
/** How many of a sample's best keys a head of `head` rows needs (see edgeFrom). */
export const sampledKeys = (head: number) => Math.ceil(EDGE_SLACK * head) + SAMPLE_MARGIN;
/**
 * Keys of the sample past the expected head's share: with `q` of the matches sampled, the n-th best
 * sampled key has about n / q matches at or above it, and fewer than the head only rarely (for
 * n = 4, about 1 in 40 when n / q is 3.7 heads).
 */
const SAMPLE_MARGIN = 3;

/**
 * An edge at or above which `total` matches should hold the head twice over, from a sample of them:
 * its n-th best key, n = EDGE_SLACK × head × (share sampled) + SAMPLE_MARGIN. Null when the sample
 * holds fewer keys.
 */
function edgeFrom(sample: Sampled, head: number, total: number): Edge | null {
  const share = Math.min(1, sample.read / Math.max(total, sample.read));
  const n = Math.ceil(EDGE_SLACK * head * share) + SAMPLE_MARGIN;
  const edge = sample.keys[n - 1];
  return edge === undefined ? null : { size: 0, edge };
}

/**
 * About how many of `total` matches lie at or above `edge`, from a sample of them: its keys there,
 * at the share sampled. Null where the key has no ordinal to place them with.
 */
function sampledAbove(key: OrderKey, sample: Sampled, edge: string, total: number): number | null {
  const ordinal = key.ordinal;
  if (!ordinal) return null;
  const at = ordinal(edge);
  const above = sample.keys.filter((k) => (key.desc ? ordinal(k) >= at : ordinal(k) <= at)).length;
  return above / Math.min(1, sample.read / Math.max(total, sample.read));
}

/**
 * How a count is made (order-windows.ts, countWay), and how many matches it reads at most (`upTo`):
 * the count itself, or for `all`, ALL_SLACK times as many as the statistics expect.
 */
export type CountWay = { way: "walk" | "bitmap" | "all"; upTo: number };
/**
 * Reading every match is chosen because the statistics expect few; they take the filters as unrelated
 * to the words, and some are not: 33,826 of the 41,654 offers holding "40" are Dutch, against 7.5% of
 * all offers (31,000 buffers, 200 ms for page 3 by newest). Past twice the matches expected, the
 * read stops, and the search goes on as after a capped count.
 */
const ALL_SLACK = 2;

/** Whether the text index holds the order's bands (migration 0032): descending payout and popularity. */
export const bandedOrder = (key: OrderKey) => key.band !== undefined && key.desc;

/**
 * Whether a capped count's sample of the matches can say where a page of the order lies (firstMatches):
 * a banded order's band holds it, or an order index's range whose offers the windows tell.
 */
export const sampledOrder = (key: OrderKey) => bandedOrder(key) || (key.ranged === true && key.ordinal !== undefined);

/**
 * An order's windows: `edges`, the windows of the sizes; `bands`, a banded order's steps as windows,
 * narrowest first, each holding exactly its band; `offers`, about how many offers the order runs over.
 */
type Windows = { edges: Edge[]; bands: Edge[]; offers: number };

/** The narrowest band that holds every offer at or above `edge`. */
const bandOf = (windows: Windows, edge: string) => windows.bands.find((b) => Number(b.edge) <= Number(edge));

/** Whether a read through the text index at or above `e` asks the text index for its band. */
const bandedAt = (key: OrderKey, e: Edge) => bandedOrder(key) && Number(e.edge) >= 0;

/**
 * About how many offers lie at or above `edge` in the order, from the windows: between the sizes of
 * the two whose edges it lies between, as far from each as its ordinal (Infinity past the widest
 * window, or where the key has no ordinal). From the windows, not from the matches: a count reads
 * matches in the table's order, which can follow the order's own (offers are added newest last),
 * and then its sample says little of where they lie.
 */
function offersAbove(key: OrderKey, windows: Windows, edge: string): number {
  const ordinal = key.ordinal;
  if (!ordinal) return Infinity;
  const at = ordinal(edge);
  const reaches = (e: Edge) => (key.desc ? ordinal(e.edge) <= at : ordinal(e.edge) >= at);
  const i = windows.edges.findIndex(reaches);
  if (i < 0) return Infinity;
  const outer = windows.edges[i];
  const inner = windows.edges[i - 1];
  if (!inner) return outer.size;
  const part = (ordinal(inner.edge) - at) / (ordinal(inner.edge) - ordinal(outer.edge));
  return Number.isFinite(part) ? inner.size + Math.max(0, Math.min(1, part)) * (outer.size - inner.size) : outer.size;
}

/** What a band's list of offers costs a scan of the text index that asks for it (the whole order: none). */
const bandCost = (windows: Windows, band: Edge | undefined) => BAND_ENTRY_COST * (band ? band.size : windows.offers);

/**
 * What reading the matches inside window `e` through the text index costs, `frequency` the share of
 * its offers that match: the text's bitmap, the window's band or the order index's range, and the
 * matches read from the table. Infinity where the order has neither.
 */
function insideWindow(key: OrderKey, windows: Windows, e: Edge, bitmap: number, frequency: number): number {
  if (bandedAt(key, e)) return bitmap + bandCost(windows, bandOf(windows, e.edge)) + frequency * e.size;
  return key.ranged ? bitmap + RANGE_ENTRY_COST * e.size + frequency * e.size : Infinity;
}

export function createOrderWindows(options: { sizes?: readonly number[]; stats?: SearchStats } = {}) {
  const sizes = options.sizes ?? WINDOW_SIZES;
  const stats = options.stats ?? createSearchStats();
  // One entry per order key (a handful).
  const cache = createCache<Windows>({ ttlMs: EDGES_TTL_MS, max: 100 });

  // Runs in the caller's transaction (PGlite has a single connection). The edges
  // are read off a sample of about EDGE_SAMPLE_ROWS offers (whole pages, the same
  // pages every time): counting a window's offers exactly walks it, and read the
  // table for 262,144 of them (seconds at a million offers). Any edge gives the same
  // answers; a window a little longer or shorter than its size costs only speed.
  async function load(db: Queryable, key: OrderKey): Promise<Windows> {
    const dir = key.desc ? sql`DESC` : sql`ASC`;
    const scope = key.scope ? sql`o.status = 'active' AND ${key.scope}` : sql`o.status = 'active'`;
    const [{ rows }] = await db.query<{ rows: number }>(
      sql`SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'offers'::regclass`,
    );
    // Never analysed (-1), or small: all of it.
    const percent = rows > EDGE_SAMPLE_ROWS ? (100 * EDGE_SAMPLE_ROWS) / rows : 100;
    // NULL keys (percent-only payouts) sort last and end the windows. As text:
    // an untyped parameter takes the column's type again where it is compared.
    // A banded order's steps (migration 0032) are windows too, each as large as the sample says.
    const [steps, value] = bandedOrder(key)
      ? [sql`oa_band_steps(${key.band})`, sql`(${key.column})::numeric`]
      : [sql`'{}'::numeric[]`, sql`NULL::numeric`];
    const found = await db.query<{ band: boolean; size: number | null; edge: string | null; sampled: number }>(sql`
      WITH sample AS (
        SELECT (${key.column})::text AS edge, ${value} AS value,
          row_number() OVER (ORDER BY ${key.column} ${dir}) AS place
        FROM offers o TABLESAMPLE SYSTEM (${percent}) REPEATABLE (16)
        WHERE ${scope} AND ${key.column} IS NOT NULL
      )
      SELECT false AS band, w.size, s.edge, (SELECT count(*) FROM sample)::int AS sampled
      FROM (SELECT 1) one
      LEFT JOIN (unnest(${array(sizes)}::int[]) AS w(size)
        JOIN sample s ON s.place = greatest(1, round(w.size * ${percent}::float8 / 100))) ON true
      UNION ALL
      SELECT true, round((SELECT count(*) FROM sample s WHERE s.value >= b.step) * 100 / ${percent}::float8),
        b.step::text, NULL
      FROM unnest(${steps}) AS b(step)`);
    const edgesOf = (band: boolean) =>
      found
        .filter((r) => r.band === band && r.size !== null && r.edge !== null && (!band || Number(r.size) > 0))
        .map((r) => ({ size: Number(r.size), edge: r.edge! }))
        .sort((a, b) => a.size - b.size);
    // A window missing from the sample would hold everything.
    const windows = found.find((r) => !r.band)!;
    return { edges: edgesOf(false), bands: edgesOf(true), offers: (windows.sampled * 100) / percent };
  }

  const windowsOf = (db: Queryable, key: OrderKey) =>
    cache.get(`${key.name}:${key.desc ? "desc" : "asc"}`, () => load(db, key));

  return {
    /** What the search's costs are weighed with (search.ts weighs its filters with them too). */
    stats,
    /**
     * How `count` matches of `text`, in no order, are found cheapest: along popularity (`walk`),
     * or through the text index, stopping after them (`bitmap`) or reading every match (`all`).
     * The bitmap, once built, stops after them: its entries plus `count` table reads, of matches
     * the filters keep (`share`), which the text index applies. A walk along
     * popularity, whose index covers the search, tests offers until it has them: cheaper only for
     * a word most offers carry. "pet" (1.2% of a million offers) walked 84,650 offers in 56 ms; its
     * bitmap holds 12,000 entries.
     * Reading every match also yields the page of `head` rows in the order of `page` (search.ts),
     * which otherwise costs a walk of that order's first window and, unless it holds the page, the
     * bitmap again: so every match is read when that costs less than counting and then finding the
     * page. "trial" in Italy by highest payout: about 6,600 matches against 81,000 entries; its page
     * took two more bitmaps, 140 ms.
     */
    async countWay(
      db: Queryable,
      text: SearchText,
      reach: () => Promise<FilterReach>,
      count: number,
      page: { key: OrderKey; head: number },
    ): Promise<CountWay> {
      const offers = await stats.offers(db);
      if (!offers) return { way: "walk", upTo: count }; // never analysed: nothing to weigh with
      const counted = await stats.text(db, text);
      const { matches } = counted;
      const kept = Math.max((await reach()).share, 1e-6);
      const entries = scanned(counted, await reach());
      // The text index applies the filters (migration 0032), so the count reads only matches they keep.
      const bitmap = TEXT_ENTRY_COST * entries + Math.min(matches * kept, count);
      const frequency = (Math.min(matches, offers) * kept) / offers;
      const walk = frequency === 0 ? Infinity : (count / frequency) * COVERED_ROW_COST;
      const windows = await windowsOf(db, page.key);
      const [first] = windows.edges;
      const all = TEXT_ENTRY_COST * entries + Math.min(matches, offers) * kept;
      // As firstMatches finds the page: its first window as a sample, walked or read through the text
      // index, whichever costs less; when the sample should not hold the page, the matches inside the
      // window that should, or else every match ("energy" by newest, page 3: 10,971 matches read, 27 ms,
      // where the window of the 16,384 newest holds about 180).
      const inside = (e: Edge) =>
        page.key.covering ? Infinity : insideWindow(page.key, windows, e, TEXT_ENTRY_COST * entries, frequency);
      const sample = first ? Math.min(first.size * (page.key.covering ? COVERED_ROW_COST : 1), inside(first)) : 0;
      const sampleHolds = first && frequency * first.size >= page.head;
      const window = windows.edges.find((e) => e !== first && frequency * e.size >= WALK_SLACK * page.head);
      const findPage = sample + (sampleHolds ? 0 : Math.min(all, window ? inside(window) : Infinity));
      // A banded order's page, after a count through the text index, is read at or above an edge the
      // count's own matches suggest (firstMatches, `sampled`): the text's entries again and a few
      // heads of rows, not the first window walked ("surveys" by highest payout: none among the 4,096
      // best paid, then six bands tried, 15 statements).
      const bandPage = TEXT_ENTRY_COST * entries + 2 * WALK_SLACK * page.head;
      // Another order with an ordinal reads its page inside the order index's range at or above that
      // edge: about the offers that hold the head's matches, at their frequency, as many as the
      // narrowest window that holds them. Rounded up to that window, as the count cannot tell yet how
      // far the sample will put the edge: priced at the offers alone, "home" on the pay-per-call tab
      // by newest, page 3, was counted to the cap and its page read twice, where reading every match
      // found fewer than twice the matches expected, and the page with them (23 against 39 ms).
      const range = sampledOrder(page.key) && windows.edges.find((e) => frequency * e.size >= WALK_SLACK * page.head);
      const rangePage = range
        ? Math.min(findPage, TEXT_ENTRY_COST * entries + RANGE_ENTRY_COST * range.size + WALK_SLACK * page.head)
        : findPage;
      const viaBitmap = bitmap + (bandedOrder(page.key) ? bandPage : rangePage);
      const viaWalk = walk + findPage;
      if (all <= Math.min(viaBitmap, viaWalk)) {
        return { way: "all", upTo: Math.max(count, Math.ceil(ALL_SLACK * Math.min(matches, offers) * kept)) };
      }
      return { way: viaBitmap <= viaWalk ? "bitmap" : "walk", upTo: count };
    },

    /**
     * Whether `count` offers that countries and verticals keep (`reach`), in no order, are found
     * cheaper along popularity's covering index, testing each offer on the way, than through the
     * filters' own indexes, whose bitmaps take in every offer a filter names before `count` of them
     * are read from the table. An array's index entry is priced as the text index's.
     */
    countWalks(reach: FilterReach, count: number): boolean {
      if (!reach.entries) return false; // no filter, or nothing known of it
      const walk = (count / Math.max(reach.share, 1e-6)) * COVERED_ROW_COST;
      return walk < TEXT_ENTRY_COST * reach.entries + count;
    },

    /**
     * The first `head` matches in the order of `key`, by the cheapest way that is sure. `kept`: about
     * what share of the offers the search's filters keep (search.ts, filterReach).
     */
    async firstMatches<T>(
      db: Queryable,
      key: OrderKey,
      head: number,
      text: SearchText,
      read: ReadMatches<T>,
      reach: () => Promise<FilterReach> = async () => ({ share: 1, entries: 0 }),
      /** A sample of every match (a capped count's), when one was read. */
      sampled?: Sampled,
    ): Promise<T & { found: number }> {
      const windows = await windowsOf(db, key);
      const { edges, offers } = windows;
      if (!edges.length) return read(null, false);
      // Costs in table reads. A walk tests about head / frequency offers. Through the text index,
      // its bitmap is built (the same for any bound), then every match is read from the table, or
      // only those inside the window. A scope's own text index holds only its share of them.
      const all = await stats.offers(db);
      const share = key.scope && all ? Math.min(1, offers / all) : 1;
      const counted = await stats.text(db, text);
      const entries = scanned(counted, await reach()) * share;
      const matches = counted.matches * share;
      const bitmap = TEXT_ENTRY_COST * entries;
      // Inclusive edges: every offer tied with the edge is inside, so nothing
      // outside can outrank anything inside (ids break ties within a key).
      // A banded order's read through the text index asks it for the band of the edge (migration
      // 0032), so its scan takes in only the matches there, and tests the edge itself on what it
      // finds, out of the order index's reach (its range bitmap would cost more: 65,536 entries,
      // 40 ms), so that no answer depends on the bands. A walk follows the order's own index.
      const within = (e: Edge, walk: boolean) => {
        if (walk || !bandedAt(key, e))
          return key.desc ? sql`${key.column} >= ${e.edge}` : sql`${key.column} <= ${e.edge}`;
        return sql`(${key.column} + 0) >= ${e.edge} AND o.order_bands @> oa_band_at_least(${key.band}, ${e.edge}::numeric)`;
      };
      // With a sample of its matches, the order's matches at or above the sample's edge are read
      // first: one scan of the text index, whose band (a banded order's) or the order index's range
      // takes in only the matches near the top ("win" in the US by newest, page 3, at a million
      // offers: the 4,096 newest walked for 68 of the 75, then the 16,384 newest read, 19 ms).
      const kept = async () => (await reach()).share;
      const keptMatches = Math.min(matches, offers) * (await kept());
      const hinted = sampled && sampledOrder(key) ? edgeFrom(sampled, head, keptMatches) : null;
      // The offers at or above the hint: its band's, which holds them and a few more, or its window's.
      const hintedOffers =
        hinted &&
        (bandedAt(key, hinted)
          ? (bandOf(windows, hinted.edge)?.size ?? offers)
          : offersAbove(key, windows, hinted.edge));
      const hintCost =
        hinted && bandedAt(key, hinted)
          ? bandCost(windows, bandOf(windows, hinted.edge))
          : hinted && key.ranged && !bandedOrder(key)
            ? RANGE_ENTRY_COST * hintedOffers!
            : Infinity;
      // The sample is a walk too, which stops at the head (at best after head / frequency offers,
      // from the statistics' bound on the matches the filters keep, which the walk tests too: priced
      // at the word alone, "deposit" in the US and one vertical by newest looked like 219 offers
      // walked, and took 4,142): not worth it when reading every match costs less (a rare word among
      // the sponsored offers: a few dozen entries, against the 4,096 most popular of them walked).
      const walkOf = (offersWalked: number) => offersWalked * (key.covering ? COVERED_ROW_COST : 1);
      // Words AND-ed: the statistics bound their matches by the rarest word only, and often few hold
      // them all, so the walk is priced as its whole window (the pins of "tax survey": the 4,096 most
      // popular sponsored offers walked, none found, then 14 buffers read every match).
      const anded = (counted.words ?? 1) > 1;
      const sampleWalk = walkOf(
        Math.min(edges[0].size, keptMatches > 0 && !anded ? (head * offers) / keptMatches : Infinity),
      );
      // Where the order's index does not cover the search, every offer walked is a table read; the
      // sample is then taken through the text index where that costs less: the same matches, only
      // those read ("energy" by newest, page 3: 4,096 offers walked for 45 matches). So too in a
      // banded order, whose band of the window keeps the scan to it: the covering index's entries
      // are wide (the 4,096 most popular walked, 3,498 buffers at a million offers; "debt mortgage
      // finance" then read every match in 103).
      const sampleInside =
        key.covering && !bandedOrder(key)
          ? Infinity
          : insideWindow(key, windows, edges[0], bitmap, keptMatches / offers);
      const sampleCost = Math.min(sampleWalk, sampleInside);
      // A sample the statistics put short of the head is followed by another read through the text
      // index ("cream" on the pay-per-call tab, 66 matches there: its band among the 4,096 most
      // popular, then a band, then every match, three statements where one read them all).
      const expected = (keptMatches / offers) * edges[0].size;
      const after = WALK_SLACK * expected >= head ? 0 : bitmap + Math.min(WALK_SLACK * head, matches, offers);
      // What a read that fell short saw: `found` matches among the `size` offers at or above its edge.
      let seen = { size: 0, found: 0 };
      // The hint is read only where it costs less than what follows otherwise. In a banded order,
      // reading every match: a low payout's band holds most offers, and a sample that falls short is
      // followed by bands, each the text's bitmap again ("surveys" by highest payout: none among the
      // 4,096 best paid walked, then bands, 13 statements and 118 ms, against a hinted band's 20).
      // In another order, also the sample and what it should take next, for a walk needs no bitmap of
      // the text ("security" in the US and Mexico by newest, page 2: the 4,096 newest walked, 4 ms;
      // the text's bitmap alone, 12 ms). The sample says better than the statistics how many matches
      // the first window holds.
      const inFirst = (hinted && sampledAbove(key, sampled!, edges[0].edge, keptMatches)) ?? expected;
      const next = WALK_SLACK * inFirst >= head ? 0 : bitmap + Math.min(WALK_SLACK * head, matches, offers);
      const otherwise = bandedOrder(key)
        ? bitmap + keptMatches
        : Math.min(bitmap + Math.min(matches, offers), sampleCost + next);
      if (hinted && bitmap + hintCost + sampledKeys(head) < otherwise) {
        const found = await read(within(hinted, false), false);
        if (found.found >= head) return found;
        // Every window or band at or above its edge holds fewer matches still, so what comes next is
        // wider: before, the bands were tried from the narrowest up ("iphone" by highest payout, page
        // 3: 69 of 75 found from 16 up, then three bands from 512, 256 and 128 up, none found).
        seen = { size: hintedOffers!, found: found.found };
      }
      if (bitmap + Math.min(matches, offers) < sampleCost + after) return read(null, false);
      // Not when the statistics put far fewer than the head in it: it would tell only the frequency,
      // which they tell about as well for one word and no filter (at a million offers, of 598 samples
      // of the relevance head that fell short, the statistics had put most at under a fifth of it:
      // "online" 229 found, 304 expected; "hookups" 27 and 62; "live" 73 and 82). A walk stops at the
      // head, so a window picked wider than it needed costs nothing more. For words AND-ed the
      // statistics bound the matches only by the rarest word, and filters are taken as unrelated to
      // the words: too high a frequency would pick a window that falls short, walked to its end
      // ("control app" on the mobile tab: the 262,144 most popular, 39,385 buffers against 7,782).
      const skipped = !seen.size && counted.words === 1 && (await kept()) === 1 && WALK_SLACK * expected < head;
      if (!skipped && edges[0].size > seen.size) {
        const sample =
          sampleInside < sampleWalk
            ? await read(within(edges[0], false), false)
            : await read(within(edges[0], true), true);
        if (sample.found >= head) return sample;
        seen = { size: edges[0].size, found: sample.found };
      }
      // The smallest window that, at the sample's frequency (or the statistics'), should hold the head twice over.
      const frequency = skipped ? keptMatches / offers : seen.found / seen.size;
      const window = edges.find((e) => e.size > seen.size && frequency * e.size >= WALK_SLACK * head);
      // With none in the sample, all the text's matches could be anywhere below it: as many as the
      // statistics put among the offers the filters keep, which the text index applies ("install" in
      // one vertical at a million offers, found in none of four bands tried, 2.3 ms each: reading every
      // match had been priced at all 100,000 offers holding the word, none of them there). With some, the
      // sample's frequency, unless the statistics bound them lower: popular offers carry a word more
      // often than the rest ("pet": 2% of the 4,096 most popular, 1.2% of all). Never fewer than a
      // capped count has read: the best paid carry "pets" less often (71 among the 177,791 paying
      // 128 and up, 11,066 in all), and taking that rate for every offer put reading every match at
      // 399 rows, under the next band's try (31 ms against 4 at a million offers). For one word and no
      // filter, never fewer than the statistics count (`counts`): those are its matches, however rare
      // near the top of the order.
      const counts = counted.words === 1 && (await kept()) === 1;
      const extrapolated = seen.found || skipped ? frequency * offers : keptMatches;
      const readAll = bitmap + Math.max(sampled?.read ?? 0, Math.min(matches, counts ? offers : extrapolated));
      const walkCost = walkOf(head / frequency);
      if (bandedOrder(key)) {
        // A banded order reads the matches inside its bands (each holds exactly the offers at or
        // above its step), the narrowest first that should hold the head. A try that falls short
        // tells how many matches lie above its step, and the next is made only while the tries cost
        // less than reading every match: a word the best paid lack ("surveys", none among the 262,144
        // best paid) is found a band lower, not by reading its 23,083 matches from the table (193 ms).
        // A band narrows the reads, not so much the index's scan, priced as the whole bitmap: "keto:*"
        // (52,604 entries) took 105 ms, 49 inside popularity's band from 256 and 22 from 2,048; a
        // rare pair of words in one country took 2 ms in any band.
        let known = seen;
        let spent = 0;
        const total = Math.min(matches, offers);
        // With none found yet, the rate is the statistics', less what the filters drop (pay per call
        // keeps 6% of the offers): without it each band tried was too narrow, and the next one too
        // ("loans" on the mobile tab in one country and vertical, at a million offers: 15 statements
        // and 14 ms, 10 and 6 ms with it).
        const filtered = total * (await kept());
        const nextBand = () => {
          const wider = windows.bands.filter((b) => b.size > known.size);
          const expect = (b: Edge) => {
            // Where the statistics count the matches, those they leave outside the offers read so far,
            // spread over the rest: a word that crowds low in the order lies there ("iphone" by highest
            // payout, page 3, at a million offers: 69 of 75 among the 575,759 paying 8 and up; at their
            // rate the band of 4 and up looked short, and all 9,168 matches were read, 8,984 buffers
            // against 2,066). Where they only bound them, the rate of what was read.
            const rest = (filtered - known.found) / (offers - known.size || 1);
            const rate = known.found && !counts ? known.found / known.size : rest;
            return known.found + Math.max(0, rate) * (b.size - known.size);
          };
          const band = wider.find((b) => expect(b) >= WALK_SLACK * head) ?? wider[wider.length - 1];
          return band ? { band, cost: bitmap + bandCost(windows, band) + Math.min(expect(band), total) } : null;
        };
        // Words AND-ed that none of the offers read so far hold: the statistics bound such matches only by
        // the rarest word, and often none exist. Every try then costs what reading every match does, the
        // text index's scan ("dating gen": the 4,096 most popular walked, then the bands from 512, 256
        // and 128, then every match, none anywhere: 5.2 ms each), so every match is read at once.
        const noneAnded = () => (counted.words ?? 1) > 1 && known.size > 0 && known.found === 0;
        let next = nextBand();
        if (window && !noneAnded() && walkCost < readAll && walkCost <= (next?.cost ?? Infinity)) {
          const walked = await read(within(window, true), true);
          if (walked.found >= head) return walked;
          spent += walkCost;
          known = { size: window.size, found: walked.found };
          next = nextBand();
        }
        while (next && !noneAnded() && spent + next.cost < readAll) {
          const found = await read(within(next.band, false), false);
          if (found.found >= head) return found;
          spent += bitmap + bandCost(windows, next.band) + found.found;
          known = { size: next.band.size, found: found.found };
          next = nextBand();
        }
        return read(null, false);
      }
      // The text index's whole bitmap, the order index's range, the matches inside.
      const inside = (e: Edge) => insideWindow(key, windows, e, bitmap, frequency);
      const insideCost = window ? inside(window) : Infinity;
      if (window && walkCost < readAll && walkCost <= insideCost) {
        const walked = await read(within(window, true), true);
        if (walked.found >= head) return walked;
      } else if (key.ranged && edges.length > 2 && !skipped && seen.found === 0 && head <= PAGE_HEAD) {
        // A page's own rows with none in the sample: the next window is likely to hold them,
        // and its matches are few to read; the longest window only when it does not. A try that
        // falls short is paid on top of reading all, so each is made only when it costs less than
        // half of that ("budget app" by payout: each try built the bitmap of "app:*" again, 100 ms).
        for (const e of [edges[1], edges[edges.length - 1]]) {
          if (2 * inside(e) >= readAll) break;
          const found = await read(within(e, false), false);
          if (found.found >= head) return found;
        }
      } else if (window && insideCost < readAll) {
        // The matches inside the window, collected through the text index, so only they are read
        // from the table. Only where the sample says the window holds the head: a try that falls
        // short builds the bitmap twice (for a prefix, of every word it starts: "app:*" 140 ms).
        const found = await read(within(window, false), false);
        if (found.found >= head) return found;
      } else if (key.scope && key.covering && walkOf(offers) < readAll) {
        // A small scope (the sponsored offers, 3% of them) walked whole, index only: cheaper than
        // the bitmap of a common word ("sports" with pay per call and a country: 10 ms against 30).
        return read(null, true);
      }
      return read(null, false);
    },
  };
}

export type OrderWindows = ReturnType<typeof createOrderWindows>;
