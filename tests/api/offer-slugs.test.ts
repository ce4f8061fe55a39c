// Offer slugs are unique (migration 0024, core/offers/slugs.ts): for every slug, GET
// /api/offers/{slug} answers the offer whose page carries that slug. The same product at
// several networks and two console offers of one name each get their own slug; the
// duplicates a database held before are renamed deterministically, and their old
// addresses still lead to them. On PGlite, or PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { array, sql } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import type { AdminOffer } from "#contracts/offers.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 8, offers: 400, trafficSources: 1 } });
});
afterAll(() => t?.close());

type Row = { id: number; slug: string };
const apiOffer = async (slug: string) => {
  const res = await t.app.inject(`/api/offers/${slug}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ offer: Row }>().offer;
};
/** Where the page at a bare slug sends the visitor: the canonical /offer/{id}/{slug}. */
const pageAt = async (path: string) => {
  const res = await t.app.inject(path);
  expect(res.statusCode, path).toBe(301);
  return res.headers.location;
};

describe("offer slugs", () => {
  it("gives each listing of a product at several networks its own slug; the API and the page answer the same offer", async () => {
    expect(await t.db.query(sql`SELECT slug FROM offers GROUP BY slug HAVING count(*) > 1`)).toEqual([]);
    const shared = await t.db.query<Row>(sql`
      SELECT id, slug FROM offers
      WHERE product_key IN (SELECT product_key FROM offers GROUP BY product_key HAVING count(DISTINCT network_id) > 1)
      ORDER BY product_key, id LIMIT 40`);
    expect(shared.length).toBeGreaterThan(10);
    for (const offer of shared) {
      expect((await apiOffer(offer.slug)).id, offer.slug).toBe(offer.id);
      expect(await pageAt(`/offer/${offer.slug}`)).toBe(`/offer/${offer.id}/${offer.slug}`);
    }
  });

  it("gives two console offers of the same name different slugs, at one network or two", async () => {
    const admin = await signInWithRoles(t, ["admin"]);
    const networks = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 2`);
    const create = async (networkId: number) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/offers",
        headers: admin.headers,
        payload: {
          name: "Wombatly Pet Insurance",
          networkId,
          description: "Pet owners asking for a quote.",
          payoutType: "CPL",
          payoutAmount: 12,
          currency: "USD",
          countries: ["US"],
          status: "active",
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<AdminOffer>();
    };
    const slugs = [
      (await create(networks[0].id)).slug,
      (await create(networks[1].id)).slug,
      (await create(networks[0].id)).slug,
    ];
    expect(slugs).toEqual(["wombatly-pet-insurance", "wombatly-pet-insurance-2", "wombatly-pet-insurance-3"]);
    for (const slug of slugs) expect((await apiOffer(slug)).slug).toBe(slug);
  });

  it("renames a database's old duplicates: the listing a bare slug named keeps it, the others take -2, -3, … (free ones)", async () => {
    const picked = await t.db.query<Row & { network_id: number }>(sql`
      SELECT DISTINCT ON (network_id) id, slug, network_id FROM offers ORDER BY network_id, id LIMIT 4`);
    const [a, b, c, d] = picked;
    // The database as it was before 0024: slugs unique per network only, three listings sharing one.
    await t.db.execScript(`
      DROP INDEX offers_slug_key;
      CREATE INDEX offers_slug_idx ON offers (slug);
      ALTER TABLE offers ADD CONSTRAINT offers_network_id_slug_key UNIQUE (network_id, slug);
      DELETE FROM schema_migrations WHERE name = '0024_unique_offer_slugs.sql';`);
    const set = (o: Row, slug: string, popularity: number) =>
      t.db.query(
        sql`UPDATE offers SET slug = ${slug}, popularity = ${popularity}, status = 'active' WHERE id = ${o.id}`,
      );
    await set(a, "twin-offer", 50);
    await set(b, "twin-offer", 900); // the most popular: what /api/offers/twin-offer answered
    await set(c, "twin-offer", 50);
    await set(d, "twin-offer-2", 1); // a free-standing slug the renaming must not take

    expect(await migrate(t.db)).toEqual(["0024_unique_offer_slugs.sql"]);
    const after = await t.db.query<Row>(
      sql`SELECT id, slug FROM offers WHERE id = ANY (${array([a.id, b.id, c.id, d.id])}::bigint[]) ORDER BY id`,
    );
    expect(new Map(after.map((o) => [o.id, o.slug]))).toEqual(
      new Map([
        [a.id, "twin-offer-3"],
        [b.id, "twin-offer"],
        [c.id, "twin-offer-4"],
        [d.id, "twin-offer-2"],
      ]),
    );
    expect((await apiOffer("twin-offer")).id).toBe(b.id);
    // An old address of a renamed offer carries its id: it leads to the offer's new address.
    expect(await pageAt(`/offer/${a.id}/twin-offer`)).toBe(`/offer/${a.id}/twin-offer-3`);
    await expect(t.db.query(sql`UPDATE offers SET slug = 'twin-offer' WHERE id = ${c.id}`)).rejects.toThrow();
  });
});
