// npm run bench:search [-- --sizes 100000,1000000 --db pglite|postgres|both --duration 10 --connections 32 --max-minutes 90]
// npm run bench:pages  [-- the same options]   (or --set search|pages|memory|all)
//   --pglite-from DATA_DIR: copy a seeded PGlite data directory instead of seeding one
//   --postgres-from 100000=pages100k,1000000=pages1m: use seeded copies instead of seeding
//
// For each database and size: a child process (bench/search-server.ts) seeds
// the offers, EXPLAINs every search of the mix (no sequential scan on offers
// allowed) and serves the app on 127.0.0.1; this process then drives it with
// autocannon and compares every scenario to the ceiling of the same run (the
// same server sending a stored answer of the same size: JSON for searches, HTML
// for pages), since the machine's speed varies from run to run.
//
// search: POST /api/offers/search over the fixed mix (caches off, as served), over
//   unique searches (bench/mix.ts: seeded, no answer can come from a cache), and the
//   whole mix on a single connection (the latency one user sees).
// pages: the home page mix anonymous as served and with caches off, unique search
//   pages anonymous and logged in, the page mix logged in, and the server's resident
//   memory after boot and after 1,000 varied page views. A logged-in view is what a
//   browser running the page's script sends (docs/decisions/0029, 0047): the page with its
//   session, script and personal version cookies. Its personal answer comes from the
//   browser's cache while that version holds, as the bench checks first (the page tells no
//   new version, and the answer is kept `private` with a max-age); the request a new
//   version costs, once, is its own row.
//
// Prints a table (with the 1M/100k ratio of each scenario when both sizes ran) and
// writes it to bench/results/. PostgreSQL runs in a dedicated schema of database
// `test` (BENCH_DATABASE_URL to change), dropped after.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { PERSONAL_VERSION_COOKIE, SCRIPT_COOKIE } from "#contracts/personal.ts";
import { serverNodeFlags } from "#server/node-flags.ts";
import { PAGE_MIX, SEARCH_MIX, searchPagePath, uniqueSearches } from "./mix.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100000,1000000" },
    db: { type: "string", default: "both" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    set: { type: "string", default: "search" },
    /**
     * Seeded PostgreSQL databases to use instead of seeding a schema, one per size, e.g.
     * 100000=pages100k,1000000=pages1m (copies: CREATE DATABASE pages1m TEMPLATE seed1m).
     */
    "postgres-from": { type: "string" },
    /** A seeded PGlite data directory (DATA_DIR=… npm run db:seed) to copy instead of seeding one. */
    "pglite-from": { type: "string" },
    "max-minutes": { type: "string", default: "90" },
  },
});

const sizes = values.sizes.split(",").map((s) => Number(s.replace(/_/g, "")));
if (sizes.some((n) => !Number.isSafeInteger(n) || n < 100 || n > 5_000_000))
  throw new Error(`--sizes: integers from 100 to 5000000, got ${values.sizes}`);
const dbs = values.db === "both" ? (["pglite", "postgres"] as const) : [values.db];
if (!dbs.every((d) => d === "pglite" || d === "postgres"))
  throw new Error(`--db must be pglite, postgres or both, got ${values.db}`);
if (!["search", "pages", "memory", "all"].includes(values.set))
  throw new Error(`--set must be search, pages, memory or all`);
const runSearches = values.set === "search" || values.set === "all";
const runPages = values.set === "pages" || values.set === "all";
const runMemory = values.set !== "search";
const pgliteFrom = values["pglite-from"] ? path.resolve(values["pglite-from"], "pglite") : undefined;
if (pgliteFrom && !fs.existsSync(path.join(pgliteFrom, "PG_VERSION")))
  throw new Error(`--pglite-from: no PGlite data directory at ${pgliteFrom} (give the DATA_DIR that was seeded)`);
const duration = Number(values.duration);
const connections = Number(values.connections);
const maxMinutes = Number(values["max-minutes"]);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
if (new URL(POSTGRES_URL).hostname !== "127.0.0.1" && new URL(POSTGRES_URL).hostname !== "localhost") {
  throw new Error("The benchmark only targets a local PostgreSQL (127.0.0.1)");
}
if (!/\/test$/.test(new URL(POSTGRES_URL).pathname)) throw new Error("The benchmark uses the database named test");
const postgresFrom = new Map(
  (values["postgres-from"] ?? "")
    .split(",")
    .filter(Boolean)
    .map((pair) => {
      const [size, name] = pair.split("=");
      if (!/^[a-z_][a-z0-9_]*$/.test(name ?? "") || name === "test")
        throw new Error(`--postgres-from: size=database pairs, got ${pair}`);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${name}`;
      return [Number(size), url.toString()] as const;
    }),
);

/** The goals of issue #16 (PostgreSQL): p99 bounds, and shares of another scenario's throughput. */
const GOALS = {
  /** p99 of the as-served search mix at 100k and at 1M offers. */
  searchAsServedP99: { 100_000: 50, 1_000_000: 150 } as Record<number, number>,
  /** Cold search at 1M offers, 32 connections. */
  coldSearch1m: { rps: 150, p99: 300 },
  singleConnectionP99: 30,
  /** A logged-in page view against the anonymous page as served. */
  loggedInShare: 0.5,
  /** Caches off, 1M offers against 100k. */
  sizeShare: 0.8,
};

/** The scenarios, named once: the table, the goals and the 1M/100k comparison refer to them. */
const S = {
  searchCold: "POST /api/offers/search (mix, cache off)",
  searchServed: "POST /api/offers/search (mix, as served: 15 s answer cache)",
  searchUnique: "POST /api/offers/search (unique searches, no cache can help)",
  searchSingle: "POST /api/offers/search (mix + unique, cache off, 1 connection)",
  jsonCeiling: "static JSON (ceiling)",
  htmlCeiling: "static HTML (page ceiling)",
  pageServed: "GET / page mix, anonymous, as served (5 s page cache)",
  pageCold: "GET / page mix, anonymous, caches off",
  pageUnique: "GET unique search pages, anonymous",
  pageLoggedIn: "GET / page mix, logged in with JS (personal answer kept by the browser)",
  pageLoggedInUnique: "GET unique search pages, logged in with JS",
  personalAnswer: "GET /api/account/personal?v= (once per version of a user's parts)",
  pageLoggedInNoScript: "GET / page mix, logged in without JS (rendered for the user)",
} as const;
/** Scenarios that do all their work on every request: their cost must not grow with the catalogue. */
const UNCACHED: string[] = [
  S.searchCold,
  S.searchUnique,
  S.searchSingle,
  S.pageCold,
  S.pageUnique,
  S.pageLoggedInUnique,
];

type Result = { p50: number; p99: number; rps: number; errors: number; non2xx: number };
type Row = Result & {
  db: string;
  size: number;
  scenario: string;
  /** req/s of the ceiling this row is compared to (same server, same run). */
  ceilingRps?: number;
  connections: number;
  goal?: string;
};
type MemoryUsage = { rss: number; heapUsed: number; external: number };
type Memory = { db: string; size: number; boot: MemoryUsage; afterPages?: MemoryUsage };
const rows: Row[] = [];
const memory: Memory[] = [];
const notes: string[] = [];
let child: ChildProcess | undefined;

// Bounded in time: past the limit the run stops, cleans up and reports what it has.
const deadline = setTimeout(() => {
  notes.push(`Stopped after the ${maxMinutes}-minute limit.`);
  void finish(1);
}, maxMinutes * 60_000);
deadline.unref();

type Ready = {
  port: number;
  coldPort: number;
  seqScans: { payload: string }[];
  staticBytes: number;
  pageBytes: number;
  pages: boolean;
  cookie: string;
  bootMemory: MemoryUsage;
  /** PostgreSQL's shared_buffers (a run at a million offers depends on it, docs/capacity.md). */
  sharedBuffers?: string;
  /** The server's connections to PostgreSQL (DB_POOL_SIZE, docs/decisions/0049). */
  poolSize?: number;
};

/** The server process (bench/search-server.ts); with `seedOnly`, the one that seeds PGlite's data directory first. */
function serverProcess(args: { db: string; size: number; dataDir?: string; seedOnly?: boolean }) {
  const seeded = args.db === "postgres" ? postgresFrom.get(args.size) : undefined;
  return fork(
    path.join(import.meta.dirname, "search-server.ts"),
    [JSON.stringify({ ...args, url: POSTGRES_URL, seeded })],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      // As `npm start` runs the server, so its memory is the product's.
      execArgv: [...serverNodeFlags(), "--max-old-space-size=8192", "--expose-gc"],
    },
  );
}

async function startServer(db: string, size: number): Promise<Ready> {
  const dataDir = db === "pglite" ? fs.mkdtempSync(path.join(os.tmpdir(), "offeratlas-bench-")) : undefined;
  if (dataDir && pgliteFrom) {
    console.log(`  copying ${pgliteFrom}`);
    fs.cpSync(pgliteFrom, dataDir, { recursive: true });
  } else if (dataDir) {
    child = serverProcess({ db, size, dataDir, seedOnly: true });
    const seeder = child;
    seeder.on("message", (msg: { type: string; text?: string }) => {
      if (msg.type === "log") console.log(`  ${msg.text}`);
    });
    const code = await new Promise((resolve) => seeder.once("exit", resolve));
    if (code !== 0) throw new Error(`seeding PGlite failed (${code})`);
  }
  return new Promise((resolve, reject) => {
    child = serverProcess({ db, size, dataDir });
    child.on("message", (msg: { type: string; text?: string }) => {
      if (msg.type === "log") console.log(`  ${msg.text}`);
      if (msg.type === "ready") resolve(msg as never);
      if (msg.type === "error") reject(new Error(msg.text));
    });
    child.on("exit", (code) => {
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`bench server exited (${code})`));
    });
  });
}

/** The server's memory now. */
function memoryNow(): Promise<MemoryUsage> {
  return new Promise((resolve) => {
    const c = child!;
    const onMessage = (msg: { type: string; memory?: MemoryUsage }) => {
      if (msg.type !== "memory") return;
      c.off("message", onMessage);
      resolve(msg.memory!);
    };
    c.on("message", onMessage);
    c.send({ type: "memory" });
  });
}

async function stopServer() {
  const c = child;
  child = undefined;
  if (!c || c.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const kill = setTimeout(() => c.kill("SIGTERM"), 30_000);
    c.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    c.send({ type: "stop" });
  });
}

async function load(
  port: number,
  requests: autocannon.Request[],
  options: { seconds?: number; connections?: number; amount?: number } = {},
): Promise<Result> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: options.connections ?? connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? duration }),
    requests,
  });
  // The load stops with requests still queued at the database: wait for them, so they do not slow the next scenario.
  await fetch(`http://127.0.0.1:${readyPort}/bench/idle`).catch(() => {});
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Each request of a connection takes the next entry of the list. */
function cycle<T>(items: readonly T[], make: (item: T) => autocannon.Request): autocannon.Request[] {
  let i = 0;
  return [{ setupRequest: (req) => ({ ...req, ...make(items[i++ % items.length]) }) } as autocannon.Request];
}

const searchRequest = (p: unknown): autocannon.Request => ({
  method: "POST",
  path: "/api/offers/search",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(p),
});
const pageRequest =
  (cookie?: string) =>
  (path: string): autocannon.Request => ({
    method: "GET",
    path,
    headers: cookie ? { accept: "text/html", cookie } : { accept: "text/html" },
  });

/**
 * The personal version a signed-in page tells its browser (docs/decisions/0047), after checking
 * what the logged-in scenarios take for granted: a page sent with it tells no new one, and the
 * answer under it is one the browser keeps.
 */
/** GET /api/account/personal?v=…, as the page's script sends it for a version its browser does not hold. */
const personalAnswerRequest = (cookie: string, version: string): autocannon.Request => ({
  method: "GET",
  path: `/api/account/personal?v=${version.slice(PERSONAL_VERSION_COOKIE.length + 1)}`,
  headers: { accept: "application/json", cookie: `${cookie}; ${version}` },
});

async function personalVersion(port: number, cookie: string): Promise<string> {
  const told = async (browserCookie: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/faq`, { headers: { cookie: browserCookie } });
    await res.arrayBuffer();
    return res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${PERSONAL_VERSION_COOKIE}=`))
      ?.split(";")[0];
  };
  const version = await told(cookie);
  if (!version) throw new Error("a signed-in page told no personal version");
  if (await told(`${cookie}; ${version}`))
    throw new Error("a page told a new personal version to a browser at the current one");
  const value = version.slice(PERSONAL_VERSION_COOKIE.length + 1);
  const answer = await fetch(`http://127.0.0.1:${port}/api/account/personal?v=${value}`, {
    headers: { cookie: `${cookie}; ${version}` },
  });
  await answer.arrayBuffer();
  if (!/^private, max-age=[1-9]/.test(answer.headers.get("cache-control") ?? ""))
    throw new Error(`the personal answer is not kept by the browser: ${answer.headers.get("cache-control")}`);
  return version;
}

/** Enough unique searches that no scenario runs out and repeats one (each scenario has its own seed). */
const UNIQUE = 30_000;
const uniqueFrom = (seed: number) => uniqueSearches(UNIQUE, seed);

/** The serving app's port, where /bench/idle answers once the database's queue is empty. */
let readyPort = 0;

async function benchOne(db: string, size: number) {
  console.log(`\n== ${db}, ${size.toLocaleString("en-US")} offers`);
  const server = await startServer(db, size);
  readyPort = server.port;
  memory.push({ db, size, boot: server.bootMemory });
  if (server.seqScans.length) {
    notes.push(`${db} ${size}: sequential scan on offers for ${server.seqScans.map((s) => s.payload).join(", ")}`);
  } else {
    notes.push(`${db} ${size}: EXPLAIN of all ${SEARCH_MIX.length} searches of the mix: no sequential scan on offers.`);
  }
  if (server.sharedBuffers) notes.push(`${db} ${size}: the database's shared_buffers: ${server.sharedBuffers}.`);
  if (server.poolSize) notes.push(`${db} ${size}: the server's pool: ${server.poolSize} connections (DB_POOL_SIZE).`);
  const record = (scenario: string, result: Result, ceiling?: Result, extra: Partial<Row> = {}) => {
    const row: Row = { db, size, scenario, ...result, ceilingRps: ceiling?.rps, connections, ...extra };
    rows.push(row);
    console.log(`  ${scenario}: ${Math.round(row.rps)} req/s, p99 ${row.p99} ms`);
    return row;
  };

  if (runSearches) {
    const searches = cycle(SEARCH_MIX, searchRequest);
    // Warm the database's buffers and plans before measuring.
    await load(server.coldPort, searches, { seconds: 3 });
    const ceiling = record(
      `${S.jsonCeiling}, ${server.staticBytes} B`,
      await load(server.port, [{ method: "GET", path: "/bench/static.json" }]),
    );
    // Every search doing its database work (cache off): the cost of a search nobody made in the last seconds.
    const cold = record(S.searchCold, await load(server.coldPort, searches), ceiling);
    if (db === "postgres" && size >= 1_000_000) cold.goal = goal(cold, GOALS.coldSearch1m);
    // As served: a search answer is reused for SEARCH_CACHE_SECONDS (15 s), the mix repeats within that.
    const served = record(S.searchServed, await load(server.port, searches), ceiling);
    const p99Goal = db === "postgres" ? GOALS.searchAsServedP99[size] : undefined;
    if (p99Goal) served.goal = goal(served, { p99: p99Goal });
    // The long tail: every search a new one, through the app as served (its cache cannot help).
    const unique = record(S.searchUnique, await load(server.port, cycle(uniqueFrom(1), searchRequest)), ceiling);
    if (db === "postgres" && size >= 1_000_000) unique.goal = goal(unique, GOALS.coldSearch1m);
    // One user alone: the latency of every shape of search, with nothing queued ahead of it.
    const single = record(
      S.searchSingle,
      await load(server.coldPort, cycle([...SEARCH_MIX, ...uniqueFrom(2).slice(0, 2000)], searchRequest), {
        connections: 1,
      }),
      undefined,
      { connections: 1 },
    );
    if (db === "postgres") single.goal = goal(single, { p99: GOALS.singleConnectionP99 });
  }

  if (runPages && server.pages) {
    const anonymous = pageRequest();
    // What a signed-in browser that runs the page's script sends with every request.
    const loggedInCookie = `${server.cookie}; ${SCRIPT_COOKIE}=1`;
    const pagesOf = (seed: number) => uniqueFrom(seed).map(searchPagePath);
    await load(server.coldPort, cycle(PAGE_MIX, anonymous), { seconds: 3 });
    const ceiling = record(
      `${S.htmlCeiling}, ${server.pageBytes} B`,
      await load(server.port, [{ method: "GET", path: "/bench/static.html" }]),
    );
    const served = record(S.pageServed, await load(server.port, cycle(PAGE_MIX, anonymous)), ceiling);
    record(S.pageCold, await load(server.coldPort, cycle(PAGE_MIX, anonymous)), ceiling);
    record(S.pageUnique, await load(server.port, cycle(pagesOf(3), anonymous)), ceiling);
    // A logged-in view: the page signed-in visitors share, its personal answer from the browser's cache.
    const version = await personalVersion(server.port, loggedInCookie);
    const browsing = pageRequest(`${loggedInCookie}; ${version}`);
    const mine = record(S.pageLoggedIn, await load(server.port, cycle(PAGE_MIX, browsing)), ceiling);
    mine.goal = verdict(
      mine.rps >= GOALS.loggedInShare * served.rps,
      `${pct(mine.rps / served.rps)} of anonymous as served (≥ ${pct(GOALS.loggedInShare)})`,
    );
    // What a new version costs once: the answer asked by a browser that does not hold it yet.
    record(S.personalAnswer, await load(server.port, [personalAnswerRequest(loggedInCookie, version)]), ceiling);
    // A browser without the script gets its own page (the only kind before docs/decisions/0029).
    record(S.pageLoggedInNoScript, await load(server.port, cycle(PAGE_MIX, pageRequest(server.cookie))), ceiling);
    record(S.pageLoggedInUnique, await load(server.port, cycle(pagesOf(4), browsing)), ceiling);
  }
  if (runMemory && server.pages) {
    // Memory: 1,000 varied page views, half of them logged in, then what the server holds.
    const varied = uniqueFrom(5).slice(0, 1000).map(searchPagePath);
    let n = 0;
    const views = await load(
      server.port,
      cycle(varied, (p) => (n++ % 2 ? pageRequest(server.cookie)(p) : pageRequest()(p))),
      { amount: varied.length, connections: 4 },
    );
    memory[memory.length - 1].afterPages = await memoryNow();
    if (views.errors + views.non2xx)
      notes.push(`${db} ${size}: ${views.errors + views.non2xx} of the 1,000 page views failed.`);
  }
  if ((runPages || runMemory) && !server.pages) {
    notes.push("No build/ found: the pages were not measured (run `npx react-router build`).");
  }
  await stopServer();
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const verdict = (ok: boolean, text: string) => `${ok ? "✅" : "❌"} ${text}`;
function goal(row: Row, bound: { rps?: number; p99?: number }): string {
  const parts: string[] = [];
  let ok = true;
  if (bound.rps !== undefined) {
    ok &&= row.rps >= bound.rps;
    parts.push(`≥ ${bound.rps} req/s`);
  }
  if (bound.p99 !== undefined) {
    ok &&= row.p99 <= bound.p99;
    parts.push(`p99 ≤ ${bound.p99} ms`);
  }
  return verdict(ok, parts.join(", "));
}

function table(): string {
  const header =
    "| db | offers | scenario | conns | p50 ms | p99 ms | req/s | of ceiling | errors | goal |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---|";
  const lines = rows.map(
    (r) =>
      `| ${r.db} | ${r.size.toLocaleString("en-US")} | ${r.scenario} | ${r.connections} | ${r.p50} | ${r.p99} | ${Math.round(r.rps)} | ${r.ceilingRps ? pct(r.rps / r.ceilingRps) : ""} | ${r.errors + r.non2xx} | ${r.goal ?? ""} |`,
  );
  return [header, ...lines].join("\n");
}

/** Every scenario that ran at the smallest and the largest size: throughput at the largest against the smallest. */
function sizeTable(): string {
  const sorted = [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b);
  if (sorted.length < 2) return "";
  const [small, large] = [sorted[0], sorted[sorted.length - 1]];
  const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
  const lines: string[] = [];
  for (const r of rows.filter((x) => x.size === large)) {
    const base = rows.find((x) => x.db === r.db && x.size === small && x.scenario === r.scenario);
    if (!base) continue;
    const share = r.rps / base.rps;
    const bound = UNCACHED.includes(r.scenario) ? verdict(share >= GOALS.sizeShare, `≥ ${pct(GOALS.sizeShare)}`) : "";
    lines.push(
      `| ${r.db} | ${r.scenario} | ${Math.round(base.rps)} | ${Math.round(r.rps)} | ${pct(share)} | ${base.p99} → ${r.p99} | ${bound} |`,
    );
  }
  return `### ${label(large)} against ${label(small)} offers\n\n| db | scenario | req/s ${label(small)} | req/s ${label(large)} | ${label(large)}/${label(small)} | p99 ms | goal |\n|---|---|---:|---:|---:|---|---|\n${lines.join("\n")}\n`;
}

function memoryTable(): string {
  if (!memory.length) return "";
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  const cell = (m?: MemoryUsage) =>
    m ? `${mb(m.rss)} (heap ${mb(m.heapUsed)}, outside ${mb(m.external)})` : "(not measured)";
  const lines = memory.map(
    (m) => `| ${m.db} | ${m.size.toLocaleString("en-US")} | ${cell(m.boot)} | ${cell(m.afterPages)} |`,
  );
  return `### Memory of the server, MB, after a garbage collection: resident (JavaScript heap, outside it: buffers and PGlite's WebAssembly memory)\n\nThe server runs as \`npm start\` runs it: \`node ${serverNodeFlags().join(" ")} server/main.ts\`.\n\n| db | offers | after boot | after 1,000 varied page views |\n|---|---:|---:|---:|\n${lines.join("\n")}\n`;
}

let finishing = false;
async function finish(code: number) {
  if (finishing) return;
  finishing = true;
  await stopServer().catch(() => {});
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const kind = values.set === "all" ? "search" : values.set;
  const md = [
    `# Offers ${kind} benchmark ${new Date().toISOString()}`,
    `${connections} connections (unless the row says otherwise), ${duration} s per scenario, 127.0.0.1, ${process.platform} ${process.arch}, ${os.cpus().length} cores, Node ${process.version}. "of ceiling": req/s against the static answer of the same kind served by the same server in the same run.`,
    table(),
    sizeTable(),
    memoryTable(),
    notes.map((n) => `- ${n}`).join("\n"),
  ]
    .filter(Boolean)
    .join("\n\n");
  const dir = path.join(import.meta.dirname, "results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${kind}-${stamp}.md`), `${md}\n`);
  fs.writeFileSync(
    path.join(dir, `${kind}-${stamp}.json`),
    JSON.stringify({ connections, duration, set: values.set, rows, memory, notes }, null, 2),
  );
  console.log(`\n${md}\n\nWritten to bench/results/${kind}-${stamp}.md`);
  process.exit(code);
}

process.on("SIGINT", () => void finish(130));
process.on("SIGTERM", () => void finish(143));

try {
  for (const db of dbs) for (const size of sizes) await benchOne(db, size);
  await finish(0);
} catch (err) {
  notes.push(`Failed: ${(err as Error).message}`);
  await finish(1);
}
