// `kill -9` during a 100,000-offer sync (issue #13): `npm run offers:sync` runs in a
// child process against the test's PostgreSQL schema and the fake Everflow server
// (in this process, on 127.0.0.1); once more than 20,000 offers are written it is
// killed with SIGKILL. What it wrote must be whole batches (each batch is one
// transaction: its offers with their history rows), its run row is left 'running',
// its advisory lock goes with its connection, and the next run completes with the
// right counts and marks the dead run failed ("interrupted").
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { syncReferenceData } from "#core/reference/sync.ts";
import { createSecrets } from "#core/supply/secrets.ts";
import { createOfferSync, INTERRUPTED } from "#core/supply/sync.ts";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/database.ts";
import { startFakeEverflow, type FakeEverflow } from "../fakes/everflow.ts";
import { addSource, API_KEY, SECRETS_KEY } from "../supply/helpers.ts";

if (!TEST_DATABASE_URL) {
  console.warn(
    "tests/faults/sync-kill.test.ts: skipped, TEST_DATABASE_URL is not set (the PostgreSQL run of CI sets it)",
  );
}

const root = path.resolve(import.meta.dirname, "..", "..");
const OFFERS = 100_000;
/** The sync's default batch (core/supply/sync.ts), which the command uses. */
const BATCH = 500;
const KILL_AFTER = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!TEST_DATABASE_URL)("kill -9 during a 100,000-offer sync", () => {
  let db: TestDatabase;
  let fake: FakeEverflow;
  let child: ChildProcess | undefined;
  let schema: string;
  let sourceId: number;
  const secrets = createSecrets(Buffer.from(SECRETS_KEY, "hex"));

  beforeAll(async () => {
    db = await openTestDatabase();
    await syncReferenceData(db);
    [{ schema }] = await db.query<{ schema: string }>(sql`SELECT current_schema() AS schema`);
    fake = await startFakeEverflow({ apiKey: API_KEY, count: OFFERS });
    ({ sourceId } = await addSource(db, secrets, { url: fake.url, pageSize: 500 }));
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await fake?.close();
    await db?.dispose();
  });

  const counts = async () =>
    (
      await db.query<{ offers: number; history: number }>(sql`
        SELECT (SELECT count(*)::int FROM offers WHERE source_id = ${sourceId}) AS offers,
          (SELECT count(*)::int FROM offer_history h JOIN offers o ON o.id = h.offer_id
           WHERE o.source_id = ${sourceId}) AS history`)
    )[0];

  /** Advisory locks on the source held by any session (the sync's lock: see core/supply/sync.ts). */
  const sourceLocks = async () =>
    (
      await db.query<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND classid::int = hashtext(current_schema() || ':offer-sources') AND objid::int = ${sourceId}::int`)
    )[0].n;

  it("leaves whole batches and a 'running' run; the next run completes with the right counts", async () => {
    // The command connects to the test's schema through the URL's startup options.
    const url = new URL(db.url as string);
    url.searchParams.set("options", `-c search_path=${schema},public`);
    const started = Date.now();
    const output: string[] = [];
    const proc = spawn(process.execPath, [path.join(root, "scripts", "offers-sync.ts"), "--source", String(sourceId)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url.href, SECRETS_KEY, NODE_ENV: "test", LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
      // Never outlives the test, whatever happens to it.
      timeout: 120_000,
      killSignal: "SIGKILL",
    });
    child = proc;
    proc.stdout.on("data", (d: Buffer) => output.push(d.toString()));
    proc.stderr.on("data", (d: Buffer) => output.push(d.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      proc.once("exit", (code, signal) => resolve(signal ?? code)),
    );

    // Killed mid-run, once some batches are in.
    let seen = 0;
    while (seen <= KILL_AFTER) {
      if (proc.exitCode !== null) throw new Error(`the sync ended before it was killed: ${output.join("")}`);
      if (Date.now() - started > 90_000) throw new Error(`only ${seen} offers after 90 s: ${output.join("")}`);
      await sleep(25);
      seen = (await counts()).offers;
    }
    proc.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    // Its connections went with it, and its lock with them.
    for (let i = 0; i < 100 && (await sourceLocks()) > 0; i++) await sleep(50);
    expect(await sourceLocks()).toBe(0);

    const written = await counts();
    expect(written.offers).toBeGreaterThan(KILL_AFTER);
    expect(written.offers).toBeLessThan(OFFERS);
    // Whole batches only: a batch's offers and their history rows commit together.
    expect(written.offers % BATCH).toBe(0);
    expect(written.history).toBe(written.offers);
    const runs = await db.query<{ id: number; status: string; new: number }>(
      sql`SELECT id, status, new FROM offer_sync_runs WHERE source_id = ${sourceId} ORDER BY id`,
    );
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe("running");
    // Its counts are saved after each batch commits: the last batch's may not have been.
    expect([written.offers, written.offers - BATCH]).toContain(runs[0].new);

    const sync = createOfferSync(db, { secrets, onCatalogueChanged: () => {}, log: { info() {}, warn() {} } });
    const next = await sync.run(sourceId);
    expect(next).toMatchObject({
      status: "succeeded",
      seen: OFFERS,
      new: OFFERS - written.offers,
      changed: 0,
      unchanged: written.offers,
      retired: 0,
      skipped: 0,
    });
    expect(await counts()).toEqual({ offers: OFFERS, history: OFFERS });
    const after = await db.query(
      sql`SELECT id, status, error FROM offer_sync_runs WHERE source_id = ${sourceId} ORDER BY id`,
    );
    expect(after).toEqual([
      { id: runs[0].id, status: "failed", error: INTERRUPTED },
      { id: next.runId, status: "succeeded", error: null },
    ]);
    expect(await sourceLocks()).toBe(0);
  }, 180_000);
});
