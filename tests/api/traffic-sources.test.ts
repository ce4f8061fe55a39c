// Traffic sources API (docs/product.md §4, §7) and their page addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { TrafficSource } from "#contracts/traffic-sources.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 4, offers: 20, trafficSources: 24 } });
});
afterAll(() => t?.close());

const list = async (url = "/api/traffic-sources?site=offeratlas"): Promise<TrafficSource[]> => {
  const res = await t.app.inject(url);
  expect(res.statusCode).toBe(200);
  return res.json().trafficSources;
};

describe("GET /api/traffic-sources", () => {
  it("lists every active traffic source, featured ones first", async () => {
    const sources = await list();
    const [{ n, featured }] = await t.db.query<{ n: number; featured: number }>(
      sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE featured)::int AS featured FROM traffic_sources WHERE status = 'active'`,
    );
    expect(sources).toHaveLength(n);
    expect(featured).toBeGreaterThan(1);
    expect(sources.slice(0, featured).every((s) => s.featured)).toBe(true);
    expect(sources.slice(featured).some((s) => s.featured)).toBe(false);
    expect(sources[0]).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      featured: true,
      adFormats: expect.any(Array),
    });
  });

  it("shuffles both groups on each load", async () => {
    const orders = new Set<string>();
    const featuredOrders = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const s = await list();
      orders.add(
        s
          .filter((x) => !x.featured)
          .map((x) => x.id)
          .join(),
      );
      featuredOrders.add(
        s
          .filter((x) => x.featured)
          .map((x) => x.id)
          .join(),
      );
    }
    expect(orders.size).toBeGreaterThan(1);
    expect(featuredOrders.size).toBeGreaterThan(1);
  });

  it("filters by a name search, still featured first", async () => {
    const all = await list();
    const word = all[0].name.slice(0, 4);
    const found = await list(`/api/traffic-sources?search=${encodeURIComponent(word)}`);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((s) => s.name.toLowerCase().includes(word.toLowerCase()))).toBe(true);
    const firstPlain = found.findIndex((s) => !s.featured);
    if (firstPlain >= 0) expect(found.slice(firstPlain).some((s) => s.featured)).toBe(false);
  });

  it("refuses an unknown site", async () => {
    expect((await t.app.inject("/api/traffic-sources?site=nowhere")).statusCode).toBe(400);
  });
});

describe("traffic source detail", () => {
  it("finds one by id and by old-site id", async () => {
    const [row] = await t.db.query<{ id: number; legacy_id: number; name: string }>(
      sql`SELECT id, legacy_id, name FROM traffic_sources ORDER BY id LIMIT 1`,
    );
    const byId = await t.app.inject(`/api/traffic-sources/${row.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().trafficSource).toMatchObject({
      id: row.id,
      name: row.name,
      legacyId: row.legacy_id,
      description: expect.any(String),
    });
    const legacy = await t.app.inject(`/api/traffic-sources/legacy/${row.legacy_id}`);
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json().trafficSource.id).toBe(row.id);
  });

  it("answers 404 { message } for unknown and malformed ids", async () => {
    for (const url of [
      "/api/traffic-sources/999999",
      "/api/traffic-sources/abc",
      "/api/traffic-sources/legacy/999999",
      "/api/traffic-sources/legacy/1e3",
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: "Traffic source not found" });
    }
  });
});

describe("traffic source pages", () => {
  it("renders the listing with the spec's title, featured first", async () => {
    const res = await t.app.inject("/traffic-sources?search=&page=1");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Enter a search term below to find traffic sources");
    expect(res.body).toContain("Clear Searches");
    const flags = [...res.body.matchAll(/data-traffic-source-id="\d+"( data-featured="true")?/g)].map((m) =>
      Boolean(m[1]),
    );
    expect(flags.length).toBe(20);
    expect(flags.indexOf(false)).toBeGreaterThan(0);
    expect(flags.slice(flags.indexOf(false)).includes(true)).toBe(false);
  });

  it("renders a detail page and 404s an unknown one", async () => {
    const [row] = await t.db.query<{ id: number; name: string }>(
      sql`SELECT id, name FROM traffic_sources ORDER BY id LIMIT 1`,
    );
    const res = await t.app.inject(`/traffic-sources/details/${row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(row.name);
    expect((await t.app.inject("/traffic-sources/details/999999")).statusCode).toBe(404);
  });

  it("301s the old-site address (old or new id) to the detail page, and without an id to the listing", async () => {
    const [row] = await t.db.query<{ id: number; legacy_id: number }>(
      sql`SELECT id, legacy_id FROM traffic_sources ORDER BY id LIMIT 1`,
    );
    for (const url of [`/traffic/details/id/${row.legacy_id}`, `/traffic/details/id/${row.id}`]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location).toBe(`/traffic-sources/details/${row.id}`);
    }
    const bare = await t.app.inject("/traffic/details/id");
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe("/traffic-sources");
    expect((await t.app.inject("/traffic/details/id/999999")).statusCode).toBe(404);
  });
});
