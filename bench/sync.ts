// npm run bench:sync [-- --sizes 10000,100000 --db pglite|postgres|both --postgres <url> --quick --max-minutes 15]
//
// The offer sync (core/supply/sync.ts) against the fake Everflow server
// (tests/fakes/everflow.ts), which runs in a child process on 127.0.0.1 so that
// this process's memory is the sync's alone. For each database and size: the
// ceiling (paging and mapping the fake server's offers without writing, measured
// in the same run), then three syncs of one source: run 1 (all new), run 2 (no
// changes: no offer row is written, checked by the rows' transaction ids) and
// run 3 after 1% of the payouts moved. Per run: offers/s and its ratio to the ceiling, wall time,
// resident memory growth (peak RSS sampled every 100 ms minus RSS before), heap
// growth, the counts, and the time spent in each kind of statement. Prints a
// table and writes it to bench/results/. PostgreSQL runs in a private schema of
// database `test` (--postgres, BENCH_DATABASE_URL or DATABASE_URL to change),
// dropped after; PGlite in a temporary data directory, removed after.
import { fork, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import { PgDialect } from "drizzle-orm/pg-core";
import { array, openDatabase, sql, type Database, type Queryable, type SQL } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { syncReferenceData } from "#core/reference/sync.ts";
import { createSecrets, parseSecretsKey } from "#core/supply/secrets.ts";
import { createOfferSync, type RunResult } from "#core/supply/sync.ts";
import { everflowPages, mapEverflowOffer } from "#core/supply/platforms/everflow.ts";
import { startFakeEverflow } from "../tests/fakes/everflow.ts";
import { addSource, API_KEY } from "../tests/supply/helpers.ts";

const FAKE_ENV = "BENCH_SYNC_FAKE_COUNT";
/** Offers per page asked of the fake server (the connector's default). */
const PAGE_SIZE = 500;
/** The issue's targets for 100,000 offers into PostgreSQL. */
const TARGETS = { seconds100k: 60, rssMb100k: 200 };

type RunRow = {
  db: string;
  size: number;
  run: string;
  seconds: number;
  offersPerSecond: number;
  ceilingPerSecond: number;
  ratio: number;
  rssGrowthMb: number;
  heapGrowthMb: number;
  counts: Pick<RunResult, "status" | "seen" | "new" | "changed" | "unchanged" | "retired" | "skipped">;
  check: string;
  statements: Record<string, { n: number; ms: number }>;
};

async function main() {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string" },
      quick: { type: "boolean", default: false },
      db: { type: "string", default: "both" },
      postgres: { type: "string" },
      "max-minutes": { type: "string", default: "15" },
    },
  });
  const sizes = (values.sizes ?? (values.quick ? "1000,5000" : "10000,100000"))
    .split(",")
    .map((s) => Number(s.replace(/_/g, "")));
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 100 || n > 1_000_000))
    throw new Error(`--sizes: integers from 100 to 1000000, got ${values.sizes}`);
  const dbs = values.db === "both" ? ["pglite", "postgres"] : [values.db];
  if (!dbs.every((d) => d === "pglite" || d === "postgres"))
    throw new Error(`--db must be pglite, postgres or both, got ${values.db}`);
  const postgresUrl =
    values.postgres ??
    process.env.BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/test";
  const pgUrl = new URL(postgresUrl);
  if (dbs.includes("postgres")) {
    if (pgUrl.hostname !== "127.0.0.1" && pgUrl.hostname !== "localhost")
      throw new Error("The benchmark only targets a local PostgreSQL (127.0.0.1)");
    if (!/\/test$/.test(pgUrl.pathname)) throw new Error("The benchmark uses the database named test");
  }
  const maxMinutes = Number(values["max-minutes"]);

  const rows: RunRow[] = [];
  const notes: string[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  let finished = false;

  async function finish(code: number) {
    if (finished) return;
    finished = true;
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((err) => console.error(String(err)));
    report(rows, notes);
    process.exit(code);
  }
  // Bounded in time: past the limit the run stops, cleans up and reports what it has.
  setTimeout(() => {
    notes.push(`Stopped after the ${maxMinutes}-minute limit.`);
    void finish(1);
  }, maxMinutes * 60_000).unref();
  process.on("SIGINT", () => {
    notes.push("Interrupted.");
    void finish(130);
  });

  try {
    for (const db of dbs as ("pglite" | "postgres")[]) {
      for (const size of sizes) {
        await benchOne(db, size, postgresUrl, rows, notes, cleanups);
      }
    }
  } catch (err) {
    notes.push(`Failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    console.error(err);
    await finish(1);
  }
  await finish(0);
}

/** The fake server in a child process with `count` offers. */
async function startFake(count: number) {
  const child = fork(import.meta.filename, [], {
    env: { ...process.env, [FAKE_ENV]: String(count) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("message", (msg: { type: string; url: string }) => resolve(msg.url));
    child.once("exit", (code) => reject(new Error(`fake Everflow server exited (${code})`)));
  });
  return {
    url,
    /** Moves the payout of every `every`-th offer. */
    bump: (every: number) =>
      new Promise<number>((resolve) => {
        child.once("message", (msg: { bumped: number }) => resolve(msg.bumped));
        child.send({ type: "bump", every });
      }),
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.send({ type: "stop" });
  });
}

/** The ceiling: the connector paging the fake server and mapping every offer, writing nothing. */
async function ceiling(url: string) {
  const start = performance.now();
  let n = 0;
  for await (const page of everflowPages({ endpoint: url, apiKey: API_KEY, pageSize: PAGE_SIZE })) {
    for (const raw of page) {
      mapEverflowOffer(raw);
      n++;
    }
  }
  return { offers: n, perSecond: n / ((performance.now() - start) / 1000) };
}

const dialect = new PgDialect();
/** A statement's kind: its first words, without comments and parameters. */
function kindOf(statement: SQL): string {
  const text = dialect.sqlToQuery(statement).sql.replace(/\s+/g, " ").trim();
  const m =
    /^(WITH \w+|INSERT INTO \w+|UPDATE \w+(?: \w+)? SET \w+|SELECT .*? FROM \w+( WHERE \w+ = \$\d+ AND \w+)?|SELECT \w+|SET LOCAL|\w+)/i.exec(
      text,
    );
  return (m?.[0] ?? text.slice(0, 30)).replace(/SELECT .*? FROM/i, "SELECT … FROM").replace(/= \$\d+/, "= ?");
}

/** The database, timing each statement by kind (transactions' statements included). */
function timed(database: Database, times: Map<string, { n: number; ms: number }>): Database {
  const record = async <T>(statement: SQL, run: () => Promise<T>) => {
    const start = performance.now();
    try {
      return await run();
    } finally {
      const kind = kindOf(statement);
      const entry = times.get(kind) ?? { n: 0, ms: 0 };
      entry.n++;
      entry.ms += performance.now() - start;
      times.set(kind, entry);
    }
  };
  const wrap = (q: Queryable): Queryable => ({
    query: (statement) => record(statement, () => q.query(statement)),
    execScript: (script) => q.execScript(script),
  });
  return {
    kind: database.kind,
    query: (statement) => record(statement, () => database.query(statement)),
    execScript: (script) => database.execScript(script),
    transaction: (work) => database.transaction((tx) => work(wrap(tx))),
    listen: (channel, onPayload) => database.listen(channel, onPayload),
    close: () => database.close(),
  };
}

/** Peak RSS and heap used while `work` runs, sampled every 100 ms. */
async function measured<T>(work: () => Promise<T>) {
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 100);
  const start = performance.now();
  try {
    const value = await work();
    sample();
    return {
      value,
      seconds: (performance.now() - start) / 1000,
      rssGrowthMb: (peakRss - before.rss) / 2 ** 20,
      heapGrowthMb: (peakHeap - before.heapUsed) / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

async function benchOne(
  kind: "pglite" | "postgres",
  size: number,
  postgresUrl: string,
  rows: RunRow[],
  notes: string[],
  cleanups: (() => Promise<void>)[],
) {
  console.log(`\n== ${kind}, ${size.toLocaleString("en-US")} offers`);
  let db: Database;
  if (kind === "postgres") {
    const schema = `bench_sync_${crypto.randomBytes(4).toString("hex")}`;
    db = await openDatabase({ url: postgresUrl, schema, poolSize: 4, applicationName: "bench-sync" });
    const opened = db;
    cleanups.push(async () => {
      await opened.execScript(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await opened.close();
    });
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-sync-"));
    db = await openDatabase({ dataDir });
    const opened = db;
    cleanups.push(async () => {
      await opened.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  }
  await migrate(db);
  await syncReferenceData(db);

  const fake = await startFake(size);
  cleanups.push(fake.stop);

  // A key made for this run only: the source's API key is sealed with it, as in production.
  const secrets = createSecrets(parseSecretsKey(crypto.randomBytes(32).toString("hex")));
  const { sourceId } = await addSource(db, secrets, { url: fake.url, pageSize: PAGE_SIZE });
  const times = new Map<string, { n: number; ms: number }>();
  const sync = createOfferSync(timed(db, times), {
    secrets,
    onCatalogueChanged: () => {},
    log: { info: () => {}, warn: (msg) => console.warn(msg) },
  });

  const top = await ceiling(fake.url);
  if (top.offers !== size) throw new Error(`the fake server listed ${top.offers} offers, not ${size}`);
  console.log(
    `  ceiling (paging and mapping, no writes): ${Math.round(top.perSecond).toLocaleString("en-US")} offers/s`,
  );

  const bumpEvery = 100;
  for (const run of ["1 all new", "2 no changes", "3 1% payouts moved"]) {
    if (run.startsWith("3")) await fake.bump(bumpEvery);
    // The next transaction id (modulo 2^32, as xmin shows it): rows this run writes carry it or a later one.
    const [{ xid: xidBefore }] = await db.query<{ xid: number }>(sql`SELECT (txid_current() % 4294967296) + 1 AS xid`);
    times.clear();
    const m = await measured(() => sync.run(sourceId));
    const r = m.value;
    const counts = {
      status: r.status,
      seen: r.seen,
      new: r.new,
      changed: r.changed,
      unchanged: r.unchanged,
      retired: r.retired,
      skipped: r.skipped,
    };
    let check: string;
    if (run.startsWith("1")) check = r.new === size && r.seen === size ? "ok" : "UNEXPECTED";
    else if (run.startsWith("2")) {
      // What a run with no changes wrote: offer rows with a newer transaction id than before it, history rows.
      const [w] = await db.query<{ written: number; history: number }>(sql`
        SELECT (SELECT count(*)::int FROM offers o WHERE o.source_id = ${sourceId}
                  AND o.xmin::text::bigint >= ${xidBefore}) AS written,
               (SELECT count(*)::int FROM offer_history WHERE run_id = ${r.runId}) AS history`);
      const ok = r.unchanged === r.seen && r.new === 0 && r.changed === 0 && w.written === 0 && w.history === 0;
      check = `${ok ? "ok" : "UNEXPECTED"}: ${w.written} offer rows written, ${w.history} history rows`;
    } else {
      const moved = Math.floor(size / bumpEvery);
      check = r.changed === moved && r.new === 0 ? `ok (${moved} moved)` : `UNEXPECTED (${moved} moved)`;
    }
    const row: RunRow = {
      db: kind,
      size,
      run,
      seconds: m.seconds,
      offersPerSecond: r.seen / m.seconds,
      ceilingPerSecond: top.perSecond,
      ratio: r.seen / m.seconds / top.perSecond,
      rssGrowthMb: m.rssGrowthMb,
      heapGrowthMb: m.heapGrowthMb,
      counts,
      check,
      statements: Object.fromEntries(
        [...times].sort((a, b) => b[1].ms - a[1].ms).map(([k, v]) => [k, { n: v.n, ms: Math.round(v.ms) }]),
      ),
    };
    rows.push(row);
    console.log(
      `  run ${run}: ${m.seconds.toFixed(2)} s, ${Math.round(row.offersPerSecond).toLocaleString("en-US")} offers/s ` +
        `(${(row.ratio * 100).toFixed(1)}% of the ceiling), RSS +${m.rssGrowthMb.toFixed(0)} MB, heap +${m.heapGrowthMb.toFixed(0)} MB, ` +
        `${JSON.stringify(counts)} ${check}`,
    );
    const slowest = Object.entries(row.statements).slice(0, 4);
    console.log(`    slowest statements: ${slowest.map(([k, v]) => `${k} ×${v.n} ${v.ms} ms`).join("; ")}`);
  }
  if (kind === "postgres" && size >= 100_000) {
    const first = rows.find((r) => r.db === kind && r.size === size && r.run.startsWith("1"));
    if (first) {
      const met = first.seconds < TARGETS.seconds100k && first.rssGrowthMb < TARGETS.rssMb100k;
      notes.push(
        `PostgreSQL ${size}: first run ${first.seconds.toFixed(1)} s (target < ${TARGETS.seconds100k} s), RSS growth ` +
          `${first.rssGrowthMb.toFixed(0)} MB (target < ${TARGETS.rssMb100k} MB): ${met ? "met" : "NOT met"}.`,
      );
    }
  }
  // The plan of a batch's lookup (500 ids, as a batch has), for the report.
  const ids = Array.from({ length: 500 }, (_, i) => String(size - i));
  const plan = async (statement: SQL) =>
    (await db.query<{ "QUERY PLAN": string }>(statement)).map((r) => r["QUERY PLAN"]).join(" / ");
  const lookupPlan = await plan(sql`
    EXPLAIN (ANALYZE, COSTS OFF) SELECT id, source_hash FROM offers
    WHERE source_id = ${sourceId} AND external_id = ANY (${array(ids)}::text[])`);
  await db.query(sql`ANALYZE offers`);
  const analyzedPlan = await plan(sql`
    EXPLAIN (ANALYZE, COSTS OFF) SELECT id, source_hash FROM offers
    WHERE source_id = ${sourceId} AND external_id = ANY (${array(ids)}::text[])`);
  const short = (p: string) => p.replace(/'\{[^}]*\}'/g, "'{…500 ids}'");
  notes.push(`${kind} ${size}: plan of a batch's lookup: ${short(lookupPlan)}`);
  notes.push(`${kind} ${size}: the same after ANALYZE offers: ${short(analyzedPlan)}`);
  const seenIds = seenIdsMemory(size);
  if (!notes.some((n) => n.startsWith(`The set of external ids a run of ${size}`)))
    notes.push(
      `The set of external ids a run of ${size} offers keeps for its misses: ${seenIds.toFixed(1)} MB of heap.`,
    );
  console.log(`  lookup plan: ${short(lookupPlan)}\n  after ANALYZE: ${short(analyzedPlan)}`);
  const pgliteNote = "PGlite runs inside this process: its WebAssembly memory counts in the RSS growth.";
  if (kind === "pglite" && !notes.includes(pgliteNote)) notes.push(pgliteNote);
  // This size's database and fake server go now; the next size starts clean.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/** The heap a run's set of seen external ids takes (core/supply/sync.ts), measured between full collections. */
function seenIdsMemory(size: number): number {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const ids = new Set<string>();
  for (let n = 1; n <= size; n++) ids.add(String(n));
  gc();
  // Read after the collection, so the set is still alive when measured.
  const mb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  return ids.size === size ? mb : NaN;
}

function report(rows: RunRow[], notes: string[]) {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const lines = [
    `# Offer sync benchmark, ${new Date().toISOString()}`,
    "",
    `Fake Everflow server in a child process on 127.0.0.1, ${PAGE_SIZE} offers per page; Node ${process.version}, ` +
      `${os.cpus().length} CPUs. Ceiling: the connector paging and mapping the same offers without writing, ` +
      "measured in the same run; ratio = offers/s of the run ÷ the ceiling.",
    "",
    "| db | offers | run | seconds | offers/s | ceiling offers/s | ratio | RSS growth MB | heap growth MB | seen | new | changed | unchanged | retired | skipped | check |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.db} | ${r.size} | ${r.run} | ${r.seconds.toFixed(2)} | ${Math.round(r.offersPerSecond)} | ` +
        `${Math.round(r.ceilingPerSecond)} | ${(r.ratio * 100).toFixed(1)}% | ${r.rssGrowthMb.toFixed(0)} | ` +
        `${r.heapGrowthMb.toFixed(0)} | ${r.counts.seen} | ${r.counts.new} | ${r.counts.changed} | ` +
        `${r.counts.unchanged} | ${r.counts.retired} | ${r.counts.skipped} | ${r.check} |`,
    ),
    "",
    "Time per kind of statement (ms, count):",
    "",
    ...rows.map(
      (r) =>
        `- ${r.db} ${r.size} run ${r.run}: ` +
        Object.entries(r.statements)
          .slice(0, 6)
          .map(([k, v]) => `\`${k}\` ${v.ms} ms ×${v.n}`)
          .join(", "),
    ),
    "",
    ...notes.map((n) => `- ${n}`),
    "",
  ];
  console.log(`\n${lines.join("\n")}`);
  if (!rows.length) return;
  const dir = path.join(import.meta.dirname, "results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `sync-${stamp}.md`), lines.join("\n"));
  fs.writeFileSync(path.join(dir, `sync-${stamp}.json`), `${JSON.stringify({ rows, notes }, null, 2)}\n`);
  console.log(`Written to bench/results/sync-${stamp}.{md,json}`);
}

// ---------------------------------------------------------------------------
// Child mode: the fake Everflow server, driven over IPC, gone with its parent.

async function fakeServer() {
  const count = Number(process.env[FAKE_ENV]);
  const fake = await startFakeEverflow({ apiKey: API_KEY, count });
  const stop = async () => {
    await fake.close();
    process.exit(0);
  };
  // Bounded: never outlives its parent, nor 30 minutes.
  setTimeout(() => void stop(), 30 * 60_000).unref();
  process.on("disconnect", () => void stop());
  process.on("message", (msg: { type: string; every?: number }) => {
    if (msg.type === "stop") void stop();
    if (msg.type === "bump" && msg.every) {
      // Every `every`-th offer (a CPA offer: its payout moves) gets a new version.
      let bumped = 0;
      for (let n = msg.every; n <= count; n += msg.every) {
        fake.state.versions.set(n, (fake.state.versions.get(n) ?? 0) + 1);
        bumped++;
      }
      process.send?.({ type: "bumped", bumped });
    }
  });
  process.send?.({ type: "ready", url: fake.url });
}

if (process.env[FAKE_ENV]) await fakeServer();
else await main();
