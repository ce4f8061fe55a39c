// With REDIS_URL, the search budget is one budget for every instance: two apps on one
// Redis (a key prefix of their own) answer 429 at the shared total. With Redis away,
// searches go on, uncounted, and promptly, and each instance caches on its own.
import crypto from "node:crypto";
import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

const REDIS_URL = "redis://127.0.0.1:6379";
const redisUp = await new Promise<boolean>((resolve) => {
  const socket = net.connect(6379, "127.0.0.1", () => (socket.end(), resolve(true)));
  socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
  socket.on("error", () => resolve(false));
});
if (!redisUp) console.warn("Redis is not reachable at 127.0.0.1:6379: the shared-budget test is skipped");

const seed = { networks: 3, offers: 40, trafficSources: 1 };
const search = (t: TestApp) =>
  t.app.inject({ method: "POST", url: "/api/offers/search", payload: { query: "casino" } }).then((r) => r.statusCode);

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((t) => t.close()));
});

describe("search budget in Redis", () => {
  it.skipIf(!redisUp)("is shared by every instance on one Redis", async () => {
    const prefix = `offeratlas-test-${crypto.randomBytes(4).toString("hex")}:`;
    const env = { REDIS_URL, REDIS_PREFIX: prefix, SEARCH_RATE_LIMIT_PER_MINUTE: "6" };
    const [a, b] = await Promise.all([createTestApp({ seed, env }), createTestApp({ seed, env })]);
    apps.push(a, b);
    const redis = new Redis(REDIS_URL);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push(await search(i % 2 ? b : a));
      // Six searches spread over both instances spend the budget of six; each alone would have allowed six.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it("lets searches and pages through, promptly, when Redis cannot be reached", async () => {
    const t = await createTestApp({
      seed,
      // The caches on as in production: with their shared copies away, each instance computes its own.
      env: {
        REDIS_URL: "redis://127.0.0.1:1",
        SEARCH_RATE_LIMIT_PER_MINUTE: "2",
        SEARCH_CACHE_SECONDS: "15",
        PAGE_CACHE_SECONDS: "5",
      },
    });
    apps.push(t);
    const started = performance.now();
    const statuses = [await search(t), await search(t), await search(t), await search(t)];
    expect(statuses).toEqual([200, 200, 200, 200]);
    const page = () => t.app.inject({ method: "GET", url: "/traffic-sources" });
    expect((await page()).statusCode).toBe(200);
    expect((await page()).headers["x-page-cache"]).toBe("hit"); // this instance's own copy
    t.app.services.offers.catalogueChanged(); // an edit still drops this instance's copies
    expect((await page()).headers["x-page-cache"]).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
