// The counts kept where offers change (db/migrations/0027): a vertical's active offers and a
// network's active pay-per-call offers stay equal to a fresh count over the catalogue, whatever
// statements change the offers, and the lists built on them answer what counting answered.
// On PGlite, or PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { array, sql, type SQL } from "#db/client.ts";
import { syncReferenceData } from "#core/reference/sync.ts";
import { openTestDatabase, TEST_DATABASE_URL } from "../../tests/helpers/database.ts";
import { payPerCallNetworks, topCategories } from "./catalog.ts";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let networkIds: number[];
let categoryIds: number[];
let slugs = 0;

beforeAll(async () => {
  db = await openTestDatabase();
  await syncReferenceData(db); // the currencies offers point at
});
afterAll(() => db?.dispose());

beforeEach(async () => {
  await db.query(sql`DELETE FROM offers`);
  await db.query(sql`DELETE FROM networks`);
  await db.query(sql`DELETE FROM categories`);
  networkIds = (
    await db.query<{ id: number }>(sql`
      INSERT INTO networks (slug, name, avg_rating) VALUES ('north', 'North', 4), ('south', 'South', 4), ('east', 'East', 3)
      RETURNING id`)
  ).map((r) => r.id);
  categoryIds = (
    await db.query<{ id: number }>(sql`
      INSERT INTO categories (slug, name, top, sort_order)
      VALUES ('solar', 'Solar', true, 1), ('dating', 'Dating', true, 2), ('loans', 'Loans', false, 3), ('vpn', 'VPN', true, 4)
      RETURNING id`)
  ).map((r) => r.id);
});

/** Every count that differs from counting the offers now, as [what, kept, counted]. */
async function wrongCounts() {
  return db.query<{ what: string; kept: number; counted: number }>(sql`
    SELECT 'vertical ' || c.id AS what, c.offer_count AS kept, x.n AS counted
    FROM categories c, LATERAL (SELECT count(*)::int AS n FROM offers o
                                WHERE o.category_ids && ARRAY[c.id] AND o.status = 'active') x
    WHERE c.offer_count <> x.n
    UNION ALL
    SELECT 'network ' || n.id, n.ppc_offer_count, x.n
    FROM networks n, LATERAL (SELECT count(*)::int AS n FROM offers o
                              WHERE o.network_id = n.id AND o.status = 'active' AND o.ppc) x
    WHERE n.ppc_offer_count <> x.n`);
}

/** The lists as they were computed before the counts were kept: over the whole catalogue. */
const countedTopCategories = () =>
  db.query(sql`
    SELECT c.id, c.slug, c.name, c.top,
      (SELECT count(*)::int FROM offers o WHERE o.category_ids && ARRAY[c.id] AND o.status = 'active') AS "offerCount"
    FROM categories c WHERE c.top ORDER BY c.sort_order, c.name`);
const countedPayPerCallNetworks = () =>
  db.query(sql`
    SELECT n.id, n.slug, n.name, n.avg_rating::float8 AS "avgRating", t.ppc_offers AS "ppcOffers", t.best AS "bestPayoutUsd"
    FROM (SELECT o.network_id, count(*)::int AS ppc_offers, max(o.payout_usd) AS best
          FROM offers o WHERE o.status = 'active' AND o.ppc GROUP BY o.network_id) t
    JOIN networks n ON n.id = t.network_id
    WHERE n.status = 'active'
    ORDER BY t.ppc_offers DESC, n.avg_rating DESC, n.id LIMIT 8`);

const STATUSES = ["active", "paused", "expired", "retired"] as const;
type Offer = { network: number; categories: number[]; status: (typeof STATUSES)[number]; ppc: boolean; payout: number };

// Indexes into the networks and verticals made for each test; 9 names a vertical that does not exist.
const offerArb = fc.record({
  network: fc.nat(2),
  categories: fc.array(fc.constantFrom(0, 1, 2, 3, 9), { maxLength: 4 }), // repeats included
  status: fc.constantFrom(...STATUSES),
  ppc: fc.boolean(),
  payout: fc.integer({ min: 1, max: 500 }),
});
/** Some of the offers: those whose id leaves `rest` divided by `every`. */
const someArb = fc.record({ every: fc.integer({ min: 1, max: 4 }), rest: fc.nat(3) });
const some = ({ every, rest }: { every: number; rest: number }) => sql`id % ${every} = ${rest % every}`;

const categoryList = (o: Offer) => array(o.categories.map((i) => categoryIds[i] ?? 1_000_000));

function insertOffers(offers: Offer[], upsert: SQL = sql``) {
  const rows = offers.map((o) => ({
    slug: `offer-${++slugs}`,
    network_id: networkIds[o.network],
    category_ids: o.categories.map((i) => categoryIds[i] ?? 1_000_000),
    status: o.status,
    ppc: o.ppc,
    payout_usd: o.payout,
  }));
  return db.query(sql`
    INSERT INTO offers (slug, network_id, name, payout_type, category_ids, status, ppc, payout_usd)
    SELECT r.slug, r.network_id, 'Offer', 'CPA', r.category_ids, r.status, r.ppc, r.payout_usd
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS r(slug text, network_id bigint, category_ids int[], status text, ppc boolean, payout_usd numeric)
    ${upsert}`);
}

/** Every way the product's writers change offers, as statements over one or many rows. */
const changeArb = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), offers: fc.array(offerArb, { minLength: 1, maxLength: 5 }) }),
  fc.record({ kind: fc.constant("categories" as const), of: someArb, offer: offerArb }),
  fc.record({ kind: fc.constant("status" as const), of: someArb, offer: offerArb }),
  fc.record({ kind: fc.constant("ppc" as const), of: someArb, offer: offerArb }),
  fc.record({ kind: fc.constant("network" as const), of: someArb, offer: offerArb }),
  fc.record({ kind: fc.constant("merge" as const), from: fc.nat(3), into: fc.nat(3) }),
  fc.record({ kind: fc.constant("untouched" as const), of: someArb }),
  fc.record({ kind: fc.constant("upsert" as const), of: someArb, offer: offerArb }),
  fc.record({ kind: fc.constant("delete" as const), of: someArb }),
);
type Change = typeof changeArb extends fc.Arbitrary<infer T> ? T : never;

async function apply(change: Change) {
  switch (change.kind) {
    case "insert":
      return insertOffers(change.offers);
    case "categories":
      return db.query(
        sql`UPDATE offers SET category_ids = ${categoryList(change.offer)}::int[] WHERE ${some(change.of)}`,
      );
    case "status":
      return db.query(sql`UPDATE offers SET status = ${change.offer.status} WHERE ${some(change.of)}`);
    case "ppc":
      return db.query(sql`UPDATE offers SET ppc = NOT ppc WHERE ${some(change.of)}`);
    case "network":
      return db.query(sql`UPDATE offers SET network_id = ${networkIds[change.offer.network]} WHERE ${some(change.of)}`);
    case "merge": // as the console's vertical merge rewrites its offers (core/reference/verticals.ts)
      return db.query(sql`
        UPDATE offers o SET category_ids = ARRAY(
          SELECT x FROM unnest(array_replace(o.category_ids, ${categoryIds[change.from]}::int, ${categoryIds[change.into]}::int))
            WITH ORDINALITY u(x, i) GROUP BY x ORDER BY min(i))
        WHERE o.category_ids && ARRAY[${categoryIds[change.from]}::int]`);
    case "untouched": // a sync's verified_at, a click's popularity: nothing counted moves
      return db.query(sql`UPDATE offers SET popularity = popularity + 1 WHERE ${some(change.of)}`);
    case "upsert": {
      // A sync's batch: new offers and changed ones in one statement (INSERT … ON CONFLICT DO UPDATE).
      const existing = await db.query<{ slug: string }>(sql`SELECT slug FROM offers WHERE ${some(change.of)}`);
      const slug = existing[0]?.slug ?? `offer-${++slugs}`;
      return db.query(sql`
        INSERT INTO offers (slug, network_id, name, payout_type, category_ids, status, ppc, payout_usd)
        VALUES (${slug}, ${networkIds[change.offer.network]}, 'Offer', 'CPA', ${categoryList(change.offer)}::int[],
                ${change.offer.status}, ${change.offer.ppc}, ${change.offer.payout}),
               (${`offer-${++slugs}`}, ${networkIds[0]}, 'Offer', 'CPA', ${categoryList(change.offer)}::int[], 'active', true, 1)
        ON CONFLICT (slug) DO UPDATE SET category_ids = EXCLUDED.category_ids, status = EXCLUDED.status,
          ppc = EXCLUDED.ppc, network_id = EXCLUDED.network_id`);
    }
    case "delete":
      return db.query(sql`DELETE FROM offers WHERE ${some(change.of)}`);
  }
}

describe("counts kept where offers change", () => {
  it("equal a fresh count after any sequence of inserts, edits, status changes, merges and deletes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(offerArb, { maxLength: 8 }),
        fc.array(changeArb, { maxLength: 12 }),
        async (start, changes) => {
          await db.query(sql`DELETE FROM offers`);
          if (start.length) await insertOffers(start);
          for (const change of changes) {
            await apply(change);
            expect(await wrongCounts(), JSON.stringify(change)).toEqual([]);
          }
          expect(await topCategories(db)).toEqual(await countedTopCategories());
          expect(await payPerCallNetworks(db)).toEqual(await countedPayPerCallNetworks());
        },
      ),
      { numRuns: 40 },
    );
  });

  it("follow a rolled-back change back, a network deleted with its offers, and an emptied offers table", async () => {
    const offer = { categories: [0, 1], status: "active", ppc: true, payout: 10 } as const;
    await insertOffers([0, 0, 1, 2].map((network) => ({ ...offer, network, categories: [...offer.categories] })));
    await db
      .transaction(async (tx) => {
        await tx.query(sql`UPDATE offers SET status = 'paused'`);
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await wrongCounts()).toEqual([]);
    expect(await topCategories(db)).toMatchObject([
      { slug: "solar", offerCount: 4 },
      { slug: "dating", offerCount: 4 },
      { slug: "vpn", offerCount: 0 },
    ]);

    await db.query(sql`DELETE FROM networks WHERE id = ${networkIds[0]}`); // its offers go with it (ON DELETE CASCADE)
    expect(await wrongCounts()).toEqual([]);
    expect((await payPerCallNetworks(db)).map((n) => n.ppcOffers)).toEqual([1, 1]);

    await db.query(sql`TRUNCATE offers CASCADE`);
    expect(await wrongCounts()).toEqual([]);
    expect(await payPerCallNetworks(db)).toEqual([]);
  });

  // PGlite has one connection: writers cannot overlap there.
  it.skipIf(!TEST_DATABASE_URL)(
    "let two writers that move counts in crossing order both commit, with the counts exact",
    async () => {
      const offer = { status: "active", ppc: false, payout: 10 } as const;
      await insertOffers([
        { ...offer, network: 0, categories: [0] },
        { ...offer, network: 1, categories: [1] },
      ]);
      const inVertical = (i: number) =>
        sql`category_ids = ARRAY[${categoryIds[i]}::int] AND network_id <> ${networkIds[2]}`;
      const newOffer = (i: number) => sql`
        INSERT INTO offers (slug, network_id, name, payout_type, category_ids)
        VALUES (${`offer-${++slugs}`}, ${networkIds[2]}, 'Offer', 'CPA', ARRAY[${categoryIds[i]}::int])`;
      let secondStarts!: () => void;
      const started = new Promise<void>((resolve) => (secondStarts = resolve));
      // The first moves vertical 0 then 1, the second 1 then 0, each in two statements.
      const first = db.transaction(async (tx) => {
        await tx.query(newOffer(0));
        secondStarts();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.query(sql`UPDATE offers SET status = 'paused' WHERE ${inVertical(1)}`);
      });
      const second = started.then(() =>
        db.transaction(async (tx) => {
          await tx.query(newOffer(1));
          await tx.query(sql`UPDATE offers SET status = 'paused' WHERE ${inVertical(0)}`);
        }),
      );
      await Promise.all([first, second]);
      expect(await wrongCounts()).toEqual([]);
      expect((await topCategories(db)).slice(0, 2).map((c) => c.offerCount)).toEqual([1, 1]);
    },
  );
});
