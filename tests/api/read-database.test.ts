// DATABASE_READ_URL: offer searches (the API's and the search pages') read from the
// read pool, a replica; everything else, writes included, uses the primary. Here
// the "replica" is a second database whose copy of one offer differs, so each
// answer shows which database it came from. Right after a catalogue edit searches
// read the primary (a replica may lag behind it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { offerUrl } from "#contracts/offers.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { openTestDatabase } from "../helpers/database.ts";

const seed = { networks: 3, offers: 40, trafficSources: 1 };
let t: TestApp;
let replica: Awaited<ReturnType<typeof openTestDatabase>>;
let offer: { id: number; slug: string };

beforeAll(async () => {
  replica = await openTestDatabase();
  await seedDemoData(replica, { siteId: "offeratlas", reviews: 0, ...seed });
  t = await createTestApp({ seed, readDb: replica });
  [offer] = await t.db.query<{ id: number; slug: string }>(sql`SELECT id, slug FROM offers ORDER BY id LIMIT 1`);
  await replica.query(sql`UPDATE offers SET name = 'Replica Copy Of The Offer' WHERE id = ${offer.id}`);
});
afterAll(async () => {
  await t?.close();
  await replica?.dispose();
});

describe("searches on the read database", () => {
  it("answers the API's searches from the read pool", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { query: "replica copy" } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ offers: { id: number; name: string }[] }>().offers.map((o) => o.name)).toContain(
      "Replica Copy Of The Offer",
    );
  });

  it("answers the search pages from it too, while offer pages read the primary", async () => {
    const search = await t.app.inject({ method: "GET", url: "/?search=replica+copy" });
    expect(search.statusCode).toBe(200);
    expect(search.body).toContain("Replica Copy Of The Offer");
    const page = await t.app.inject({ method: "GET", url: offerUrl(offer) });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain("Replica Copy Of The Offer");
  });

  it("reads the primary for a few seconds after a catalogue edit, which a replica may not have yet", async () => {
    t.app.services.offers.catalogueChanged();
    const res = await t.app.inject({ method: "POST", url: "/api/offers/search", payload: { query: "replica copy" } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ offers: { name: string }[] }>().offers.map((o) => o.name)).not.toContain(
      "Replica Copy Of The Offer",
    );
  });
});
