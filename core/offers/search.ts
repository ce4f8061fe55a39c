// The offers search (spec §7 POST /api/offers/search): full-text with weights,
// a trigram fallback for typos, filters (OR within a list, AND across lists),
// tabs, sorts, sponsored pins and a bounded count.
//
// Ranking, in words: on the Top Offers tab the first page starts with up to
// SPONSORED_PINS sponsored offers that match (labelled as such); then, with a
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
import { sql, array, type Database, type Queryable, type SQL } from "#db/client.ts";
import {
  DEFAULT_SORT_DESC, OFFERS_PAGE_SIZE, OFFERS_TOTAL_CAP, SPONSORED_PINS,
  type OfferSearch, type OfferSearchResult, type OfferSort,
} from "#contracts/offers.ts";
import { buildTextQuery, type TextQuery } from "./text-query.ts";
import { offerRowsByIds } from "./listing.ts";

/** Fewer full-text matches than this and close spellings of offer names are tried too. */
const FUZZY_BELOW = 3;
/** How close a name must be to the typed text (pg_trgm word_similarity, 0–1). */
const FUZZY_THRESHOLD = 0.45;
/** Rank weights for {D, C, B, A}: description C, network and verticals B, name A. */
const RANK_WEIGHTS = "{0, 0.2, 0.4, 1.0}";

type Plan = {
  where: SQL[];
  text: TextQuery | null;
  fuzzy: boolean;
  /** The sort the visitor chose, or the tab's own. `relevance` exists only with text. */
  sort: OfferSort | "relevance";
  desc: boolean;
  pins: boolean;
};

function plan(input: OfferSearch, text: TextQuery | null, fuzzy: boolean): Plan {
  const where: SQL[] = [sql`o.status = 'active'`];
  if (input.networks.length) where.push(sql`o.network_id = ANY (${array(input.networks)}::bigint[])`);
  if (input.countries.length) where.push(sql`o.countries && ${array(input.countries)}::text[]`);
  if (input.categories.length) where.push(sql`o.category_ids && ${array(input.categories)}::int[]`);
  if (input.ppc || input.selectedTab === "payPerCall") where.push(sql`o.ppc`);
  if (input.mobile || input.selectedTab === "mobile") where.push(sql`o.mobile`);
  if (text) {
    where.push(
      fuzzy
        ? sql`(o.search_document @@ ${text.tsquery} OR ${text.text} <% o.name)`
        : sql`o.search_document @@ ${text.tsquery}`,
    );
  }

  const tabSort: Record<OfferSearch["selectedTab"], OfferSort | "relevance"> = {
    topOffers: text ? "relevance" : "popularity",
    payPerCall: text ? "relevance" : "popularity",
    mobile: text ? "relevance" : "popularity",
    newest: "newest",
    highestPayout: "payout",
  };
  const sort = input.sortBy ?? tabSort[input.selectedTab];
  const desc = sort === "relevance" ? true : (input.sortDesc ?? DEFAULT_SORT_DESC[sort]);
  // Pins belong to the default Top Offers order; a visitor's own sort is honoured as asked.
  const pins = input.selectedTab === "topOffers" && !input.sortBy;
  return { where, text, fuzzy, sort, desc, pins };
}

/** Relevance order over the candidates `c` (the most popular matches). */
function relevanceOrder(p: Plan): SQL {
  const t = p.text!;
  const rank = sql`ts_rank(${RANK_WEIGHTS}::float4[], c.search_document, ${t.tsquery})`;
  return p.fuzzy
    ? sql`(c.search_document @@ ${t.tsquery}) DESC, word_similarity(${t.text}, c.name) DESC, ${rank} DESC, c.popularity DESC, c.id DESC`
    : sql`${rank} DESC, c.popularity DESC, c.id DESC`;
}

function orderBy(p: Plan): SQL {
  const dir = p.desc ? sql`DESC` : sql`ASC`;
  switch (p.sort) {
    case "relevance":
    case "popularity":
      return sql`o.popularity ${dir}, o.id ${dir}`;
    case "newest":
      return sql`o.created_at ${dir}, o.id ${dir}`;
    // Offers paid only as a percentage have no amount; they go last either way.
    case "payout":
      return p.desc ? sql`o.payout_usd DESC NULLS LAST, o.id DESC` : sql`o.payout_usd ASC NULLS LAST, o.id ASC`;
    case "name":
      return sql`lower(o.name) ${dir}, o.id ${dir}`;
    case "network": // see pageIds
      return sql`o.network_id ${dir}, o.popularity DESC, o.id DESC`;
  }
}

const whereSql = (parts: SQL[]) => sql.join(parts, sql` AND `);

async function pageIds(db: Queryable, p: Plan, extra: SQL[], limit: number, offset: number): Promise<number[]> {
  if (limit <= 0) return [];
  if (p.sort === "relevance") {
    const rows = await db.query<{ id: number }>(sql`
      SELECT c.id FROM (
        SELECT o.id, o.name, o.popularity, o.search_document FROM offers o WHERE ${whereSql([...p.where, ...extra])}
        ORDER BY o.popularity DESC, o.id DESC LIMIT ${OFFERS_TOTAL_CAP}
      ) c
      ORDER BY ${relevanceOrder(p)} LIMIT ${limit} OFFSET ${offset}`);
    return rows.map((r) => r.id);
  }
  if (p.sort === "network") {
    // Networks in name order, each one's offers from its own index: the LIMIT
    // stops after the first few networks instead of sorting every offer.
    const rows = await db.query<{ id: number }>(sql`
      SELECT x.id FROM (SELECT id, lower(name) AS key FROM networks) n
      CROSS JOIN LATERAL (
        SELECT o.id, o.popularity FROM offers o WHERE o.network_id = n.id AND ${whereSql([...p.where, ...extra])}
      ) x
      ORDER BY n.key ${p.desc ? sql`DESC` : sql`ASC`}, n.id ${p.desc ? sql`DESC` : sql`ASC`}, x.popularity DESC, x.id DESC
      LIMIT ${limit} OFFSET ${offset}`);
    return rows.map((r) => r.id);
  }
  const rows = await db.query<{ id: number }>(sql`
    SELECT o.id FROM offers o WHERE ${whereSql([...p.where, ...extra])}
    ORDER BY ${orderBy(p)} LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => r.id);
}

async function countCapped(db: Queryable, p: Plan): Promise<number> {
  // Counting stops after the cap: an exact count of a million matches costs more than the page itself.
  const [row] = await db.query<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM offers o WHERE ${whereSql(p.where)} LIMIT ${OFFERS_TOTAL_CAP + 1}) m`);
  return row.n;
}

async function pinnedIds(db: Queryable, p: Plan): Promise<number[]> {
  if (!p.pins) return [];
  const rows = await db.query<{ id: number }>(sql`
    SELECT o.id FROM offers o WHERE ${whereSql([...p.where, sql`o.sponsored`])}
    ORDER BY o.popularity DESC, o.id DESC LIMIT ${SPONSORED_PINS}`);
  return rows.map((r) => r.id);
}

/**
 * Runs `work` in one transaction with the search's planner settings (local to it).
 * With text, plain index scans are off too: walking an order index while testing
 * every row's document is the slow path; the GIN bitmap finds the matches directly.
 */
async function inSearchTransaction<T>(db: Database, withText: boolean, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(sql`SELECT set_config('enable_seqscan', 'off', true),
      set_config('enable_indexscan', ${withText ? "off" : "on"}, true),
      set_config('pg_trgm.word_similarity_threshold', ${String(FUZZY_THRESHOLD)}, true)`);
    return work(tx);
  });
}

async function run(db: Queryable, input: OfferSearch, text: TextQuery | null, fuzzy: boolean) {
  const p = plan(input, text, fuzzy);
  const [count, pins] = [await countCapped(db, p), await pinnedIds(db, p)];
  const total = Math.min(count, OFFERS_TOTAL_CAP);
  // Pinned offers take the top of page 1 and are left out of the organic list, so
  // pages stay exactly OFFERS_PAGE_SIZE long and no offer shows twice.
  const exclude = pins.length ? [sql`o.id <> ALL (${array(pins)}::bigint[])`] : [];
  const start = (input.page - 1) * OFFERS_PAGE_SIZE;
  const organicIds =
    input.page === 1
      ? await pageIds(db, p, exclude, OFFERS_PAGE_SIZE - pins.length, 0)
      : await pageIds(db, p, exclude, OFFERS_PAGE_SIZE, start - pins.length);
  const shownPins = input.page === 1 ? pins : [];
  return { p, total, capped: count > OFFERS_TOTAL_CAP, ids: [...shownPins, ...organicIds], pinned: new Set(shownPins) };
}

export async function searchOffers(db: Database, input: OfferSearch): Promise<OfferSearchResult> {
  const text = buildTextQuery(input.query);
  const { result, fuzzy, rows } = await inSearchTransaction(db, text !== null, async (tx) => {
    let found = await run(tx, input, text, false);
    let loose = false;
    if (text && found.total < FUZZY_BELOW && text.text.length >= 3) {
      const close = await run(tx, input, text, true);
      if (close.total > found.total) {
        found = close;
        loose = true;
      }
    }
    return { result: found, fuzzy: loose, rows: await offerRowsByIds(tx, found.ids) };
  });
  return {
    offers: rows.map((r) => (result.pinned.has(r.id) ? { ...r, pinned: true } : r)),
    total: result.total,
    page: input.page,
    pageSize: OFFERS_PAGE_SIZE,
    totalCapped: result.capped,
    fuzzy,
    query: input.query,
    selectedTab: input.selectedTab,
  };
}
