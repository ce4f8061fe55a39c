// The embedded database's turns (db/client.ts): one WASM connection on the event
// loop must stay usable after errors, bound its queue and the wait in it, and let
// the loop breathe between statements.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  DatabaseUnavailableError,
  openDatabase,
  sql,
  startDatabaseWork,
  type Database,
  type DatabaseLimits,
} from "#db/client.ts";
import { statusAndMessage } from "#server/plugins/errors.ts";

const LIMITS: DatabaseLimits = {
  statementTimeoutMs: 0,
  lockTimeoutMs: 0,
  idleInTransactionTimeoutMs: 0,
  acquireTimeoutMs: 0,
  queueLimit: 0,
};
// A statement that keeps the WASM engine (and so the event loop) busy for a while.
const busy = (n: number) => sql`SELECT count(*)::int AS n FROM generate_series(1, ${n}) g`;

/** Starts `work` as a unit of work of its own (as a request would), not as a continuation of the caller's. */
const asNewWork = <T>(work: () => Promise<T>) => {
  startDatabaseWork();
  return work();
};

describe("PGlite turns", () => {
  let plain: Database;
  beforeAll(async () => {
    plain = await openDatabase({});
    await plain.execScript(`CREATE TABLE t (id int PRIMARY KEY)`);
  });
  afterAll(() => plain?.close());

  it("stays usable after a failed statement and a failed transaction, and passes SQL errors through", async () => {
    const bad = await plain.query(sql`SELEC 1`).catch((e: unknown) => e);
    expect(bad).not.toBeInstanceOf(DatabaseUnavailableError);
    expect((bad as { code?: string }).code).toBe("42601");
    expect(await plain.query(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);

    const failed = await plain
      .transaction(async (tx) => {
        await tx.query(sql`INSERT INTO t VALUES (1)`);
        await tx.query(sql`INSERT INTO t VALUES (1)`); // unique violation
      })
      .catch((e: unknown) => e);
    expect((failed as { code?: string }).code).toBe("23505");
    expect(await plain.query(sql`SELECT count(*)::int AS n FROM t`)).toEqual([{ n: 0 }]); // rolled back
    await plain.transaction(async (tx) => tx.query(sql`INSERT INTO t VALUES (2)`));
    expect(await plain.query(sql`SELECT id FROM t`)).toEqual([{ id: 2 }]);
  });

  it("lets the event loop run between queued statements", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      // Each statement longer than a slice (10 ms), so each one ends its pass of the loop.
      const n = 12;
      await Promise.all(Array.from({ length: n }, () => asNewWork(() => plain.query(busy(200_000)))));
      // Without turns, queued statements ran back to back in promise callbacks and no timer fired.
      expect(ticks).toBeGreaterThanOrEqual(n / 2);
    } finally {
      clearInterval(timer);
    }
  });

  describe("with limits", () => {
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase({ limits: { ...LIMITS, queueLimit: 3, acquireTimeoutMs: 150 } });
    });
    afterAll(() => db?.close());

    it("refuses new work at once beyond the queue limit, as a 503 with Retry-After", async () => {
      const started = performance.now();
      const jobs = Array.from({ length: 8 }, () =>
        asNewWork(() => db.query(busy(20_000))).then(
          () => "ok",
          (e: unknown) => e,
        ),
      );
      // The refusals are settled before any statement has run (same pass of the loop).
      const refusedAt = await Promise.race(jobs.slice(4)).then(() => performance.now() - started);
      const outcomes = await Promise.all(jobs);
      // One runs, three wait, four are refused.
      expect(outcomes.slice(0, 4)).toEqual(["ok", "ok", "ok", "ok"]);
      for (const refused of outcomes.slice(4)) {
        expect(refused).toBeInstanceOf(DatabaseUnavailableError);
        const { status, message, headers } = statusAndMessage(refused);
        expect(status).toBe(503);
        expect(message).not.toMatch(/generate_series|queue|SELECT/i);
        expect(Number(headers?.["retry-after"])).toBeGreaterThan(0);
      }
      expect(refusedAt).toBeLessThan(50);
    });

    it("lets admitted work finish: its later statements are neither refused nor put behind new work", async () => {
      // Its own database: no wait bound gets in the way here.
      const db = await openDatabase({ limits: { ...LIMITS, queueLimit: 3, acquireTimeoutMs: 10_000 } });
      onTestFinished(() => db.close());
      let resume!: () => void;
      const paused = new Promise<void>((r) => (resume = r));
      const admitted = asNewWork(async () => {
        await db.query(sql`SELECT 1`);
        await paused; // meanwhile the queue fills with new work
        return db.query(sql`SELECT 2 AS two`);
      });
      await new Promise((r) => setTimeout(r, 20));
      // One runs, three wait (the limit), one is refused.
      const fillers = Array.from({ length: 5 }, () =>
        asNewWork(() => db.query(busy(300_000))).then(
          () => performance.now(),
          (e: unknown) => e,
        ),
      );
      resume();
      expect(await admitted).toEqual([{ two: 2 }]);
      const secondDone = performance.now();
      const outcomes = await Promise.all(fillers);
      expect(outcomes.filter((o) => o instanceof DatabaseUnavailableError)).toHaveLength(1);
      // It went before the three that waited.
      expect(outcomes.filter((o) => typeof o === "number" && o < secondDone)).toHaveLength(1);
    });

    it("bounds the wait for a turn", async () => {
      // Two long statements: the third waits longer than acquireTimeoutMs (150 ms).
      const slow = () => asNewWork(() => db.query(busy(700_000)));
      const first = slow();
      const second = slow();
      const third = asNewWork(() => db.query(sql`SELECT 1`)).catch((e: unknown) => e);
      await Promise.allSettled([first, second]);
      const err = await third;
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect((err as DatabaseUnavailableError).reason).toBe("saturated");
      // And afterwards it serves again.
      expect(await db.query(sql`SELECT 3 AS three`)).toEqual([{ three: 3 }]);
    });
  });
});
