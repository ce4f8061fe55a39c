// The offers search (docs/product.md §7 POST /api/offers/search): full-text with weights,
// close spellings of catalogue words for typos (text-query.ts), filters (OR within a list, AND across lists),
// tabs, sorts, sponsored pins and a bounded count.
//
// Ranking, in words: on the Top Offers tab the first page starts with up to
// SPONSORED_PINS sponsored offers that match (labelled as such; sponsored for
// this search: inside their window and keywords, see columns.ts); then, with a
// search text, the OFFERS_TOTAL_CAP most popular matches are ranked so that
// offers whose name matches outrank those that match only by network, vertical
// or description (ts_rank with weights A=1, B=0.4, C=0.2), and equal relevance
// falls back to popularity; without text, popularity. Every ordering ends with
// the offer id, so pages never shuffle between requests.
//
// Speed: every statement is bounded by a LIMIT, and sequential scans are
// switched off for the search's own transaction: with a LIMIT the planner
// likes to bet on a table scan stopping early, a bet that loses badly for rare
// terms on a million rows, while the indexes (GIN for text, countries and
// verticals; partial b-trees for each order) answer every case in bounded time.
// With text, the ordered part is first tried inside order windows (the offers
// leading the order table-wide), so a common word does not mean reading every
// one of its matches; see order-windows.ts.
import { sql, array, withBegin, type Database, type Queryable, type SQL } from "#db/client.ts";
import {
  DEFAULT_SORT_DESC,
  OFFERS_PAGE_SIZE,
  OFFERS_TOTAL_CAP,
  SPONSORED_PINS,
  type OfferSearch,
  type OfferSearchResult,
  type OfferSort,
} from "#contracts/offers.ts";
import {
  buildTextQuery,
  closeSpellingSettings,
  createCloseSpellings,
  createKnownWords,
  type CloseQuery,
  type CloseSpellings,
  type KnownWordsOf,
  type TextQuery,
} from "./text-query.ts";
import { offerRowsByIds } from "./listing.ts";
import { sponsoredNow } from "./columns.ts";
import { payoutRoseLately, recentMarkColumns, updatedLately } from "./changes.ts";
import {
  sampledKeys,
  sampledOrder,
  timeOrdinal,
  type FilterReach,
  type OrderKey,
  type OrderWindows,
  type Sampled,
} from "./order-windows.ts";
import type { SearchStats, SearchText } from "./search-stats.ts";

/** Fewer full-text matches than this and close spellings of the words are tried too. */
const FUZZY_BELOW = 3;
/** Close spellings are a suggestion list: the 100 most popular of them, ranked. */
const FUZZY_CAP = 100;
/**
 * Memory for one search's sorts and bitmaps (see inSearchTransaction), on PostgreSQL. PGlite
 * keeps the default: its WebAssembly memory never shrinks once grown (decision 0030).
 */
const searchWorkMem = (db: Database) => (db.kind === "postgres" ? sql.raw(`'32MB'`) : sql.raw(`'4MB'`));
/**
 * Table pages a bitmap heap scan (a search's matches, the page's rows by id) asks for ahead of
 * reading them, on PostgreSQL: its default of 1 waits on each scattered page in turn. At a million
 * offers, the first 1,002 matches of a word, read from disk, took 30–60 ms with 1 and 11–17 ms with
 * 8 to 256 (docs/decisions/0060). 16 is PostgreSQL 18's default; a higher setting of the server's
 * is kept, and so is 0, the only value a server built without posix_fadvise accepts.
 */
const SEARCH_IO_CONCURRENCY = 16;
const searchIoConcurrency = (db: Database) =>
  db.kind === "postgres"
    ? sql.raw(`set_config('effective_io_concurrency', CASE current_setting('effective_io_concurrency') WHEN '0' THEN '0'
        ELSE greatest(current_setting('effective_io_concurrency')::int, ${SEARCH_IO_CONCURRENCY})::text END, true),`)
    : sql.raw(``);
/** Rank weights for {D, C, B, A}: description C, network and verticals B, name A. */
const RANK_WEIGHTS = "{0, 0.2, 0.4, 1.0}";
type Plan = {
  /** The filters; the text's match is `match`. */
  where: SQL[];
  /**
   * The text's match, as the text index is asked it (`bitmap`: a prefix as the words it starts,
   * knownWords) and as a walk tests each offer with it (`walk`: as typed, one test of the prefix).
   */
  match: { bitmap: SQL; walk: SQL } | null;
  text: TextQuery | null;
  /** The text widened to close spellings (the fuzzy search), or null. */
  close: CloseQuery | null;
  /**
   * The sort the visitor chose, or the tab's own. `relevance` exists only with text; `sponsored` picks
   * the pins; `updated` and `payoutChanged` are the recent-change views' own orders (latest first).
   */
  sort: OfferSort | "relevance" | "sponsored" | "updated" | "payoutChanged";
  desc: boolean;
  pins: boolean;
  /** A recent-change view: only offers changed lately match, few, and at the head of the view's own order. */
  recent: boolean;
  /** What the filters keep of the offers, from the statistics: read once, when a cost is first weighed. */
  reach: () => Promise<FilterReach>;
};

function plan(input: OfferSearch, text: TextQuery | null, close: CloseQuery | null, reach: Plan["reach"]): Plan {
  const where: SQL[] = [sql`o.status = 'active'`];
  if (input.networks.length) where.push(sql`o.network_id = ANY (${array(input.networks)}::bigint[])`);
  // With text, the text index holds the countries and verticals too, as `column || '{}'` (the same
  // array), so its one scan takes them and skips through the rarest (migration 0032); written so,
  // no other index can take them. Without text, each has its own index.
  const overlaps = (column: SQL, values: SQL) =>
    text ? sql`(${column} || '{}') && ${values}` : sql`${column} && ${values}`;
  if (input.countries.length) where.push(overlaps(sql`o.countries`, sql`${array(input.countries)}::text[]`));
  if (input.categories.length) where.push(overlaps(sql`o.category_ids`, sql`${array(input.categories)}::int[]`));
  if (input.ppc || input.selectedTab === "payPerCall") where.push(sql`o.ppc`);
  if (input.mobile || input.selectedTab === "mobile") where.push(sql`o.mobile`);
  if (input.selectedTab === "updated") where.push(updatedLately);
  if (input.selectedTab === "payoutIncreased") where.push(payoutRoseLately);
  const match = text && {
    bitmap: sql`o.search_document @@ ${close ? close.tsquery : text.tsquery}`,
    walk: sql`o.search_document @@ ${close ? close.tsquery : text.walked}`,
  };

  const tabSort: Record<OfferSearch["selectedTab"], Plan["sort"]> = {
    topOffers: text ? "relevance" : "popularity",
    payPerCall: text ? "relevance" : "popularity",
    mobile: text ? "relevance" : "popularity",
    newest: "newest",
    highestPayout: "payout",
    updated: "updated",
    payoutIncreased: "payoutChanged",
  };
  const sort = input.sortBy ?? tabSort[input.selectedTab];
  // The recent-change views list the latest change first unless told otherwise.
  const byDefault = sort === "updated" || sort === "payoutChanged" || DEFAULT_SORT_DESC[sort as OfferSort];
  const desc = sort === "relevance" ? true : (input.sortDesc ?? byDefault);
  // Pins belong to the default Top Offers order; a visitor's own sort is honoured as asked.
  const pins = input.selectedTab === "topOffers" && !input.sortBy;
  const recent = input.selectedTab === "updated" || input.selectedTab === "payoutIncreased";
  return { where, match, text, close, sort, desc, pins, recent, reach };
}

/** The plan's filters and its text's match, as a walk tests it or as the text index is asked it. */
const conditions = (p: Plan, walk: boolean): SQL[] =>
  p.match ? [...p.where, walk ? p.match.walk : p.match.bitmap] : p.where;

/** Relevance order over the candidates (the most popular matches). */
function relevanceOrder(p: Plan): SQL {
  const t = p.text!;
  const rank = (q: SQL) => sql`ts_rank(${RANK_WEIGHTS}::float4[], o.search_document, ${q})`;
  // Close spellings: offers with the words as typed first.
  return p.close
    ? sql`(o.search_document @@ ${t.tsquery}) DESC, ${rank(p.close.ranked)} DESC, o.popularity DESC, o.id DESC`
    : sql`${rank(t.ranked)} DESC, o.popularity DESC, o.id DESC`;
}

/** The order matches are taken in; for relevance, the order its candidates are picked in. */
function orderBy(p: Plan): SQL {
  const dir = p.desc ? sql`DESC` : sql`ASC`;
  switch (p.sort) {
    case "relevance":
    case "popularity":
    case "sponsored":
      return sql`o.popularity ${dir}, o.id ${dir}`;
    case "newest":
      return sql`o.created_at ${dir}, o.id ${dir}`;
    case "updated":
      return sql`o.updated_at ${dir}, o.id ${dir}`;
    case "payoutChanged":
      return sql`o.payout_changed_at ${dir}, o.id ${dir}`;
    // Offers paid only as a percentage have no amount; they go last either way.
    case "payout":
      return p.desc ? sql`o.payout_usd DESC NULLS LAST, o.id DESC` : sql`o.payout_usd ASC NULLS LAST, o.id ASC`;
    case "name":
      return sql`lower(o.name) ${dir}, o.id ${dir}`;
    case "network": // see networkOrderIds
      return sql`o.network_id ${dir}, o.popularity DESC, o.id DESC`;
  }
}

/** The leading key of the order, which order windows bound. */
function orderKey(p: Plan): OrderKey | null {
  const desc = p.sort === "relevance" || p.desc;
  switch (p.sort) {
    case "relevance":
    case "popularity":
      return {
        name: "popularity",
        column: sql`o.popularity`,
        desc,
        covering: true,
        ranged: true,
        band: "popularity",
        ordinal: Number,
      };
    case "sponsored": // the pins: sponsored offers by popularity
      return { name: "sponsored", column: sql`o.popularity`, desc, scope: sql`o.sponsored`, covering: true };
    case "newest":
      return { name: "newest", column: sql`o.created_at`, desc, ranged: true, ordinal: timeOrdinal };
    case "updated":
      return { name: "updated", column: sql`o.updated_at`, desc, ranged: true, ordinal: timeOrdinal };
    case "payoutChanged":
      return { name: "payoutChanged", column: sql`o.payout_changed_at`, desc, ranged: true, ordinal: timeOrdinal };
    case "payout":
      return { name: "payout", column: sql`o.payout_usd`, desc, ranged: true, band: "payout", ordinal: Number };
    case "name":
      return { name: "name", column: sql`lower(o.name)`, desc, ranged: true };
    case "network":
      return null; // goes network by network, see networkOrderIds
  }
}

const whereSql = (parts: SQL[]) => sql.join(parts, sql` AND `);

/** The text searched for: as typed, or widened to close spellings. */
const searchText = (text: TextQuery | null, close: CloseQuery | null): SearchText | null =>
  text &&
  (close ? { key: `${text.text}~${close.words}`, tsquery: close.tsquery } : { key: text.text, tsquery: text.tsquery });

/** `found`: matches up to `head`; null for the network order, which does not count. */
type Head = { found: number | null; ids: number[] };

/**
 * The ids at [offset, offset + limit) of the matches in the plan's order, and
 * how many matches there are up to `head`. The `head` first matches in the
 * order are taken, then put in the final order (relevance ranks the
 * OFFERS_TOTAL_CAP most popular). With text, the head is first looked for
 * inside order windows, so a common word does not mean reading every match
 * (order-windows.ts).
 */
async function rankedIds(
  db: SearchTx,
  windows: OrderWindows,
  p: Plan,
  extra: SQL[],
  limit: number,
  offset: number,
  head: number,
  /** False: straight through the text index (the matches are known to be few). */
  windowed = true,
  /** A sample of every match, from a capped count (order-windows.ts, firstMatches). */
  sampled?: Sampled,
): Promise<Head> {
  const key = orderKey(p);
  if (!key) return { found: null, ids: await networkOrderIds(db, p, extra, limit, offset) };
  const relevance = p.sort === "relevance";
  // The head holds only what the popularity index holds too, so a walk of it
  // never visits the table (migration 0004); `n` keeps the order.
  const page = relevance
    ? sql`SELECT o.id FROM head o WHERE o.n <= ${OFFERS_TOTAL_CAP} ORDER BY ${relevanceOrder(p)} LIMIT ${limit} OFFSET ${offset}`
    : sql`SELECT o.id FROM head o ORDER BY o.n LIMIT ${limit} OFFSET ${offset}`;
  const select = async (filters: SQL[], walk = false): Promise<{ found: number; ids: number[] }> => {
    const where = p.match ? [...filters, walk ? p.match.walk : p.match.bitmap] : filters;
    const rows = await (walk ? db.walk : db.query)<{ found: number; id: number | null }>(sql`
      WITH head AS MATERIALIZED (
        SELECT o.id, o.popularity, ${relevance ? sql`o.search_document, ` : sql``}row_number() OVER (ORDER BY ${orderBy(p)}) AS n
        FROM offers o WHERE ${whereSql(where)} ORDER BY ${orderBy(p)} LIMIT ${head}
      )
      SELECT f.found, page.id FROM (SELECT count(*)::int AS found FROM head) f
      LEFT JOIN LATERAL (${page}) page ON true`);
    return { found: rows[0].found, ids: rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)])) };
  };
  const where = [...p.where, ...extra, ...(key.scope ? [key.scope] : [])]; // and the match, by select
  if (!p.text || !windowed) return select(where);
  return windows.firstMatches(
    db,
    key,
    head,
    searchText(p.text, p.close)!,
    (bound, walk) => select(bound ? [...where, bound] : where, walk),
    p.reach,
    sampled,
  );
}

/**
 * The search's transaction. With text, a statement either walks an order index (`walk`, used
 * inside windows) or collects the text's matches through the GIN bitmap (`query`, the default):
 * the planner, pricing a per-row text test as nearly free, would otherwise walk for rare words
 * too, reading the whole table. Without text, `query` leaves the planner its choice, and `walk`
 * follows an order index all the same.
 */
type SearchTx = Queryable & { walk<T = Record<string, unknown>>(statement: SQL): Promise<T[]> };

/** The access is switched only when a statement needs the other one: walks often follow each other (the pins', then the page's). */
function searchTx(tx: Queryable, withText: boolean): SearchTx {
  let walking = false;
  const access = async (walk: boolean) => {
    if (walk === walking) return;
    // A walk must follow the order's own index. Sorting is off for it: the planner,
    // guessing a third of the table inside a window of an expression's order
    // (lower(name)), would rather filter the covering popularity index and sort.
    await tx.query(sql`SELECT set_config('enable_indexscan', ${walk || !withText ? "on" : "off"}, true),
      set_config('enable_bitmapscan', ${walk ? "off" : "on"}, true),
      set_config('enable_sort', ${walk ? "off" : "on"}, true)`);
    walking = walk;
  };
  return {
    execScript: (script) => tx.execScript(script),
    query: async (statement) => (await access(false), tx.query(statement)),
    walk: async (statement) => (await access(true), tx.query(statement)),
  };
}

async function networkOrderIds(db: Queryable, p: Plan, extra: SQL[], limit: number, offset: number): Promise<number[]> {
  // Networks in name order (their own index), each one's offers from its own
  // index: the LIMIT stops after the first few networks instead of sorting every
  // offer. With text, the matches are few enough to join and sort instead.
  const eachNetwork = p.text ? sql`` : sql`ORDER BY o.popularity DESC, o.id DESC LIMIT ${offset + limit}`;
  const dir = p.desc ? sql`DESC` : sql`ASC`;
  const rows = await db.query<{ id: number }>(sql`
    SELECT x.id FROM networks n
    CROSS JOIN LATERAL (
      SELECT o.id, o.popularity FROM offers o WHERE o.network_id = n.id AND ${whereSql([...conditions(p, false), ...extra])} ${eachNetwork}
    ) x
    ORDER BY lower(n.name) ${dir}, n.id ${dir}, x.popularity DESC, x.id DESC
    LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => r.id);
}

/**
 * How many offers match a search without text, up to `cap` + 1. Any `cap` + 1 matches will do, so
 * with countries or verticals, which popularity's covering index carries, they are counted along
 * it when that costs less than the filters' own indexes, whose bitmaps take in every offer a filter
 * names (order-windows.ts, countWalks): vertical 7 at a million offers, 69,000 entries and 44–54 ms,
 * against 4.6 ms along popularity. The recent-change views and networks have indexes of their own,
 * and pay-per-call and mobile, which the statistics do not weigh, could make the walk long.
 */
async function countCapped(db: SearchTx, windows: OrderWindows, p: Plan, input: OfferSearch): Promise<number> {
  const cap = OFFERS_TOTAL_CAP;
  const weighed =
    !p.recent &&
    !input.networks.length &&
    !input.ppc &&
    !input.mobile &&
    input.selectedTab !== "payPerCall" &&
    input.selectedTab !== "mobile";
  const walk = weighed && windows.countWalks(await p.reach(), cap + 1);
  const [row] = await (walk ? db.walk : db.query)<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM offers o WHERE ${whereSql(conditions(p, walk))} ${walk ? sql`ORDER BY o.popularity DESC, o.id DESC` : sql``}
      LIMIT ${cap + 1}
    ) m`);
  return row.n;
}

/** The page a count can bring along: its rows among all matches, less `extra` (the pins). */
type PageOf = { extra: SQL[]; limit: number; offset: number };

/**
 * How many offers match, up to `cap` + 1, and with `page`, that page too when the count read every
 * match (fewer than `upTo` matched, `upTo` being `cap` + 1 or more): the page is then theirs in the
 * plan's order, and no second statement builds the text index's bitmap again ("app" by highest payout
 * in one vertical and country: 167 matches counted from a bitmap of 431,810 entries, 160 ms, then the
 * same bitmap for the page). `ids` is null when the count stopped at `upTo`.
 */
type Counted = { found: number; ids: number[] | null; sample?: Sampled };

async function countWithPage(
  db: Queryable,
  p: Plan,
  cap: number,
  page: PageOf,
  /** Matches read at most: `cap` + 1, or more to read every match, the page then among them. */
  upTo: number,
  /** The order's key, when a count that stops should bring back the best keys of what it read (Sampled). */
  key?: SQL,
): Promise<Counted> {
  // Counting stops after the cap: an exact count of a million matches costs more than the page itself.
  // With text, the text index's bitmap names the matches, and only `cap` + 1 of them are read.
  // The columns every order of orderBy reads, so it can sort the matches as they are.
  const keys = key ? sampledKeys(page.offset + page.limit) : 0;
  const rows = await db.query<{ found: number; keys: string[] | null; id: number | null }>(sql`
    WITH m AS MATERIALIZED (
      SELECT o.id, o.popularity, o.created_at, o.updated_at, o.payout_changed_at, o.payout_usd, o.name, o.network_id
      FROM offers o WHERE ${whereSql(conditions(p, false))} LIMIT ${upTo}
    )
    SELECT f.found, page.id, ${
      keys
        ? sql`CASE WHEN f.found >= ${upTo} THEN ARRAY(
            SELECT (${key})::text FROM m o WHERE ${key} IS NOT NULL ORDER BY ${orderBy(p)} LIMIT ${keys}) END`
        : sql`NULL::text[]`
    } AS keys
    FROM (SELECT count(*)::int AS found FROM m) f
    LEFT JOIN LATERAL (
      SELECT o.id FROM m o WHERE ${whereSql([sql`f.found < ${upTo}`, ...page.extra])}
      ORDER BY ${orderBy(p)} LIMIT ${page.limit} OFFSET ${page.offset}
    ) page ON true`);
  const complete = rows[0].found < upTo;
  const found = Math.min(rows[0].found, cap + 1);
  const sampled = rows[0].keys ? { sample: { read: rows[0].found, keys: rows[0].keys } } : {};
  return { found, ids: complete ? rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)])) : null, ...sampled };
}

/**
 * Runs `work` in one transaction with the search's planner settings (local to it).
 * With text, plain index scans are off too: walking an order index while testing
 * every row's document is the slow path; the GIN bitmap finds the matches directly.
 * searchWorkMem keeps the bitmap of a common prefix exact ("sign:*" is 380,000
 * offers at a million): past work_mem it turns lossy, and intersecting it with a
 * filter's bitmap then means reading and rechecking every page the filter names.
 * No parallel workers: a long walk ("signup" in one vertical, 97,000 offers) took
 * two, three processes on cores that concurrent searches already keep busy; without
 * them the mix ran 8–18% more searches a second at 32 connections (decision 0031).
 */
/**
 * What a search with text reads as its transaction opens: the documents' words' highest number
 * (`added`, createKnownWords) and the name words' (`names`, createCloseSpellings); null without text.
 */
type Opened = { added: string | null; names: string | null };

async function inSearchTransaction<T>(
  db: Database,
  withText: boolean,
  work: (tx: SearchTx, opened: Opened) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    // Constants of the code's own, no value bound: sent with BEGIN (withBegin).
    const indexScans = withText ? sql.raw(`'off'`) : sql.raw(`'on'`);
    const numbers = withText
      ? sql`oa_document_words_added()::text AS added, ${closeSpellingSettings}`
      : sql.raw(`NULL::text AS added, NULL::text AS names`);
    const [opened] = await tx.query<Opened>(
      withBegin(sql`SELECT set_config('enable_seqscan', 'off', true),
        set_config('enable_indexscan', ${indexScans}, true),
        set_config('jit', 'off', true),
        set_config('max_parallel_workers_per_gather', '0', true),
        set_config('work_mem', ${searchWorkMem(db)}, true),
        ${searchIoConcurrency(db)}
        ${numbers}`),
    );
    return work(searchTx(tx, withText), { added: opened.added, names: opened.names });
  });
}

async function run(
  db: SearchTx,
  windows: OrderWindows,
  input: OfferSearch,
  text: TextQuery | null,
  close: CloseQuery | null,
  reach: Plan["reach"],
) {
  const p = plan(input, text, close, reach);
  // The most popular sponsored matches.
  const pins = p.pins
    ? (
        await rankedIds(
          db,
          windows,
          { ...p, sort: "sponsored", desc: true },
          [sponsoredNow(input.query)],
          SPONSORED_PINS,
          0,
          SPONSORED_PINS,
        )
      ).ids
    : [];
  // Pinned offers take the top of page 1 and are left out of the organic list, so
  // pages stay exactly OFFERS_PAGE_SIZE long and no offer shows twice.
  const exclude = pins.length ? [sql`o.id <> ALL (${array(pins)}::bigint[])`] : [];
  const start = (input.page - 1) * OFFERS_PAGE_SIZE;
  const cap = p.close ? FUZZY_CAP : OFFERS_TOTAL_CAP;
  const [size, offset] =
    input.page === 1 ? [OFFERS_PAGE_SIZE - pins.length, 0] : [OFFERS_PAGE_SIZE, start - pins.length];
  const limit = Math.max(0, Math.min(size, cap - pins.length - offset)); // never more than `cap` offers in all
  // Without text, the page needs only its own rows and the count is a separate walk.
  const organic = p.text
    ? await withText(db, windows, p, exclude, limit, offset, cap)
    : { ids: (await rankedIds(db, windows, p, exclude, limit, offset, offset + limit)).ids, found: null };
  const count = organic.found === null ? await countCapped(db, windows, p, input) : organic.found + pins.length;
  const total = Math.min(count, cap);
  const shownPins = input.page === 1 ? pins : [];
  return { total, capped: count > cap, ids: [...shownPins, ...organic.ids], pinned: new Set(shownPins) };
}

/** What a search finds, when it is known to find nothing. */
const nothingFound: Awaited<ReturnType<typeof run>> = { total: 0, capped: false, ids: [], pinned: new Set() };

/**
 * About what share of the offers the filters keep (`share`, 1 without them): countries, verticals,
 * pay per call and mobile. And how many entries the country and vertical indexes' bitmaps take in
 * (`entries`: every offer each filter names; the flags have no index of their own).
 */
async function filterReach(db: Queryable, stats: SearchStats, input: OfferSearch): Promise<FilterReach> {
  const all = await stats.offers(db);
  let reach: FilterReach = { share: 1, entries: 0 };
  if (!all) return reach;
  for (const [column, values] of [
    ["countries", input.countries],
    ["category_ids", input.categories],
  ] as const) {
    if (!values.length) continue;
    const holding = await stats.offersWith(db, column, values);
    reach = {
      ...reach,
      share: (reach.share * holding) / all,
      entries: reach.entries + holding,
      rarest: Math.min(reach.rarest ?? Infinity, holding),
    };
  }
  for (const [flag, on] of [
    ["ppc", input.ppc || input.selectedTab === "payPerCall"],
    ["mobile", input.mobile || input.selectedTab === "mobile"],
  ] as const) {
    if (!on) continue;
    const share = await stats.flagShare(db, flag);
    // Each flag has a text index of its own (migrations 0028, 0032); the search scans the smaller.
    reach = { ...reach, share: reach.share * share, indexed: Math.min(reach.indexed ?? 1, share) };
  }
  return reach;
}

/**
 * How many offers match a search with text, up to `cap` + 1: any `cap` + 1 matches will do, so
 * they are counted through the text index or along popularity, whichever the windows judge cheaper
 * (countWay). Through the text index the count brings `page` along when it read every match
 * (countWithPage), and it reads them all when that costs less than building the bitmap again.
 */
async function countWithText(
  db: SearchTx,
  windows: OrderWindows,
  p: Plan,
  cap: number,
  page: PageOf,
): Promise<Counted> {
  const key = orderKey(p)!;
  // Every filter is the text index's (migration 0032; pay per call and mobile have their own partial
  // text indexes), so the matches read are only those the filters keep.
  const { way, upTo } = await windows.countWay(db, searchText(p.text, p.close)!, p.reach, cap + 1, {
    key,
    head: page.offset + page.limit,
  });
  // The page is looked for where the count's matches say it lies, where they can tell (firstMatches).
  if (way !== "walk") return countWithPage(db, p, cap, page, upTo, sampledOrder(key) ? key.column : undefined);
  // Along popularity the head's ids come back with the count: with no more than the cap, they are
  // every match, and the page sorts them, read by id, instead of finding them again.
  const head = await rankedIds(db, windows, { ...p, sort: "popularity", desc: true }, [], cap + 1, 0, cap + 1);
  if (head.found! > cap) return { found: head.found!, ids: null };
  return { found: head.found!, ids: await pageOf(db, p, head.ids, page) };
}

/** The page of `page` among the offers `ids` (every match), in the plan's order. */
async function pageOf(db: Queryable, p: Plan, ids: number[], page: PageOf): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.query<{ id: number }>(sql`
    SELECT o.id FROM offers o WHERE ${whereSql([sql`o.id = ANY (${array(ids)}::bigint[])`, ...page.extra])}
    ORDER BY ${orderBy(p)} LIMIT ${page.limit} OFFSET ${page.offset}`);
  return rows.map((r) => Number(r.id));
}

/**
 * The page and the count (up to `cap` + 1, pins left out) of a search with text.
 *
 * In relevance order the first `cap` matches by popularity are ranked, so they are taken
 * (and counted) at once, along the popularity index, which covers the search. Another
 * order's index does not: each offer a walk of it passes is a table read, and a head of
 * `cap` + 1 took reading tens of thousands of them ("trial" by highest payout, whose first
 * match is past the 4,096 best paid). So there the matches are counted in popularity order,
 * and the page takes only its own rows: none when nothing matches; sorted from the count's own
 * when it read them all through the text index; through the text index when the matches are
 * fewer than the cap; and inside the order's windows otherwise. Not in
 * the recent-change views: their few matches lead their own order, and along popularity's
 * they are scattered.
 */
async function withText(
  db: SearchTx,
  windows: OrderWindows,
  p: Plan,
  exclude: SQL[],
  limit: number,
  offset: number,
  cap: number,
): Promise<Head> {
  const key = orderKey(p);
  if (!key || key.covering || p.recent) return rankedIds(db, windows, p, exclude, limit, offset, cap + 1);
  const counted = await countWithText(db, windows, p, cap, { extra: exclude, limit, offset });
  const found = counted.found;
  if (found === 0 || limit === 0) return { found, ids: [] };
  if (counted.ids) return { found, ids: counted.ids };
  const page = await rankedIds(db, windows, p, exclude, limit, offset, offset + limit, found > cap, counted.sample);
  return { found, ids: page.ids };
}

export async function searchOffers(
  db: Database,
  windows: OrderWindows,
  input: OfferSearch,
  /** Where close spellings are looked up (a service keeps one, which remembers them). */
  closeSpellings: CloseSpellings = createCloseSpellings(),
  /** Where a text's words are asked of the catalogue (a service keeps one, which remembers them). */
  knownWords: KnownWordsOf = createKnownWords(),
): Promise<OfferSearchResult> {
  const typed = buildTextQuery(input.query);
  const { result, fuzzy, rows } = await inSearchTransaction(db, typed !== null, async (tx, { added, names }) => {
    const known = typed && (await knownWords(tx, typed, added));
    const text = known ? known.query : null;
    let filtered: Promise<FilterReach> | undefined;
    const reach = () => (filtered ??= filterReach(tx, windows.stats, input));
    let found = known?.nothing ? nothingFound : await run(tx, windows, input, text, null, reach);
    let loose = false;
    const close = text && found.total < FUZZY_BELOW ? await closeSpellings(tx, text, names) : null;
    if (close) {
      const closer = await run(tx, windows, input, text, close, reach);
      if (closer.total > found.total) {
        found = closer;
        loose = true;
      }
    }
    return {
      result: found,
      fuzzy: loose,
      // Not walking: with sorting off, the rows' verticals were read along their name index (5× the buffers).
      rows: await offerRowsByIds(tx, found.ids, input.query, recentMarkColumns),
    };
  });
  return {
    offers: rows.map((r) => ({
      ...r,
      ...(result.pinned.has(r.id) ? { pinned: true } : {}),
      isNew: r.isNew ?? false,
      payoutChange: r.payoutChange ?? null,
    })),
    total: result.total,
    page: input.page,
    pageSize: OFFERS_PAGE_SIZE,
    totalCapped: result.capped,
    fuzzy,
    query: input.query,
    selectedTab: input.selectedTab,
  };
}
