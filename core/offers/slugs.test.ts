// Free offer slugs (core/offers/slugs.ts): the first free candidate, never one another offer has
// (at any network), never the same twice in a batch, numbered when every candidate is taken.
// On PGlite, or PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { syncReferenceData } from "#core/reference/sync.ts";
import { openTestDatabase } from "../../tests/helpers/database.ts";
import { allocateSlugs, slugify } from "./slugs.ts";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let ids: Record<string, number>;

beforeAll(async () => {
  db = await openTestDatabase();
  await syncReferenceData(db); // the currencies offers point at
  const networks = await db.query<{ id: number }>(sql`
    INSERT INTO networks (slug, name) VALUES ('north', 'North'), ('south', 'South') RETURNING id`);
  const offers = await db.query<{ id: number; slug: string }>(sql`
    INSERT INTO offers (slug, network_id, name, payout_type)
    VALUES ('solar-leads', ${networks[0].id}, 'Solar Leads', 'CPL'),
           ('solar-leads-2', ${networks[1].id}, 'Solar Leads', 'CPL'),
           ('solar-leads-77', ${networks[1].id}, 'Solar Leads', 'CPL')
    RETURNING id, slug`);
  ids = Object.fromEntries(offers.map((o) => [o.slug, o.id]));
});
afterAll(() => db?.dispose());

describe("allocateSlugs", () => {
  it("takes the first free candidate, whichever network holds the others", async () => {
    expect(await allocateSlugs(db, [["solar-leads", "solar-leads-77", "solar-leads-77-s3"], ["wind-leads"]])).toEqual([
      "solar-leads-77-s3",
      "wind-leads",
    ]);
  });

  it("numbers the first candidate when all are taken, and never gives one slug twice", async () => {
    expect(await allocateSlugs(db, [["solar-leads"], ["solar-leads"], ["solar-leads"]])).toEqual([
      "solar-leads-3",
      "solar-leads-4",
      "solar-leads-5",
    ]);
    // Past the first round of numbers.
    const many = await allocateSlugs(
      db,
      Array.from({ length: 40 }, () => ["solar-leads"]),
    );
    expect(new Set(many).size).toBe(40);
    expect(many).not.toContain("solar-leads-77");
    expect(many.at(-1)).toBe("solar-leads-42");
  });

  it("leaves an offer its own slug when it is renamed", async () => {
    expect(await allocateSlugs(db, [["solar-leads-2"]], ids["solar-leads-2"])).toEqual(["solar-leads-2"]);
  });

  it("makes slugs from names", () => {
    expect(slugify("Crème Brûlée  Box — UK (CPA)")).toBe("creme-brulee-box-uk-cpa");
    expect(slugify("x".repeat(130))).toHaveLength(120);
  });
});
