// Two app instances on one PostgreSQL and one Redis (a key prefix of their own), as
// behind a load balancer: a login limit is counted across both, a search answer and
// a rendered page are computed once and served by the other instance from Redis,
// and a catalogue edit on one instance drops the copies of both. PostgreSQL only:
// two instances cannot share one in-memory PGlite.
import crypto from "node:crypto";
import net from "node:net";
import { PgDialect } from "drizzle-orm/pg-core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type Queryable, type SQL } from "#db/client.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { DEFAULT_LIMITS } from "#core/auth/auth.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { openTestDatabase, TEST_DATABASE_URL } from "../helpers/database.ts";

const REDIS_URL = "redis://127.0.0.1:6379";
const redisUp = await new Promise<boolean>((resolve) => {
  const socket = net.connect(6379, "127.0.0.1", () => (socket.end(), resolve(true)));
  socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
  socket.on("error", () => resolve(false));
});
if (!TEST_DATABASE_URL || !redisUp) {
  console.warn(
    "tests/api/shared-instances.test.ts: skipped, it needs TEST_DATABASE_URL and Redis at 127.0.0.1:6379 (the PostgreSQL run of CI has both)",
  );
}

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;
const dialect = new PgDialect();

/** The database as one instance sees it, counting the offer searches that instance runs. */
function countingSearches(db: TestDatabase) {
  const counter = { searches: 0 };
  const counted =
    (query: Queryable["query"]): Queryable["query"] =>
    <T>(statement: SQL) => {
      if (/FROM offers o\b/.test(dialect.sqlToQuery(statement).sql)) counter.searches++;
      return query<T>(statement);
    };
  const view = new Proxy(db, {
    get(target, prop) {
      if (prop === "query") return counted((s) => target.query(s));
      // A search runs in a transaction of its own (its planner settings).
      if (prop === "transaction") {
        return <T>(work: (tx: Queryable) => Promise<T>) =>
          target.transaction((tx) => work({ ...tx, query: counted((s) => tx.query(s)) }));
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { view, counter };
}

describe.skipIf(!TEST_DATABASE_URL || !redisUp)("two instances on one PostgreSQL and one Redis", () => {
  const prefix = `offeratlas-test-${crypto.randomBytes(4).toString("hex")}:`;
  let db: TestDatabase;
  let a: TestApp & { counter: { searches: number } };
  let b: TestApp & { counter: { searches: number } };

  beforeAll(async () => {
    db = await openTestDatabase();
    await seedDemoData(db, { siteId: "offeratlas", networks: 3, offers: 60, trafficSources: 1, reviews: 0 });
    const env = { REDIS_URL, REDIS_PREFIX: prefix, SEARCH_CACHE_SECONDS: "60", PAGE_CACHE_SECONDS: "60" };
    const instance = async () => {
      const { view, counter } = countingSearches(db);
      return Object.assign(await createTestApp({ db: view, env }), { counter });
    };
    [a, b] = await Promise.all([instance(), instance()]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await db?.dispose();
  });

  /** Waits for a copy of `kind` in Redis (an instance writes its copy without making its caller wait). */
  async function stored(kind: "search" | "page") {
    const redis = new Redis(REDIS_URL);
    try {
      const deadline = Date.now() + 2000;
      while ((await redis.keys(`${prefix}cache:${kind}:*`)).length === 0) {
        if (Date.now() > deadline) throw new Error(`no ${kind} copy was stored in Redis`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      redis.disconnect();
    }
  }

  /** A catalogue edit made on `on` (as the console makes one), seen by `other` through Redis. */
  async function editCatalogue(on: TestApp, other: TestApp) {
    on.app.services.offers.catalogueChanged();
    const deadline = Date.now() + 2000;
    while (other.app.services.offers.catalogueVersion() !== on.app.services.offers.catalogueVersion()) {
      if (Date.now() > deadline) throw new Error("the other instance never heard of the edit");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("counts a login limit across both: failures on A and B add up to a 429", async () => {
    const password = "violet tractor 42";
    const email = "shared-limit@example.com";
    const register = await a.app.inject({
      method: "POST",
      url: "/api/auth/register/",
      remoteAddress: "10.9.0.1",
      payload: { email, password, confirmPassword: password, name: "Sam Shared" },
    });
    expect(register.statusCode, register.body).toBe(201);
    const login = (t: TestApp) =>
      t.app
        .inject({
          method: "POST",
          url: "/api/auth/login",
          remoteAddress: "10.9.0.2",
          payload: { email, password: "not the password", "g-recaptcha-response": "" },
        })
        .then((r) => r.statusCode);
    const { limit } = DEFAULT_LIMITS.loginFailuresPerPair;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) statuses.push(await login(i % 2 ? b : a));
    // Each instance alone saw at most 3 failures, under the limit of 5: only the shared count refuses the sixth.
    expect(statuses).toEqual([...Array(limit).fill(401), 429]);
  });

  it("computes a search answer once: the other instance answers from Redis until the catalogue changes", async () => {
    const search = (t: TestApp) =>
      t.app.inject({ method: "POST", url: "/api/offers/search", payload: { query: "" } }).then((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return r.json<{ offers: { id: number; name: string }[] }>();
      });
    const onA = await search(a);
    expect(onA.offers.length).toBeGreaterThan(0);
    expect(a.counter.searches).toBeGreaterThan(0);
    await stored("search");
    // Changed behind both instances' backs: only a recomputed answer could show it.
    const [first] = onA.offers;
    await db.query(sql`UPDATE offers SET name = 'Renamed Behind The Cache' WHERE id = ${first.id}`);

    const searchesBefore = b.counter.searches;
    expect(await search(b)).toEqual(onA);
    expect(b.counter.searches).toBe(searchesBefore);

    await editCatalogue(a, b);
    const afterEdit = await search(b);
    expect(afterEdit.offers.find((o) => o.id === first.id)?.name).toBe("Renamed Behind The Cache");
    expect(b.counter.searches).toBeGreaterThan(searchesBefore);
  });

  it("renders a page once for both, and an edit on either drops both copies", async () => {
    const home = (t: TestApp) => t.app.inject({ method: "GET", url: "/traffic-sources" });
    const rendered = await home(a);
    expect(rendered.statusCode).toBe(200);
    expect(rendered.headers["x-page-cache"]).toBeUndefined();
    await stored("page");
    const reused = await home(b);
    expect(reused.headers["x-page-cache"]).toBe("hit");

    await editCatalogue(b, a);
    expect((await home(a)).headers["x-page-cache"]).toBeUndefined();
  });
});
