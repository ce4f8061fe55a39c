// The search answer cache and the per-address search limit, as a client sees them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    seed: { networks: 5, offers: 100, trafficSources: 2 },
    env: { SEARCH_CACHE_SECONDS: "60", SEARCH_RATE_LIMIT_PER_MINUTE: "6" },
  });
});
afterAll(() => t?.close());

const search = (query: string, ip = "203.0.113.7") =>
  t.app.inject({ method: "POST", url: "/api/offers/search", payload: { query }, remoteAddress: ip });

describe("search cache and limit", () => {
  it("reuses a search answer for the cache period, while a different search sees new data", async () => {
    expect((await search("zebrafrog")).json().total).toBe(0);
    await t.db.query(sql`INSERT INTO offers (slug, network_id, name, payout_type, payout_amount)
      SELECT 'zebrafrog-deluxe', id, 'Zebrafrog Deluxe', 'CPA', 12 FROM networks ORDER BY id LIMIT 1`);
    expect((await search("zebrafrog")).json().total).toBe(0);
    const fresh = (await search("zebrafrog deluxe")).json();
    expect(fresh.total).toBe(1);
    expect(fresh.offers[0].name).toBe("Zebrafrog Deluxe");
  });

  it("answers 429 with a message and Retry-After once an address searches too often", async () => {
    const ip = "198.51.100.9";
    for (let i = 0; i < 6; i++) expect((await search(`q${i}`, ip)).statusCode).toBe(200);
    const limited = await search("one more", ip);
    expect(limited.statusCode).toBe(429);
    expect(typeof limited.json().message).toBe("string");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // Other addresses are unaffected.
    expect((await search("casino", "192.0.2.44")).statusCode).toBe(200);
  });
});
