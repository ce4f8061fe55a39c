// Faults of a PostgreSQL server, injected into the test's own connections only:
// backends terminated mid-search, a table lock held, connections refused. The
// process must stay up, answer 503 `{ message }` with Retry-After quickly (never
// 500, never a hang), keep /readyz under 1 s, and recover by itself.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DatabaseUnavailableError, openDatabase, sql } from "#db/client.ts";
import type { Listening } from "#db/listen.ts";
import { statusAndMessage } from "#server/plugins/errors.ts";
import { TEST_DATABASE_URL } from "../helpers/database.ts";
import {
  adminQuery,
  createFaultApp,
  searchInit,
  terminateBackends,
  timed,
  withDatabase,
  type Answer,
  type FaultApp,
} from "../helpers/faults.ts";

if (!TEST_DATABASE_URL) {
  console.warn(
    "tests/faults/postgres.test.ts: skipped, TEST_DATABASE_URL is not set (the PostgreSQL run of CI sets it)",
  );
}

const WORDS = ["casino", "keto", "insurance", "dating", "loans", "solar", "vpn", "crypto", "sweepstakes", "medicare"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectUnavailable(a: Answer) {
  expect(a.status).toBe(503);
  expect(Number(a.headers.get("retry-after"))).toBeGreaterThan(0);
  const body = JSON.parse(a.body) as { message?: unknown };
  expect(typeof body.message).toBe("string");
  // Never the driver's words or SQL.
  expect(a.body).not.toMatch(/terminat|timeout|lock|SELECT|offers_|pg_|ECONN/i);
}

/** Counts errors that would have ended the process (an 'error' event without a listener). */
function watchUncaught() {
  const seen: unknown[] = [];
  const listener = (err: unknown) => void seen.push(err);
  process.on("uncaughtException", listener);
  return { seen, stop: () => process.off("uncaughtException", listener) };
}

describe.skipIf(!TEST_DATABASE_URL)("PostgreSQL faults", () => {
  const url = TEST_DATABASE_URL as string;

  describe("on the test's own schema", () => {
    let t: FaultApp;
    beforeAll(async () => {
      t = await createFaultApp({ seed: { networks: 10, offers: 1500, trafficSources: 2 } });
    });
    afterAll(() => t?.close());

    it("opens serving connections with the configured time limits, under its own application_name", async () => {
      const [settings] = await t.db.query<
        Record<string, string>
      >(sql`SELECT current_setting('statement_timeout') AS statement,
        current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle,
        current_setting('application_name') AS app`);
      expect(settings).toEqual({ statement: "5s", lock: "2s", idle: "10s", app: t.applicationName });
    });

    it("survives backends terminated mid-search, and the next requests succeed", async () => {
      const uncaught = watchUncaught();
      try {
        const answers: Answer[] = [];
        let stop = false;
        let n = 0;
        // 12 searches in flight at any time (each one a transaction), for about 1.5 s.
        const loops = Array.from({ length: 12 }, async () => {
          while (!stop)
            answers.push(
              await timed(`${t.baseUrl}/api/offers/search`, searchInit(WORDS[n % WORDS.length], 1 + (n++ % 4))),
            );
        });
        let terminated = 0;
        for (let i = 0; i < 15; i++) {
          await sleep(100);
          terminated += await terminateBackends(url, t.applicationName);
        }
        stop = true;
        await Promise.all(loops);

        expect(uncaught.seen).toEqual([]);
        expect(terminated).toBeGreaterThan(0);
        const statuses = new Set(answers.map((a) => a.status));
        console.log(
          `terminated ${terminated} backends during ${answers.length} searches: ${JSON.stringify(countBy(answers))}`,
        );
        // A search whose connection went away answers 503, the others 200; never 500.
        expect(answers.length).toBeGreaterThan(0);
        expect([...statuses].every((s) => s === 200 || s === 503)).toBe(true);
        for (const a of answers.filter((x) => x.status === 503)) expectUnavailable(a);
        expect(t.connectionErrors.length).toBeGreaterThan(0);

        // Recovery without restart: the pool reconnects.
        for (let i = 0; i < 10; i++)
          expect((await timed(`${t.baseUrl}/api/offers/search`, searchInit(WORDS[i]))).status).toBe(200);
        expect((await timed(`${t.baseUrl}/readyz`)).status).toBe(200);
        expect((await timed(`${t.baseUrl}/`)).status).toBe(200);
      } finally {
        uncaught.stop();
      }
    });

    it("under a table lock, fails fast with 503 and keeps /readyz under 1 s", async () => {
      // Words the catalogue holds: one no document holds is answered without reading offers.
      const held: string[] = [];
      for (const word of WORDS) {
        const answer = await timed(`${t.baseUrl}/api/offers/search`, searchInit(word));
        if ((JSON.parse(answer.body) as { total: number }).total > 0) held.push(word);
      }
      expect(held.length).toBeGreaterThan(5);
      // A session of its own holds ACCESS EXCLUSIVE on offers for 5 s.
      const locker = new pg.Client({ connectionString: url, application_name: "oa_fault_locker" });
      await locker.connect();
      const released = (async () => {
        try {
          await locker.query("BEGIN");
          await locker.query(`LOCK TABLE ${t.schema}.offers IN ACCESS EXCLUSIVE MODE`);
          await sleep(5000);
        } finally {
          await locker.query("ROLLBACK").catch(() => {});
          await locker.end();
        }
      })();
      try {
        await sleep(200);
        const started = performance.now();
        // More searches than the pool has connections (DB_POOL_SIZE): some wait for the lock, the rest for a connection.
        // Each a word the catalogue holds, on a page not asked for yet (none is in the answer cache).
        const searches = Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            timed(`${t.baseUrl}/api/offers/search`, searchInit(held[i % held.length], 2 + Math.floor(i / held.length))),
          ),
        );
        await sleep(300);
        const ready = await timed(`${t.baseUrl}/readyz`);
        const answers = await searches;
        const elapsed = performance.now() - started;
        const slowest = Math.max(...answers.map((a) => a.ms));
        console.log(
          `table lock: ${JSON.stringify(countBy(answers))}, first 503 after ${Math.min(...answers.map((a) => a.ms)).toFixed(0)} ms, ` +
            `slowest ${slowest.toFixed(0)} ms; /readyz ${ready.status} in ${ready.ms.toFixed(0)} ms`,
        );
        for (const a of answers) expectUnavailable(a);
        // lock_timeout or the wait for a connection (2 s each): never the 5 s the lock is held.
        expect(slowest).toBeLessThan(5000);
        expect(elapsed).toBeLessThan(5500);
        expect(ready.ms).toBeLessThan(1000);
        if (ready.status !== 200) expectUnavailable(ready);
        // The process stays responsive meanwhile.
        expect((await timed(`${t.baseUrl}/healthz`)).ms).toBeLessThan(200);
      } finally {
        await released;
      }
      // Lock gone: searches work again at once.
      expect((await timed(`${t.baseUrl}/api/offers/search`, searchInit("casino"))).status).toBe(200);
      expect((await timed(`${t.baseUrl}/readyz`)).status).toBe(200);
    }, 20_000);
  });

  describe("on a throwaway database that stops accepting connections", () => {
    const name = `oa_fault_${crypto.randomBytes(4).toString("hex")}`;
    let t: FaultApp;
    beforeAll(async () => {
      await adminQuery(url, `CREATE DATABASE ${name}`);
      t = await createFaultApp({
        url: withDatabase(url, name),
        isolate: false,
        seed: { networks: 5, offers: 200, trafficSources: 2 },
      });
    });
    afterAll(async () => {
      await t?.close();
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it("answers 503 (API and pages) while refused, and recovers once connections are allowed again", async () => {
      expect((await timed(`${t.baseUrl}/api/offers/search`, searchInit("casino"))).status).toBe(200);
      await adminQuery(url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      try {
        await terminateBackends(url, t.applicationName);
        const search = await timed(`${t.baseUrl}/api/offers/search`, searchInit("keto"));
        expectUnavailable(search);
        expect(search.ms).toBeLessThan(2500);
        const ready = await timed(`${t.baseUrl}/readyz`);
        expectUnavailable(ready);
        expect(ready.ms).toBeLessThan(1000);
        // A page view renders the error page with 503, not 500.
        const page = await timed(`${t.baseUrl}/?search=keto`);
        console.log(
          `refused: search 503 in ${search.ms.toFixed(0)} ms, /readyz ${ready.status} in ${ready.ms.toFixed(0)} ms, page ${page.status} in ${page.ms.toFixed(0)} ms`,
        );
        expect(page.status).toBe(503);
        expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(page.headers.get("content-type")).toMatch(/text\/html/);
        expect(page.body).toContain("Sorry! The application has encountered a server error");
        expect(page.body).toMatch(/>503</);
      } finally {
        await adminQuery(url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      }
      // Back: the very next requests succeed, without a restart.
      expect((await timed(`${t.baseUrl}/api/offers/search`, searchInit("loans"))).status).toBe(200);
      expect((await timed(`${t.baseUrl}/readyz`)).status).toBe(200);
      expect((await timed(`${t.baseUrl}/?search=loans`)).status).toBe(200);
    });
  });

  it("a listener whose connection is terminated is not live until it listens again, by itself, and says so both times", async () => {
    const tag = crypto.randomBytes(5).toString("hex");
    const applicationName = `oa_listen_${tag}`;
    const channel = `oa_test_${tag}`;
    const db = await openDatabase({ url, applicationName, poolSize: 1 });
    const heard: string[] = [];
    try {
      // The first connection's "*" is told before `listen` resolves.
      const handle: { listening?: Listening } = {};
      const listening = (handle.listening = await db.listen(channel, (payload) =>
        heard.push(`${payload} live=${handle.listening?.live}`),
      ));
      expect(listening.live).toBe(true);
      heard.length = 0; // the first connection's "*"
      await adminQuery(url, `SELECT pg_notify($1, '7')`, [channel]);
      await vi.waitFor(() => expect(heard).toEqual(["7 live=true"]));

      heard.length = 0;
      expect(await terminateBackends(url, applicationName)).toBeGreaterThan(0);
      // The loss is told at once (copies kept so far go); the recovery once it listens again.
      await vi.waitFor(() => expect(heard).toEqual(["* live=false", "* live=true"]), { timeout: 5000, interval: 20 });
      heard.length = 0;
      await adminQuery(url, `SELECT pg_notify($1, '8')`, [channel]);
      await vi.waitFor(() => expect(heard).toEqual(["8 live=true"]));
    } finally {
      await db.close();
    }
    // Closed: nothing left listening, nothing retried.
    const left = await adminQuery(url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [
      applicationName,
    ]);
    expect(left[0].n).toBe(0);
  });

  it("a server that refuses the connection (closed port) is 503, not 500, and fast", async () => {
    const db = await openDatabase({
      url: "postgres://postgres@127.0.0.1:1/nothing",
      limits: {
        statementTimeoutMs: 5000,
        lockTimeoutMs: 2000,
        idleInTransactionTimeoutMs: 10_000,
        acquireTimeoutMs: 2000,
        queueLimit: 32,
      },
    });
    try {
      const started = performance.now();
      const err = await db.query(sql`SELECT 1`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect(statusAndMessage(err).status).toBe(503);
      expect(statusAndMessage(err).headers?.["retry-after"]).toBeTruthy();
      expect(performance.now() - started).toBeLessThan(2500);
      const tx = await db.transaction(async () => 1).catch((e: unknown) => e);
      expect(tx).toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      await db.close();
    }
  });
});

function countBy(answers: Answer[]) {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}
