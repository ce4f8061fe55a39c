// What an offer must match is written with fewer spellings than what ranks it; both must find
// exactly the same offers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { sql, type Queryable } from "#db/client.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { openTestDatabase } from "../../tests/helpers/database.ts";
import {
  buildTextQuery,
  closeSpellingSettings,
  createCloseSpellings,
  createKnownWords,
  knownWords,
} from "./text-query.ts";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
/** Words of the offers' documents, as written in their names and descriptions. */
let words: string[];
beforeAll(async () => {
  db = await openTestDatabase();
  await seedDemoData(db, { siteId: "offervault", networks: 20, offers: 800, trafficSources: 2, reviews: 0 });
  const rows = await db.query<{ word: string }>(sql`
    SELECT DISTINCT w.word FROM offers o,
      regexp_split_to_table(lower(o.name || ' ' || coalesce(o.description, '')), '[^a-z0-9]+') AS w(word)
    WHERE length(w.word) >= 2 ORDER BY w.word`);
  words = rows.map((r) => r.word);
});
afterAll(() => db?.dispose());

const asText = async (query: ReturnType<typeof buildTextQuery> & object) => {
  const [row] = await db.query<{ match: string; ranked: string }>(
    sql`SELECT (${query.tsquery})::text AS match, (${query.ranked})::text AS ranked`,
  );
  return row;
};
const matched = async (tsquery: ReturnType<typeof sql>) =>
  (await db.query<{ id: number }>(sql`SELECT id FROM offers WHERE search_document @@ ${tsquery} ORDER BY id`)).map(
    (r) => Number(r.id),
  );

describe("a search's text", () => {
  it("leaves out a word's own prefix where its stem's prefix covers it, and keeps both for ranking", async () => {
    expect(await asText(buildTextQuery("install")!)).toEqual({
      match: "'instal':*",
      ranked: "'install':* | 'instal':*",
    });
    // "dating" stems to "date": neither starts the other, so both are asked for.
    expect(await asText(buildTextQuery("dating")!)).toEqual({
      match: "'dating':* | 'date':*",
      ranked: "'dating':* | 'date':*",
    });
    // Only the last word is a prefix; whole words keep every spelling.
    expect((await asText(buildTextQuery("surveys installs")!)).match).toBe("( 'surveys' | 'survey' ) & 'instal':*");
  });

  it("matches the same offers as the query it ranks with (property)", async () => {
    const typed = fc.tuple(
      fc.constantFrom(...words),
      fc.nat({ max: 4 }).map((cut) => cut), // letters cut off the end: a half-typed word
      fc.option(fc.constantFrom(...words), { nil: undefined }),
    );
    await fc.assert(
      fc.asyncProperty(typed, async ([word, cut, before]) => {
        const last = word.length - cut >= 2 ? word.slice(0, word.length - cut) : word;
        const query = buildTextQuery(before ? `${before} ${last}` : last);
        if (!query) return;
        expect(await matched(query.tsquery)).toEqual(await matched(query.ranked));
      }),
      { numRuns: 150, seed: 29 },
    );
  });

  it("keeps a close-spelling query's matches the same as its ranked form's", async () => {
    const query = buildTextQuery("casno installs")!;
    const close = await db.transaction(async (tx) => createCloseSpellings()(tx, query, await openedNames(tx)));
    expect(close).not.toBeNull();
    expect(await matched(close!.tsquery)).toEqual(await matched(close!.ranked));
  });
});

describe("a prefix asked as the words it starts", () => {
  const expanded = async (query: string) => {
    const typed = buildTextQuery(query)!;
    const { query: asked } = await db.transaction((tx) => knownWords(tx, typed));
    return { typed, asked };
  };

  it("asks for the catalogue's words instead of the prefix, and finds the same offers (property)", async () => {
    const { asked } = await expanded("insuran");
    expect((await asText(asked)).match).not.toContain(":*");
    const typed = fc.tuple(
      fc.constantFrom(...words),
      fc.nat({ max: 4 }),
      fc.option(fc.constantFrom(...words), { nil: undefined }),
    );
    let asWords = 0;
    await fc.assert(
      fc.asyncProperty(typed, async ([word, cut, before]) => {
        const last = word.length - cut >= 2 ? word.slice(0, word.length - cut) : word;
        const query = `${before ?? ""} ${last}`.trim();
        const { typed: plain, asked: exact } = await expanded(query);
        if (!(await asText(exact)).match.includes(":*")) asWords++;
        expect(await matched(exact.tsquery)).toEqual(await matched(plain.tsquery));
      }),
      { numRuns: 150, seed: 29 },
    );
    expect(asWords).toBeGreaterThan(100);
  });

  it("learns the words of new offers and of changed descriptions in the same statement", async () => {
    const [{ id }] = await db.query<{ id: number }>(sql`SELECT id FROM offers ORDER BY id LIMIT 1`);
    await db.query(sql`UPDATE offers SET description = description || ' quuxfrobnicator' WHERE id = ${id}`);
    expect(await matched((await expanded("quuxfrob")).asked.tsquery)).toEqual([Number(id)]);
    expect((await asText((await expanded("quuxfrob")).asked)).match).toBe("'quuxfrobn'");
    // A new offer, copied from that one under a new name.
    const [copy] = await db.query<{ id: number }>(sql`
      INSERT INTO offers (slug, name, network_id, payout_type, description, status, countries, category_ids)
      SELECT slug || '-zyglorp', 'Zyglorpia ' || name, network_id, payout_type, description, status, countries, category_ids
      FROM offers WHERE id = ${id} RETURNING id`);
    expect(await matched((await expanded("zyglorp")).asked.tsquery)).toEqual([Number(copy.id)]);
  });
});

describe("a prefix starting more words than are asked one by one", () => {
  // "vx" starts a common word (a quarter of the offers), a word under it, 40 rare ones, and one that
  // goes on with a hyphen; the statistics must know the common one (ANALYZE).
  beforeAll(async () => {
    await db.query(sql`UPDATE offers SET description = description || ' vxcommon' WHERE id % 4 = 0`);
    await db.query(sql`UPDATE offers SET description = description || ' vxcommonly' WHERE id % 40 = 1`);
    await db.query(sql`UPDATE offers SET description = description || ' vx-tra'  WHERE id % 50 = 2`);
    await db.query(sql`UPDATE offers SET description = description || ' vx' || (id % 40) || 'q' WHERE id % 7 = 3`);
    // Few common words, as at a million offers (a few hundred of 205,000): the rare ones stay out of the list.
    await db.execScript("ALTER TABLE offers ALTER COLUMN search_document SET STATISTICS 10; ANALYZE offers");
  });
  afterAll(() => db.execScript("ALTER TABLE offers ALTER COLUMN search_document SET STATISTICS -1; ANALYZE offers"));
  const asked = async (query: string) => {
    const typed = buildTextQuery(query)!;
    const { query: known } = await db.transaction((tx) => knownWords(tx, typed));
    return { typed, known, match: (await asText(known)).match };
  };

  it("is asked as its common words and prefixes of the rest, and finds the same offers (property)", async () => {
    const { match, typed, known } = await asked("vx");
    // The common word and the one under it as words; the rare ones as prefixes, none of them the common word's.
    expect(match).toContain("'vxcommon'");
    expect(match).toContain("'vx1':*");
    expect(match).not.toContain("'vx':*");
    expect(match).not.toMatch(/'vxc(o(m(m(on?)?)?)?)?':\*/);
    expect((await matched(known.tsquery)).length).toBeGreaterThan(200);
    expect(await matched(known.tsquery)).toEqual(await matched(typed.tsquery));
    // A walk tests each offer with the prefix as typed, one test, unless it starts no more than two words.
    const walked = async (query: string) =>
      (await db.query<{ walked: string }>(sql`SELECT (${(await asked(query)).known.walked})::text AS walked`))[0]
        .walked;
    expect(await walked("vx")).toBe("'vx':*");
    expect(await walked("vxcommon")).toBe("'vxcommon'");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("vx", "vxc", "vxcommo", "vx1", "vx-", "vxcommon"),
        fc.option(fc.constantFrom(...words), { nil: undefined }),
        async (prefix, before) => {
          const { typed: plain, known: split } = await asked(`${before ?? ""} ${prefix}`.trim());
          expect(await matched(split.tsquery)).toEqual(await matched(plain.tsquery));
        },
      ),
      { numRuns: 40, seed: 47 },
    );
  });
});

describe("a query known to find nothing", () => {
  /** A catalogue word as typed: cut short, or misspelt (a letter replaced), or as it is. */
  const typedWord = () =>
    fc
      .tuple(fc.constantFrom(...words), fc.nat({ max: 3 }), fc.nat(), fc.constantFrom("q", "z", "x", "e", ""))
      .map(([word, cut, at, letter]) => {
        const kept = word.length - cut >= 2 ? word.slice(0, word.length - cut) : word;
        const i = at % kept.length;
        return kept.slice(0, i) + letter + kept.slice(i + 1);
      })
      .filter((word) => word.length >= 1);
  const nothingIn = async (query: string) => {
    const { query: asked, nothing } = await db.transaction((tx) => knownWords(tx, buildTextQuery(query)!));
    return { nothing, found: await matched(asked.tsquery) };
  };

  it("is one word no document holds, whole or as a prefix, and every other word finds offers (property)", async () => {
    let nothing = 0;
    await fc.assert(
      fc.asyncProperty(typedWord(), async (word) => {
        const result = await nothingIn(word);
        if (result.nothing) nothing++;
        // One word: nothing is known exactly when no offer matches.
        expect(result.nothing).toBe(result.found.length === 0);
      }),
      { numRuns: 150, seed: 31 },
    );
    expect(nothing).toBeGreaterThan(20);
    // A short prefix starting more words than are asked for one by one stays a prefix.
    const [{ id }] = await db.query<{ id: number }>(sql`
      INSERT INTO offers (slug, name, network_id, payout_type, description, status, countries, category_ids)
      SELECT slug || '-zq', name, network_id, payout_type,
        (SELECT string_agg('zq' || n, ' ') FROM generate_series(1, 40) AS n), status, countries, category_ids
      FROM offers ORDER BY id LIMIT 1 RETURNING id`);
    const [{ starting }] = await db.query<{ starting: number }>(
      sql`SELECT count(*)::int AS starting FROM offer_document_words WHERE word LIKE 'zq%'`,
    );
    expect(starting).toBeGreaterThan(32);
    expect(await nothingIn("zq")).toEqual({ nothing: false, found: [Number(id)] });
  });

  it("never holds back a match among several words (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(typedWord(), { minLength: 2, maxLength: 3 }), async (typed) => {
        const result = await nothingIn(typed.join(" "));
        if (result.nothing) expect(result.found).toEqual([]);
      }),
      { numRuns: 100, seed: 37 },
    );
    // A word of the catalogue with one it lacks: nothing, whatever the first finds.
    expect((await nothingIn(`${words[0]} qqzzxq`)).nothing).toBe(true);
  });
});

/** What a search's transaction opens with for close spellings (search.ts): the threshold set, and the name words' number. */
async function openedNames(tx: Queryable): Promise<string | null> {
  const [{ names }] = await tx.query<{ names: string | null }>(sql`SELECT ${closeSpellingSettings}`);
  return names;
}

describe("close spellings, remembered per typed word", () => {
  /** The close spellings of `query` through `spellings`, and how many statements that took (the opening one aside). */
  const lookUp = (spellings: ReturnType<typeof createCloseSpellings>, query: string) =>
    db.transaction(async (tx) => {
      const names = await openedNames(tx);
      let statements = 0;
      const counted = { ...tx, query: <T>(s: ReturnType<typeof sql>) => (statements++, tx.query<T>(s)) };
      const close = await spellings(counted, buildTextQuery(query)!, names);
      return { words: close?.words ?? null, statements };
    });

  it("answers again as a fresh look-up does, without looking up again (property)", async () => {
    const spellings = createCloseSpellings();
    const typo = fc
      .tuple(fc.constantFrom(...words.filter((w) => w.length >= 5)), fc.nat())
      .map(([word, at]) => word.slice(0, 1 + (at % (word.length - 2))) + word.slice(2 + (at % (word.length - 2))));
    let widened = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(typo, { minLength: 1, maxLength: 2 }), async (typed) => {
        const query = typed.join(" ");
        const fresh = await lookUp(createCloseSpellings(), query);
        await lookUp(spellings, query);
        const again = await lookUp(spellings, query);
        expect(again.words).toBe(fresh.words);
        // The name words' number and the threshold came with the transaction's opening: nothing looked up.
        expect(again.statements).toBe(0);
        if (fresh.words) widened++;
      }),
      { numRuns: 60, seed: 41 },
    );
    expect(widened).toBeGreaterThan(30);
  });

  it("looks up again once a new name word arrives", async () => {
    const spellings = createCloseSpellings();
    expect((await lookUp(spellings, "vorquexx")).words).toBeNull();
    await db.query(sql`
      INSERT INTO offers (slug, name, network_id, payout_type, description, status, countries, category_ids)
      SELECT slug || '-vorquexa', 'Vorquexa ' || name, network_id, payout_type, description, status, countries, category_ids
      FROM offers ORDER BY id LIMIT 1`);
    expect(await lookUp(spellings, "vorquexx")).toEqual({ words: "1:vorquexa", statements: 1 });
  });
});

describe("known words, remembered per word", () => {
  /** What `known` says of `query` under the documents' words' number now, and how many statements that took. */
  const ask = (known: ReturnType<typeof createKnownWords>, query: string) =>
    db.transaction(async (tx) => {
      const [{ added }] = await tx.query<{ added: string | null }>(
        sql`SELECT oa_document_words_added()::text AS added`,
      );
      let statements = 0;
      const counted = { ...tx, query: <T>(s: ReturnType<typeof sql>) => (statements++, tx.query<T>(s)) };
      const answer = await known(counted, buildTextQuery(query)!, added);
      const [{ asked }] = await tx.query<{ asked: string }>(sql`SELECT (${answer.query.tsquery})::text AS asked`);
      return { asked, nothing: answer.nothing, statements };
    });
  const fresh = (query: string) =>
    db.transaction(async (tx) => {
      const answer = await knownWords(tx, buildTextQuery(query)!);
      const [{ asked }] = await tx.query<{ asked: string }>(sql`SELECT (${answer.query.tsquery})::text AS asked`);
      return { asked, nothing: answer.nothing };
    });

  it("answers again as a fresh look-up does, without looking up again (property)", async () => {
    const known = createKnownWords();
    const text = fc
      .array(
        fc.oneof(
          fc.constantFrom(...words),
          fc.constantFrom(...words).map((w) => w.slice(0, Math.max(2, w.length - 2))),
          fc.constantFrom("hovercraft", "zzqx", "casno"),
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((w) => w.join(" "));
    await fc.assert(
      fc.asyncProperty(text, async (query) => {
        const first = await ask(known, query);
        const again = await ask(known, query);
        const { asked, nothing } = await fresh(query);
        expect({ asked: again.asked, nothing: again.nothing }).toEqual({ asked, nothing });
        expect({ asked: first.asked, nothing: first.nothing }).toEqual({ asked, nothing });
        expect(again.statements).toBe(0);
      }),
      { numRuns: 60, seed: 43 },
    );
  });

  it("asks only for the words of a text not asked before, as a whole word or as a prefix", async () => {
    const known = createKnownWords();
    expect(await ask(known, "casino bonus")).toMatchObject({ statements: 1 });
    // "bonus", last, is a prefix in both texts.
    expect(await ask(known, "bonus")).toMatchObject({ statements: 0 });
    expect(await ask(known, "bonus casino")).toMatchObject({ statements: 1 });
    expect(await ask(known, "casino bonus hovercraft")).toMatchObject({ statements: 1, nothing: true });
    expect(await ask(known, "bonus hovercraft")).toMatchObject({ statements: 0, nothing: true });
    expect(await ask(known, "bonus casino")).toEqual({ ...(await fresh("bonus casino")), statements: 0 });
  });

  it("looks up again once a document brings a new word", async () => {
    const known = createKnownWords();
    expect(await ask(known, "quorvexine")).toMatchObject({ nothing: true, statements: 1 });
    expect(await ask(known, "quorvexine")).toMatchObject({ nothing: true, statements: 0 });
    await db.query(sql`
      INSERT INTO offers (slug, name, network_id, payout_type, description, status, countries, category_ids)
      SELECT slug || '-quorvexine', 'Quorvexine ' || name, network_id, payout_type, description, status, countries, category_ids
      FROM offers ORDER BY id LIMIT 1`);
    expect(await ask(known, "quorvexine")).toMatchObject({ nothing: false, statements: 1 });
  });
});
