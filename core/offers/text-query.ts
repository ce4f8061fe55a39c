// Turns what a visitor typed into a full-text query over offers.search_document.
//
// The document mixes two dictionaries: 'simple' for the name, network and
// verticals (weights A and B, brand names must not be stemmed) and 'english'
// for the description (weight C). So every word is looked up both ways
// (`simple | english`), and the words are AND-ed. The last word is matched as
// a prefix, because it is usually the one still being typed.
//
// Close spellings: when the words find (almost) nothing, each typed word also
// accepts the catalogue's name words spelled closest to it (offer_name_words,
// migration 0025), and those offers rank by how close their words are.
import { sql, array, keepPlan, type Queryable, type SQL } from "#db/client.ts";
import { createCache } from "#core/cache/cache.ts";

/** Words that carry no meaning in a product search; dropped unless the query is nothing else. */
const STOPWORDS = new Set(
  "a an and are as at be by for from in into is it of on or that the this to with without".split(" "),
);
const MAX_WORDS = 8;
/** Shorter last words are matched exactly: a one-letter prefix would match half the index. */
const MIN_PREFIX = 2;

export type TextQuery = {
  /** The words searched for (normalised like oa_normalize: a–z and 0–9 only). */
  words: string[];
  /**
   * What an offer's document must match: a tsquery expression, constant-folded by the planner,
   * so the GIN index applies. Each word's spellings that another one already covers are left
   * out (see matchOnly); the offers matched are the same as `ranked`'s.
   */
  tsquery: SQL;
  /**
   * The same match, as a walk tests each offer with it: as typed, unless knownWords asks for no more
   * than WALKED_WORDS words instead of the prefix (one test each for an offer; the prefix is one).
   */
  walked: SQL;
  /** The same query with every spelling, for ranking: ts_rank counts each one matched. */
  ranked: SQL;
  /** The original (normalised) text. */
  text: string;
  /** One tsquery per word, in `words` order: what `tsquery` and `ranked` AND. */
  terms: { match: SQL; ranked: SQL }[];
  /** Whether the last word is matched as a prefix (see knownWords). */
  prefixed: boolean;
};

/** A text query widened to close spellings; `words`: the close spellings it added. */
export type CloseQuery = { tsquery: SQL; ranked: SQL; words: string };

/** Close spellings tried per typed word at most: the closest name words (ties). */
const CLOSE_WORDS = 5;
/** How alike two words must be (pg_trgm similarity, 0–1): "casno" is 0.44 from "casino". */
const CLOSE_THRESHOLD = 0.3;
/** Shorter words have too few trigrams for their spelling to say anything. */
const MIN_CLOSE_LENGTH = 3;

/** Same rule as the database's oa_normalize: lowercase, a–z 0–9, single spaces. */
function normalizeSearchText(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

export function buildTextQuery(query: string): TextQuery | null {
  const text = normalizeSearchText(query);
  if (!text) return null;
  const all = text.split(" ");
  const meaningful = all.filter((w) => !STOPWORDS.has(w));
  const words = (meaningful.length ? meaningful : all).slice(0, MAX_WORDS);
  const lastTyped = all[all.length - 1];
  const last = words[words.length - 1];
  const prefixed = last === lastTyped && last.length >= MIN_PREFIX;
  const parts = words.map((word, i) => {
    // Words are [a-z0-9]+ only, so they cannot carry tsquery syntax.
    const prefix = i === words.length - 1 && prefixed;
    const term = prefix ? `${word}:*` : word;
    const simple = sql`to_tsquery('simple', ${term})`;
    const english = sql`to_tsquery('english', ${term})`;
    // Most words stem to themselves; asking the index twice for the same prefix doubles its work.
    const ranked = sql`(CASE WHEN ${english} = ${simple} THEN ${simple} ELSE ${simple} || ${english} END)`;
    return { match: prefix ? matchOnly(simple, english, ranked) : ranked, ranked };
  });
  const tsquery = and(parts.map((p) => p.match));
  return {
    words,
    tsquery,
    walked: tsquery,
    ranked: and(parts.map((p) => p.ranked)),
    text,
    terms: parts,
    prefixed,
  };
}

const and = (terms: SQL[]) => sql`(${sql.join(terms, sql` && `)})`;

/** Most words a prefix is asked as; a prefix of a few letters starts hundreds. */
const PREFIX_WORDS = 32;
/**
 * Most words a walk tests each offer with instead of the prefix as typed. Along the 1,001 most
 * popular matches at a million offers: 'password' | 'passwords' 94–98 ms, 'password':* 103–106;
 * 'app':* 27–32 ms, its six words 36–38; 'slot':* 209–317 ms, its thirteen words and prefixes 393.
 */
const WALKED_WORDS = 2;

/**
 * What the table of every document word (migration 0029; it lacks no word a document holds) tells of
 * the query, in one statement:
 *
 * - `query`: the query with its last word, a prefix, matched as the catalogue's words it starts
 *   ("trial:*" as 'trial', "app:*" as 'app' | 'apps' | 'applic' | …): the same offers, and the text
 *   index finds them two to three times faster (it collects a prefix's words into a bitmap of their
 *   own first). A prefix that starts more than PREFIX_WORDS is asked as its common words and as
 *   prefixes of the rest (splitPrefix). Unchanged when the prefix starts no word (nothing to find,
 *   fast either way), or too many to split. Only the match: the ranking keeps the prefix, so ts_rank
 *   counts the same.
 * - `nothing`: whether the query can match no offer: one of the words it ANDs has none of its
 *   spellings (nor, for a prefix, a word it starts) in any document. A misspelt or absent word
 *   ("casno", "hovercraft") then needs no search: the one that would find nothing walks the 4,096
 *   most popular offers to learn that it cannot pick a window (4,068 buffers at a million offers),
 *   and builds the bitmaps. A word whose spellings do not read as a–z and 0–9 counts as present:
 *   nothing is known of it.
 */
export async function knownWords(db: Queryable, query: TextQuery): Promise<KnownWords> {
  return asKnown(
    query,
    await lookUpWords(
      db,
      query,
      query.terms.map((_, i) => i),
    ),
  );
}

/** What knownWords tells of a query. */
export type KnownWords = { query: TextQuery; nothing: boolean };
/** A word of the documents, or (`prefix`) every word it starts. */
type Asked = { word: string; prefix?: true };

/** How long a word's answer is remembered at most (see createKnownWords). */
const KNOWN_TTL_MS = 10 * 60_000;
/** Words remembered (up to a kilobyte each: a prefix's asked words). */
const KNOWN_REMEMBERED = 20_000;

/**
 * What the table of document words answers for one word of a query: whether any of its spellings
 * is a document word (for a prefix, starts one), and for a prefix, what it is asked as (null: as
 * itself).
 */
type WordFound = { known: boolean; asked?: Asked[] | null };

/**
 * knownWords, remembering each word's answer under the documents' words' highest number (migration
 * 0034), which the search reads with its settings, in BEGIN's round trip: a word is asked of the
 * table once until a document brings a new word. Words only accumulate, so an answer can only gain
 * words; a new word means a new number and a new look-up. Searches share their words far more
 * often than whole texts ("cpl dating", "dating" in another country, "dating app"): a first
 * look-up of a text asks only for its words not asked before, and none when there are none. At a
 * million offers the look-up was about one in nine of a cold search's statements, 1.6 ms each
 * (a prefix such as "home" starts 2,203 words).
 */
export function createKnownWords() {
  const remembered = createCache<WordFound>({ ttlMs: KNOWN_TTL_MS, max: KNOWN_REMEMBERED });
  return async (db: Queryable, query: TextQuery, added: string | null): Promise<KnownWords> => {
    const keys = query.words.map((word, i) => `${added}:${word}${isPrefix(query, i) ? ":*" : ""}`);
    const missing = keys.flatMap((key, i) => (remembered.peek(key) === undefined ? [i] : []));
    let asked: Promise<WordFound[]> | undefined;
    const found = await Promise.all(
      keys.map((key, i) =>
        remembered.get(key, async () => {
          // One statement for every word not remembered; a word that expired since it was peeked, alone.
          const n = missing.indexOf(i);
          return n < 0
            ? (await lookUpWords(db, query, [i]))[0]
            : (await (asked ??= lookUpWords(db, query, missing)))[n];
        }),
      ),
    );
    return asKnown(query, found);
  };
}

export type KnownWordsOf = ReturnType<typeof createKnownWords>;

/** Whether the query's word `i` is matched as a prefix (its last, see buildTextQuery). */
const isPrefix = (query: TextQuery, i: number) => query.prefixed && i === query.terms.length - 1;

/** What the table of document words answers for the query's words `ask` (indexes), in their order. */
async function lookUpWords(db: Queryable, query: TextQuery, ask: number[]): Promise<WordFound[]> {
  const prefixAt = ask.findIndex((i) => isPrefix(query, i));
  const last = query.terms[query.terms.length - 1];
  // A prefix reads 'instal':* in a tsquery's text, and holds a–z and 0–9 only (a typed word's
  // spelling or stem), so the words it starts lie in [prefix, prefix with its last letter raised).
  // With each prefix, its words that the statistics list as common (splitPrefix).
  const inRange = (column: SQL) =>
    sql`${column} >= p.prefix COLLATE "C" AND ${column} < (left(p.prefix, -1) || chr(ascii(right(p.prefix, 1)) + 1)) COLLATE "C"`;
  // Only a prefix that starts more than PREFIX_WORDS reads on, and the statistics' common words.
  const startedWords = (limit: number) =>
    sql`ARRAY(SELECT d.word FROM offer_document_words d WHERE ${inRange(sql`d.word`)} ORDER BY d.word COLLATE "C" LIMIT ${limit})`;
  const started =
    prefixAt >= 0
      ? sql`(SELECT json_agg(json_build_object(
          'prefix', p.prefix,
          'words', CASE WHEN cardinality(f.few) <= ${PREFIX_WORDS} THEN f.few ELSE ${startedWords(SPLIT_WORDS + 1)} END,
          'common', CASE WHEN cardinality(f.few) <= ${PREFIX_WORDS} THEN '{}'::text[] ELSE ARRAY(
            SELECT e.word FROM pg_stats s CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[]) AS e(word)
            WHERE s.schemaname = current_schema() AND s.tablename = 'offers' AND s.attname = 'search_document'
              AND ${inRange(sql`e.word`)}) END))
        FROM (SELECT DISTINCT m[1] AS prefix FROM regexp_matches((${last.match})::text, ${PREFIX_IN_TEXT}, 'g') AS m) p
        CROSS JOIN LATERAL (SELECT ${startedWords(PREFIX_WORDS + 1)} AS few) f)`
      : sql`NULL::json`;
  const terms = sql.join(
    ask.map((i) => sql`(${query.terms[i].match})::text`),
    sql`, `,
  );
  // The same text for the same words asked: its plan is kept.
  const [{ words, known }] = await db.query<{ words: Started[] | string | null; known: boolean[] }>(
    keepPlan(sql`
    SELECT ${started} AS words, ARRAY(SELECT EXISTS (
          SELECT 1 FROM regexp_matches(t.spellings, ${LEXEME_IN_TEXT}, 'g') AS m
          WHERE CASE WHEN m[2] IS NULL
            THEN EXISTS (SELECT 1 FROM offer_document_words d WHERE d.word = m[1] COLLATE "C")
            ELSE EXISTS (SELECT 1 FROM offer_document_words d WHERE d.word >= m[1] COLLATE "C"
              AND d.word < (left(m[1], -1) || chr(ascii(right(m[1], 1)) + 1)) COLLATE "C")
          END
        ) OR regexp_replace(t.spellings, ${LEXEME_IN_TEXT}, '', 'g') ~ '''' OR t.spellings !~ ''''
      FROM unnest(ARRAY[${terms}]) WITH ORDINALITY AS t(spellings, n) ORDER BY t.n) AS known`),
  );
  const asked = words ? askedFor(typeof words === "string" ? (JSON.parse(words) as Started[]) : words) : null;
  return ask.map((_, n) => (n === prefixAt ? { known: known[n], asked } : { known: known[n] }));
}

/** What a prefix starts: its words (up to SPLIT_WORDS + 1, in byte order), and those of them that are common. */
type Started = { prefix: string; words: string[]; common: string[] };

/** Most words a prefix is split by; past that it stays a prefix. */
const SPLIT_WORDS = 4_096;
/** Most words and prefixes a split prefix is asked as. */
const SPLIT_ASKED = 64;

/** What the query's prefixes are asked as, or null: as they are. */
function askedFor(started: Started[]): Asked[] | null {
  const words = [...new Set(started.flatMap((s) => s.words))];
  if (started.reduce((n, s) => n + s.words.length, 0) <= PREFIX_WORDS) return words.map((word) => ({ word }));
  const asked = started.flatMap((s) =>
    s.words.length > SPLIT_WORDS
      ? [{ word: s.prefix, prefix: true as const }]
      : splitPrefix(s.prefix, s.words, new Set(s.common)),
  );
  const split = asked.some((a) => !a.prefix);
  return split && asked.length <= SPLIT_ASKED ? asked : null;
}

/**
 * A prefix as its common words and as prefixes of the rest: the same words. The text index takes
 * a prefix's matches into a bitmap before any other condition, every word it starts, while a word
 * is a list it can skip along with a country's or a band's ("pro:*" starts 2,131 words at a million
 * offers; in NL, first 1,001 matches: 36 ms as a prefix, 28 ms split). `words` are those `prefix`
 * starts, in byte order; a prefix goes one letter longer wherever a common word lies under it, and
 * a word that goes on with anything but a–z or 0–9 is asked as itself (no such prefix is written).
 */
function splitPrefix(prefix: string, words: string[], common: Set<string>): Asked[] {
  if (!words.some((w) => common.has(w))) return [{ word: prefix, prefix: true }];
  const asked: Asked[] = [];
  const longer = new Map<string, string[]>();
  for (const word of words) {
    if (word === prefix) asked.push({ word });
    else if (/^[a-z0-9]$/.test(word[prefix.length])) {
      const next = word.slice(0, prefix.length + 1);
      const under = longer.get(next);
      if (under) under.push(word);
      else longer.set(next, [word]);
    } else asked.push({ word });
  }
  for (const [next, started] of longer) asked.push(...splitPrefix(next, started, common));
  return asked;
}

/** The query with its last word asked as the words it starts, when the table named them. */
function asKnown(query: TextQuery, found: WordFound[]): KnownWords {
  const nothing = found.some((f) => !f.known);
  const words = query.prefixed ? found[found.length - 1].asked : null;
  const last = query.terms[query.terms.length - 1];
  if (!words?.length) return { query, nothing };
  const exact = words
    .map((w) => `'${w.word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${w.prefix ? ":*" : ""}`)
    .join(" | ");
  const asWords = [...query.terms.slice(0, -1), { ...last, match: sql`(${exact}::tsquery)` }];
  const tsquery = and(asWords.map((t) => t.match));
  // A walk tests each offer with every word asked, one test each, and with a prefix once.
  const walked = words.length <= WALKED_WORDS && !words.some((w) => w.prefix) ? tsquery : query.walked;
  return { query: { ...query, terms: asWords, tsquery, walked }, nothing };
}

/** A prefix in a tsquery's text: 'instal':* */
const PREFIX_IN_TEXT = String.raw`'([a-z0-9]+)':\*`;
/** A word or a prefix in a tsquery's text: 'install' or 'instal':* */
const LEXEME_IN_TEXT = String.raw`'([a-z0-9]+)'(:\*)?`;

/**
 * A prefix whose stem starts the word ("install:*", stem "instal:*") matches every word the
 * word's own prefix does, and more: the stem alone finds the same offers. The text index
 * builds the bitmap of each prefix of an OR, so the word's own one was built for nothing
 * ("install" at a million offers: 71 ms for both prefixes, 50 for the stem's).
 * In a tsquery's text a prefix reads 'instal':*, so the stem is its text less `':*`.
 */
function matchOnly(simple: SQL, english: SQL, ranked: SQL): SQL {
  return sql`(CASE WHEN numnode(${english}) = 1 AND starts_with(${simple}::text, left(${english}::text, -3))
    THEN ${english} ELSE ${ranked} END)`;
}

/** How long a typed word's close spellings are remembered at most (see createCloseSpellings). */
const CLOSE_TTL_MS = 10 * 60_000;
/** Typed words remembered (a few hundred bytes each). */
const CLOSE_REMEMBERED = 20_000;

/**
 * Looks up close spellings (closestNameWords below), remembering each typed word's: at a million
 * offers a look-up tests 500–1,000 of 195,329 name words for their spelling (2–5 ms, a fifth of
 * the cold searches' time in the database), while the typed words of searches that find (almost)
 * nothing repeat: a word the catalogue lacks, a known one in a narrow filter. An answer is kept
 * under the highest number of the name words (migration 0033), read in the search's transaction,
 * so a new word means a new look-up. Only two imports committing in the other order than they
 * numbered their words could leave a word unseen, until the next word or CLOSE_TTL_MS.
 *
 * The query it returns has each word widened to the closest name words, or it is null when no
 * word has one (the search would find nothing new).
 */
export function createCloseSpellings() {
  /** Per typed word, under the name words' highest number: its closest name words (none: []). */
  const remembered = createCache<string[]>({ ttlMs: CLOSE_TTL_MS, max: CLOSE_REMEMBERED });
  /** `names`: the name words' highest number, as the transaction's opening statement read it (closeSpellingSettings). */
  return async (db: Queryable, query: TextQuery, names: string | null): Promise<CloseQuery | null> => {
    const key = (typed: string) => `${names}:${typed}`;
    const typed = [...new Set(query.words.filter((w) => w.length >= MIN_CLOSE_LENGTH))];
    // The words not remembered are looked up in one statement, made by the first of them to load.
    const missing = typed.filter((w) => remembered.peek(key(w)) === undefined);
    let looked: Promise<Map<string, string[]>> | undefined;
    const lookUp = async (w: string) =>
      (missing.includes(w) ? await (looked ??= closestNameWords(db, missing)) : await closestNameWords(db, [w])).get(
        w,
      ) ?? [];
    const closest = new Map(
      await Promise.all(typed.map(async (w) => [w, await remembered.get(key(w), () => lookUp(w))] as const)),
    );
    if (![...closest.values()].some((words) => words.length)) return null;
    const widened = (spelling: "match" | "ranked") =>
      query.terms.map((term, i) => {
        // Close words are name words: they count in the name (weight A) only.
        const close = (closest.get(query.words[i]) ?? []).map((w) => sql`to_tsquery('simple', ${`${w}:A`})`);
        return sql`(${sql.join([term[spelling], ...close], sql` || `)})`;
      });
    return {
      tsquery: sql`(${sql.join(widened("match"), sql` && `)})`,
      ranked: sql`(${sql.join(widened("ranked"), sql` && `)})`,
      words: query.words.flatMap((w, i) => (closest.get(w) ?? []).map((c) => `${i + 1}:${c}`)).join(" "),
    };
  };
}

export type CloseSpellings = ReturnType<typeof createCloseSpellings>;

/**
 * What close spellings need of a search's transaction, as items of its opening statement's select
 * list (a constant: it goes with BEGIN), so a search that finds few matches makes no statement of its
 * own for them (764 of 1,100 cold searches on one connection did, 0.27 ms each): `%` compares with the
 * threshold set here, local to the transaction, and `names` is the name words' highest number.
 */
export const closeSpellingSettings = sql.raw(
  `set_config('pg_trgm.similarity_threshold', '${CLOSE_THRESHOLD}', true), oa_name_words_added()::text AS names`,
);

/**
 * Each typed word's closest name words, all of them on a tie, none less alike than
 * CLOSE_THRESHOLD. Only the closest count: "casno" looks for casino, not also for the cash offers
 * that would crowd it out by popularity (issue #15). The words are looked up in the small table of
 * name words, so the cost grows with the catalogue's vocabulary, not with its offers.
 */
async function closestNameWords(db: Queryable, words: string[]): Promise<Map<string, string[]>> {
  const rows = await db.query<{ typed: string; word: string }>(
    keepPlan(sql`
    SELECT c.typed, c.word FROM (
      SELECT t.typed, w.word, rank() OVER (PARTITION BY t.typed ORDER BY w.similarity DESC) AS place
      FROM unnest(${array(words)}::text[]) AS t(typed)
      CROSS JOIN LATERAL (
        SELECT w.word, similarity(w.word, t.typed) AS similarity FROM offer_name_words w
        WHERE w.word % t.typed AND w.word <> t.typed
        ORDER BY similarity DESC, w.word LIMIT ${CLOSE_WORDS}
      ) w
    ) c WHERE c.place = 1 ORDER BY c.typed, c.word`),
  );
  const closest = new Map<string, string[]>();
  for (const r of rows) closest.set(r.typed, [...(closest.get(r.typed) ?? []), r.word]);
  return closest;
}
