// Demo seed: deterministic, internally consistent, and shaped the way the
// product needs it (the same product at several networks, flags to filter on).
// Runs on in-memory PGlite, or on PostgreSQL in a throwaway schema when
// TEST_DATABASE_URL is set.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, sql, type Database, type SQL } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { isDatabaseEmpty, seedDemoData, type SeedDemoOptions } from "./demo.ts";

const SIZE = { networks: 40, offers: 2000, trafficSources: 10 } as const;
const SITE = "offeratlas";

type TestDb = { db: Database; dispose: () => Promise<void> };

async function openTestDb(): Promise<TestDb> {
  const url = process.env.TEST_DATABASE_URL;
  let disposed = false;
  if (!url) {
    const db = await openDatabase({});
    return {
      db,
      dispose: async () => {
        if (disposed) return;
        disposed = true;
        await db.close();
      },
    };
  }
  const schema = `seed_test_${crypto.randomBytes(5).toString("hex")}`;
  const db = await openDatabase({ url, schema, poolSize: 2 });
  return {
    db,
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      try {
        await db.query(sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      } finally {
        await db.close();
      }
    },
  };
}

async function seededDb(options: Partial<SeedDemoOptions> = {}) {
  const t = await openTestDb();
  try {
    await migrate(t.db);
    const emptyBefore = await isDatabaseEmpty(t.db);
    const counts = await seedDemoData(t.db, { siteId: SITE, ...SIZE, ...options });
    return { ...t, counts, emptyBefore };
  } catch (err) {
    await t.dispose();
    throw err;
  }
}

/** What must come out identical for the same seed. */
async function snapshot(db: Database) {
  const offers = await db.query(sql`
    SELECT o.id, o.legacy_id, o.name, o.slug, n.slug AS network, o.payout_type, o.payout_amount, o.payout_percent,
           o.payout_usd, o.currency, o.countries, o.category_ids, o.popularity, o.created_at, o.status, o.product_key
    FROM offers o JOIN networks n ON n.id = o.network_id
    WHERE o.id <= 50 ORDER BY o.id`);
  const networks = await db.query(sql`SELECT id, slug, featured, offer_count, created_at FROM networks ORDER BY id`);
  return { offers, networks };
}

const one = async <T>(db: Database, statement: SQL) => (await db.query<T>(statement))[0];

describe("seedDemoData", () => {
  let main: Awaited<ReturnType<typeof seededDb>>;
  let mainSnapshot: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    main = await seededDb();
    mainSnapshot = await snapshot(main.db);
  });

  afterAll(async () => {
    await main?.dispose();
  });

  it("gives networks real-looking reputations: reviews whose averages and counts match the network rows", async () => {
    expect(main.counts.reviews).toBeGreaterThan(1000);
    const mismatched = await main.db.query(sql`
      SELECT n.id FROM networks n
      LEFT JOIN (SELECT network_id, round(avg(rating), 2) AS avg, count(*)::int AS n FROM reviews GROUP BY network_id) r ON r.network_id = n.id
      WHERE n.avg_rating <> coalesce(r.avg, 0) OR n.review_count <> coalesce(r.n, 0)`);
    expect(mismatched).toEqual([]);
    const spread = await one<{ unreviewed: number; low: number; high: number }>(
      main.db,
      sql`
      SELECT count(*) FILTER (WHERE review_count = 0)::int AS unreviewed,
             count(*) FILTER (WHERE review_count > 0 AND avg_rating < 3)::int AS low,
             count(*) FILTER (WHERE avg_rating >= 4)::int AS high FROM networks`,
    );
    expect(spread.unreviewed).toBeGreaterThan(0);
    expect(spread.low).toBeGreaterThan(0);
    expect(spread.high).toBeGreaterThan(0);
    // Reviewer accounts cannot log in: their hash is no argon2 hash.
    const hashes = await main.db.query<{ password_hash: string }>(sql`SELECT DISTINCT password_hash FROM users`);
    expect(hashes.every((h) => !h.password_hash.startsWith("$argon2"))).toBe(true);
  });

  it("reports what it inserted and marks the database as no longer empty", async () => {
    expect(main.emptyBefore).toBe(true);
    expect(await isDatabaseEmpty(main.db)).toBe(false);
    expect(main.counts).toEqual({ ...SIZE, categories: main.counts.categories, reviews: main.counts.reviews });
    expect(main.counts.categories).toBeGreaterThanOrEqual(35);
    const row = await one<{ networks: number; offers: number; sources: number; categories: number; top: number }>(
      main.db,
      sql`SELECT (SELECT count(*) FROM networks) AS networks, (SELECT count(*) FROM offers) AS offers,
                 (SELECT count(*) FROM traffic_sources) AS sources, (SELECT count(*) FROM categories) AS categories,
                 (SELECT count(*) FROM categories WHERE top) AS top`,
    );
    expect(row).toMatchObject({ networks: SIZE.networks, offers: SIZE.offers, sources: SIZE.trafficSources });
    expect(row.categories).toBe(main.counts.categories);
    expect(row.top).toBeGreaterThanOrEqual(8);
    expect(row.top).toBeLessThanOrEqual(14);
  });

  it("creates the site with its external links", async () => {
    const site = await one<{ name: string; links: Record<string, string> }>(
      main.db,
      sql`SELECT name, links FROM sites WHERE id = ${SITE}`,
    );
    expect(site.name).toBe("OfferAtlas");
    for (const key of [
      "dashboardUrl",
      "advertiserLoginUrl",
      "passwordRecoveryUrl",
      "blogUrl",
      "trainingVideosUrl",
      "callTrackingUrl",
      "facebookUrl",
      "youtubeUrl",
      "twitterUrl",
    ]) {
      expect(site.links[key]).toMatch(/^https:\/\//);
    }
  });

  it("sells the same product at several networks with different payouts", async () => {
    const row = await one<{ shared: number; varied: number; wide: number }>(
      main.db,
      sql`SELECT count(*) FILTER (WHERE networks >= 2) AS shared,
                 count(*) FILTER (WHERE networks >= 2 AND payouts >= 2) AS varied,
                 count(*) FILTER (WHERE networks >= 4) AS wide
          FROM (SELECT product_key, count(DISTINCT network_id) AS networks,
                       count(DISTINCT coalesce(payout_usd, payout_percent)) AS payouts
                FROM offers GROUP BY product_key) p`,
    );
    expect(row.varied).toBeGreaterThanOrEqual(200);
    expect(row.wide).toBeGreaterThanOrEqual(50);
    // Same name and landing domain within a product group; never twice at one network.
    const dupes = await one<{ n: number }>(
      main.db,
      sql`SELECT count(*) AS n FROM (SELECT product_key, network_id FROM offers GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    expect(dupes.n).toBe(0);
  });

  it("keeps offer counts equal to the active offers", async () => {
    const row = await one<{
      wrong: number;
      wrongProps: number;
      zero: number;
      biggest: number;
      average: number;
      inactive: number;
    }>(
      main.db,
      sql`WITH actual AS (
            SELECT n.id, count(o.id) AS active
            FROM networks n LEFT JOIN offers o ON o.network_id = n.id AND o.status = 'active' GROUP BY n.id)
          SELECT (SELECT count(*) FROM networks n JOIN actual a USING (id) WHERE n.offer_count <> a.active) AS wrong,
                 (SELECT count(*) FROM network_properties p JOIN actual a ON a.id = p.network_id
                   WHERE p.offer_count <> a.active) AS "wrongProps",
                 (SELECT count(*) FROM networks WHERE offer_count = 0) AS zero,
                 (SELECT max(offer_count) FROM networks) AS biggest,
                 (SELECT avg(offer_count) FROM networks) AS average,
                 (SELECT count(*) FROM offers WHERE status <> 'active') AS inactive`,
    );
    expect(row.wrong).toBe(0);
    expect(row.wrongProps).toBe(0);
    expect(row.inactive).toBeGreaterThan(0);
    expect(row.zero).toBeGreaterThanOrEqual(1);
    expect(row.biggest).toBeGreaterThan(3 * row.average);
  });

  it("has featured networks and paid accounts for the site", async () => {
    const row = await one<{ featured: number; paid: number; listed: number; sister: number }>(
      main.db,
      sql`SELECT (SELECT count(*) FROM networks WHERE featured) AS featured,
                 (SELECT count(*) FROM network_properties WHERE identifier = ${SITE} AND paid_account) AS paid,
                 (SELECT count(*) FROM network_properties WHERE identifier = ${SITE}) AS listed,
                 (SELECT count(*) FROM network_properties WHERE identifier <> ${SITE}) AS sister`,
    );
    expect(row.featured).toBeGreaterThan(0);
    expect(row.featured).toBeLessThan(SIZE.networks / 4);
    expect(row.paid).toBeGreaterThan(0);
    expect(row.listed).toBe(SIZE.networks);
    expect(row.sister).toBeGreaterThan(0);
  });

  it("has sponsored, pay-per-call and mobile offers", async () => {
    const row = await one<{ sponsored: number; ppc: number; mobile: number; ppcMismatch: number; usFirst: boolean }>(
      main.db,
      sql`SELECT count(*) FILTER (WHERE sponsored) AS sponsored, count(*) FILTER (WHERE ppc) AS ppc,
                 count(*) FILTER (WHERE mobile) AS mobile,
                 count(*) FILTER (WHERE ppc <> (payout_type = 'pay-per-call')) AS "ppcMismatch",
                 (SELECT c FROM offers, unnest(countries) c GROUP BY c ORDER BY count(*) DESC, c LIMIT 1) = 'US' AS "usFirst"
          FROM offers`,
    );
    expect(row.sponsored).toBeGreaterThan(0);
    expect(row.ppc).toBeGreaterThan(0);
    expect(row.mobile).toBeGreaterThan(0);
    expect(row.ppcMismatch).toBe(0);
    expect(row.usFirst).toBe(true);
  });

  it("uses known currencies and countries, with consistent USD payouts", async () => {
    const row = await one<{
      badCurrency: number;
      badCountry: number;
      noCountry: number;
      badUsd: number;
      noPayout: number;
      nonUsd: number;
    }>(
      main.db,
      sql`SELECT
            (SELECT count(*) FROM offers o WHERE NOT EXISTS (SELECT 1 FROM currencies c WHERE c.code = o.currency)) AS "badCurrency",
            (SELECT count(*) FROM offers o, unnest(o.countries) cc
              WHERE NOT EXISTS (SELECT 1 FROM countries c WHERE c.code = cc)) AS "badCountry",
            (SELECT count(*) FROM offers WHERE cardinality(countries) = 0) AS "noCountry",
            (SELECT count(*) FROM offers o JOIN currencies c ON c.code = o.currency
              WHERE o.payout_usd IS DISTINCT FROM round(o.payout_amount * c.usd_rate, 2)) AS "badUsd",
            (SELECT count(*) FROM offers WHERE payout_amount IS NULL AND payout_percent IS NULL) AS "noPayout",
            (SELECT count(*) FROM offers WHERE currency <> 'USD') AS "nonUsd"`,
    );
    expect(row).toMatchObject({ badCurrency: 0, badCountry: 0, noCountry: 0, badUsd: 0, noPayout: 0 });
    expect(row.nonUsd).toBeGreaterThan(0);
    expect(row.nonUsd).toBeLessThan(SIZE.offers / 3);
  });

  it("fills traffic sources, categories on offers and house ads for every slot", async () => {
    const sources = await one<{ featured: number; noFormats: number }>(
      main.db,
      sql`SELECT count(*) FILTER (WHERE featured) AS featured,
                 count(*) FILTER (WHERE cardinality(ad_formats) = 0 OR cardinality(pricing_models) = 0) AS "noFormats"
          FROM traffic_sources`,
    );
    expect(sources.featured).toBeGreaterThan(0);
    expect(sources.noFormats).toBe(0);
    const badCategories = await one<{ n: number }>(
      main.db,
      sql`SELECT count(*) AS n FROM offers o
          WHERE cardinality(o.category_ids) NOT BETWEEN 1 AND 2
             OR EXISTS (SELECT 1 FROM unnest(o.category_ids) AS u(cid) WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = u.cid))`,
    );
    expect(badCategories.n).toBe(0);
    const slots = await main.db.query<{ slot_size: string }>(
      sql`SELECT DISTINCT slot_size FROM house_ads WHERE site_id IS NULL AND active ORDER BY slot_size`,
    );
    expect(slots.map((s) => s.slot_size).sort()).toEqual(["125x125", "250x250", "270x70", "370x165", "728x90"]);
  });

  // Last, because it closes the main database first: on PostgreSQL the pg_trgm
  // extension lives in the first schema that created it, so schemas seeded one
  // after another (not side by side) each get their own.
  it("gives the same data for the same seed, and different data for another seed", async () => {
    expect(mainSnapshot.offers).toHaveLength(50);
    await main.dispose();
    const again = await seededDb();
    try {
      expect(await snapshot(again.db)).toEqual(mainSnapshot);
    } finally {
      await again.dispose();
    }
    const other = await seededDb({ seed: 7 });
    try {
      const otherSnapshot = await snapshot(other.db);
      expect(otherSnapshot.offers).not.toEqual(mainSnapshot.offers);
      expect(otherSnapshot.networks).not.toEqual(mainSnapshot.networks);
    } finally {
      await other.dispose();
    }
  }, 180_000);
});
