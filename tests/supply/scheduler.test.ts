// The offer-sync scheduler (core/supply/scheduler.ts) on pg-boss, against the fake
// Everflow server: due sources are synced unasked and moved on, disabled ones are
// not, transient failures are retried with backoff, refused credentials are not,
// queued jobs survive a restart, two instances run each due source once, and
// "Sync now" through the admin API.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { array, openDatabase, sql, type Database } from "#db/client.ts";
import { createSecrets, parseSecretsKey } from "#core/supply/secrets.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import { createOfferScheduler, type OfferScheduler, type OfferSchedulerOptions } from "#core/supply/scheduler.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { openTestDatabase, TEST_DATABASE_URL } from "../helpers/database.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { signInWithRoles } from "../helpers/staff.ts";
import { addSource, API_KEY, SECRETS_KEY, sourceState } from "./helpers.ts";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const secrets = createSecrets(parseSecretsKey(SECRETS_KEY));
const fakes: FakeEverflow[] = [];
const fake = async (count: number) => {
  const server = await startFakeEverflow({ apiKey: API_KEY, count });
  fakes.push(server);
  return server;
};

type Run = { status: string; seen: number; new: number; error: string | null; startedAt: Date };
const runsOf = (db: Database, sourceId: number) =>
  db.query<Run>(sql`
    SELECT status, seen, new, error, started_at AS "startedAt" FROM offer_sync_runs
    WHERE source_id = ${sourceId} ORDER BY id`);

/** Waits until `check` holds (polling), or fails after `ms`. */
async function until(check: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}
const finishedRuns = async (db: Database, sourceId: number) =>
  (await runsOf(db, sourceId)).filter((r) => r.status !== "running");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("offer sync scheduler", () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  const started: OfferScheduler[] = [];
  const extraDatabases: Database[] = [];

  /** A scheduler with short intervals; connectors make one attempt per request, so a fault fails the run. */
  async function startScheduler(on: Database = db, overrides: Partial<OfferSchedulerOptions> = {}) {
    const sync = createOfferSync(on, {
      secrets,
      onCatalogueChanged: () => {},
      log: quiet,
      http: { attempts: 1, timeoutMs: 5000 },
    });
    const scheduler = createOfferScheduler(on, sync, {
      log: quiet,
      dueEverySeconds: 0.2,
      pollingSeconds: 0.5,
      retry: { limit: 3, delaySeconds: 1, maxDelaySeconds: 10 },
      stopTimeoutMs: 5000,
      ...overrides,
    });
    await scheduler.start();
    started.push(scheduler);
    return scheduler;
  }

  beforeAll(async () => {
    db = await openTestDatabase();
    // The reference data offers point at (currencies, countries).
    await seedDemoData(db, { siteId: "offeratlas", networks: 1, offers: 1, trafficSources: 1, reviews: 0 });
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop()));
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
    await Promise.all(extraDatabases.map((d) => d.close()));
    await db?.dispose();
  });

  it("syncs a due enabled source unasked, moves its next run on, and leaves a disabled one alone", async () => {
    const server = await fake(30);
    const due = await addSource(db, secrets, { url: server.url });
    const off = await addSource(db, secrets, { url: server.url });
    await db.query(sql`UPDATE offer_sources SET enabled = false WHERE id = ${off.sourceId}`);
    await db.query(
      sql`UPDATE offer_sources SET every_minutes = 90, next_run_at = now() - interval '1 hour' WHERE id = ${due.sourceId}`,
    );
    await startScheduler();

    await until(async () => (await finishedRuns(db, due.sourceId)).length > 0);
    expect(await runsOf(db, due.sourceId)).toMatchObject([{ status: "succeeded", seen: 30, new: 30, error: null }]);
    expect(await sourceState(db, due.sourceId)).toEqual({ state: "ok", lastError: null });
    const [next] = await db.query<{ minutesAhead: number }>(sql`
      SELECT extract(epoch FROM next_run_at - now()) / 60 AS "minutesAhead" FROM offer_sources WHERE id = ${due.sourceId}`);
    expect(next.minutesAhead).toBeGreaterThan(89);
    expect(next.minutesAhead).toBeLessThanOrEqual(90);

    // Many passes later: still one run (it is not due again), and none of the disabled source.
    await sleep(1500);
    expect(await runsOf(db, due.sourceId)).toHaveLength(1);
    expect(await runsOf(db, off.sourceId)).toEqual([]);
  });

  it("retries a transient failure with a growing delay, then succeeds", async () => {
    const server = await fake(12);
    server.fail(500, 2);
    const { sourceId } = await addSource(db, secrets, { url: server.url });
    await startScheduler();

    await until(async () => (await finishedRuns(db, sourceId)).some((r) => r.status === "succeeded"), 20_000);
    const runs = await runsOf(db, sourceId);
    expect(runs.map((r) => r.status)).toEqual(["failed", "failed", "succeeded"]);
    expect(runs[0].error).toMatch(/500/);
    expect(runs[2]).toMatchObject({ seen: 12, new: 12 });
    // Backoff: about 1-2 s before the first retry, 2-4 s before the second.
    const gaps = [1, 2].map((i) => runs[i].startedAt.getTime() - runs[i - 1].startedAt.getTime());
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(gaps[0]);
    expect(gaps[1]).toBeGreaterThanOrEqual(1900);
    expect(await sourceState(db, sourceId)).toEqual({ state: "ok", lastError: null });
  });

  it("does not retry a source whose credentials are refused: it shows failing", async () => {
    const server = await fake(5);
    const { sourceId } = await addSource(db, secrets, { url: server.url, apiKey: "not-the-key" });
    await startScheduler();

    await until(async () => (await finishedRuns(db, sourceId)).length > 0);
    // Longer than the first retry could take (1-2 s and a poll).
    await sleep(3000);
    const runs = await runsOf(db, sourceId);
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe("failed");
    const state = await sourceState(db, sourceId);
    expect(state.state).toBe("failing");
    expect(state.lastError).toMatch(/API key/i);
  });

  it("runs a job queued before a stop once a new scheduler starts", async () => {
    const server = await fake(7);
    const { sourceId } = await addSource(db, secrets, { url: server.url });
    // Not due: only "Sync now" queues it.
    await db.query(sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ${sourceId}`);
    // A worker that polls rarely: its first (empty) poll is at start, the next long after the stop.
    const first = await startScheduler(db, { pollingSeconds: 30 });
    await sleep(500);
    expect(await first.syncNow(sourceId)).toMatchObject({ queued: true });
    await first.stop();
    expect(await runsOf(db, sourceId)).toEqual([]);

    await startScheduler();
    await until(async () => (await finishedRuns(db, sourceId)).length > 0);
    expect(await runsOf(db, sourceId)).toMatchObject([{ status: "succeeded", seen: 7, new: 7, error: null }]);
  });

  it("answers 409 to a second Sync now while the first is queued", async () => {
    const server = await fake(3);
    const { sourceId } = await addSource(db, secrets, { url: server.url });
    await db.query(sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ${sourceId}`);
    const scheduler = await startScheduler(db, { pollingSeconds: 30 });
    await sleep(500);
    expect(await scheduler.syncNow(sourceId)).toMatchObject({ queued: true });
    await expect(scheduler.syncNow(sourceId)).rejects.toMatchObject({ status: 409 });
  });

  it("two instances on one database run each due source exactly once", async () => {
    const server = await fake(20);
    const sources = await Promise.all(Array.from({ length: 6 }, () => addSource(db, secrets, { url: server.url })));
    // Not due yet, so both instances are up before any is.
    const ids = sources.map((s) => s.sourceId);
    await db.query(
      sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ANY (${array(ids)}::bigint[])`,
    );
    let other: Database = db;
    if (TEST_DATABASE_URL) {
      // Another process's pool on the same schema.
      const [{ schema }] = await db.query<{ schema: string }>(sql`SELECT current_schema() AS schema`);
      other = await openDatabase({ url: db.url, schema, poolSize: 5 });
      extraDatabases.push(other);
    }
    await startScheduler(db, { dueEverySeconds: 0.05 });
    await startScheduler(other, { dueEverySeconds: 0.05 });
    await db.query(sql`UPDATE offer_sources SET next_run_at = now() WHERE id = ANY (${array(ids)}::bigint[])`);

    await until(async () => {
      const [row] = await db.query<{ n: number }>(sql`
        SELECT count(DISTINCT source_id)::int AS n FROM offer_sync_runs
        WHERE source_id = ANY (${array(ids)}::bigint[]) AND status = 'succeeded'`);
      return row.n === ids.length;
    }, 30_000);
    await sleep(1500);
    const perSource = await db.query<{ runs: number }>(sql`
      SELECT count(r.id)::int AS runs FROM offer_sources s LEFT JOIN offer_sync_runs r ON r.source_id = s.id
      WHERE s.id = ANY (${array(ids)}::bigint[]) GROUP BY s.id`);
    expect(perSource.map((r) => r.runs)).toEqual(ids.map(() => 1));
  });
});

describe("Sync now (POST /api/admin/sources/:id/sync)", () => {
  let t: TestApp;
  let server: FakeEverflow;
  let admin: Awaited<ReturnType<typeof signInWithRoles>>;

  beforeAll(async () => {
    t = await createTestApp({
      seed: { networks: 2, offers: 10, trafficSources: 1 },
      env: { SECRETS_KEY, OFFER_SYNC_SCHEDULER: "true" },
    });
    server = await fake(25);
    admin = await signInWithRoles(t, ["admin"]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const syncNow = (id: number | string, headers?: Record<string, string>) =>
    t.app.inject({ method: "POST", url: `/api/admin/sources/${id}/sync`, headers });

  it("queues a run (202) that lands in the history with its counts; 409 while one is queued", async () => {
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    // Not due: the run below comes from the button alone.
    await t.db.query(sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ${sourceId}`);
    const [first, second] = await Promise.all([syncNow(sourceId, admin.headers), syncNow(sourceId, admin.headers)]);
    const answers = [first, second].sort((a, b) => a.statusCode - b.statusCode);
    expect(answers[0].statusCode, answers[0].body).toBe(202);
    expect(answers[0].json()).toMatchObject({ queued: true });
    expect(answers[1].statusCode).toBe(409);
    expect(answers[1].json()).toEqual({ message: "A sync of this source is already queued or running" });

    await until(async () => (await finishedRuns(t.db, sourceId)).length > 0);
    expect(await runsOf(t.db, sourceId)).toMatchObject([{ status: "succeeded", seen: 25, new: 25 }]);
    // The history the console shows, as the scheduler reads it.
    const [run] = await t.app.services.offerScheduler.history(sourceId);
    expect(run).toMatchObject({ status: "succeeded", seen: 25, new: 25, skipped: 0, error: null });
    expect(Date.parse(run.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(run.startedAt));
  });

  it("answers 404 for an unknown source and 401/403 without an admin", async () => {
    expect((await syncNow(999_999, admin.headers)).statusCode).toBe(404);
    expect((await syncNow("abc", admin.headers)).statusCode).toBe(404);
    expect((await syncNow(1)).statusCode).toBe(401);
    const user = await signInWithRoles(t, []);
    expect((await syncNow(1, user.headers)).statusCode).toBe(403);
    const moderator = await signInWithRoles(t, ["moderator"]);
    expect((await syncNow(1, moderator.headers)).statusCode).toBe(403);
  });

  it("runs the source here when this process does not run the queue", async () => {
    const { sourceId } = await addSource(t.db, t.app.services.secrets, { url: server.url });
    await t.db.query(sql`UPDATE offer_sources SET next_run_at = now() + interval '1 day' WHERE id = ${sourceId}`);
    await t.app.services.offerScheduler.stop();
    try {
      const answer = await syncNow(sourceId, admin.headers);
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toMatchObject({ queued: false });
      await until(async () => (await finishedRuns(t.db, sourceId)).length > 0);
      expect(await runsOf(t.db, sourceId)).toMatchObject([{ status: "succeeded", seen: 25 }]);
    } finally {
      await t.app.services.offerScheduler.start();
    }
  });
});
