// Child process of bench/search.ts: seeds one database, checks every search
// plan for sequential scans on offers, then serves the real app on 127.0.0.1
// with one extra route, a static JSON answer of the same size as a search
// answer (the ceiling: the same server doing no work). Talks to the parent over IPC:
// it hands over a logged-in user's session cookie and reports its resident memory.
// PGlite is file-backed like a real server's (DATA_DIR), seeded, then opened anew:
// the memory after boot is what a server holding that catalogue starts with.
import "#server/node-env.ts"; // first: React loads its production build
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { openDatabase, sql, type Database, type SQL } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { BUILD_DIR, buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { createSiteService } from "#core/sites/sites.ts";
import { createOfferService } from "#core/offers/offers.ts";
import { parseOfferSearchPayload } from "#contracts/offers.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { SEARCH_MIX } from "./mix.ts";

type Args = {
  db: "pglite" | "postgres";
  size: number;
  url?: string;
  /** PGlite: the data directory (the parent's temporary one, removed when this process stops). */
  dataDir?: string;
  /** PostgreSQL: a database seeded beforehand (its own copy), used instead of seeding a schema. */
  seeded?: string;
  /** PGlite: seed `dataDir` and exit. */
  seedOnly?: boolean;
};
const args = JSON.parse(process.argv[2]) as Args;
const send = (msg: unknown) => process.send?.(msg);
const log = (text: string) => send({ type: "log", text });

let db: Database | undefined;
let schema: string | undefined;
let dataDir: string | undefined;
let server: { close(): Promise<unknown> } | undefined;
let coldServer: { close(): Promise<unknown> } | undefined;

async function cleanup() {
  if (!db) return;
  try {
    // Stop serving first: in-flight requests would otherwise hold locks the DROP waits for.
    await server?.close();
    await coldServer?.close();
    // Background work of the app (outbox, cleanups) may still touch the schema: retry a deadlock.
    for (let attempt = 1; schema; attempt++) {
      try {
        await db.execScript(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        schema = undefined;
      } catch (err) {
        if (attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
    await db.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  } catch (err) {
    log(`cleanup failed: ${String(err)}`);
  }
  db = undefined;
}

/**
 * Memory (bytes) once the garbage collector ran (the parent starts this process with --expose-gc):
 * resident, the JavaScript heap, and outside it (buffers and PGlite's WebAssembly memory).
 */
function residentMemory() {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, external };
}

process.on("message", async (msg: { type: string }) => {
  if (msg.type === "memory") send({ type: "memory", memory: residentMemory() });
  if (msg.type === "stop") {
    await cleanup();
    process.exit(0);
  }
});
process.on("SIGTERM", async () => {
  await cleanup();
  process.exit(1);
});

type PlanNode = { "Node Type"?: string; "Relation Name"?: string; Plan?: PlanNode; Plans?: PlanNode[] };
function scansOffersSequentially(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(scansOffersSequentially);
  if (!node || typeof node !== "object") return false;
  const n = node as PlanNode;
  if (n["Node Type"] === "Seq Scan" && n["Relation Name"] === "offers") return true;
  return scansOffersSequentially(n.Plan) || (n.Plans ?? []).some(scansOffersSequentially);
}

/** EXPLAIN every statement one search runs; report plans that scan offers sequentially. */
async function checkPlans(database: Database): Promise<{ payload: string; statement: string }[]> {
  const recorded: SQL[] = [];
  const recorder: Database = {
    ...database,
    query: (statement) => {
      recorded.push(statement);
      return database.query(statement);
    },
    transaction: (work) =>
      database.transaction((tx) =>
        work({
          ...tx,
          query: (statement) => {
            recorded.push(statement);
            return tx.query(statement);
          },
        }),
      ),
  };
  const offers = createOfferService(recorder, { ipHashSalt: "", searchCacheTtlMs: 0 });
  const problems: { payload: string; statement: string }[] = [];
  for (const payload of SEARCH_MIX) {
    recorded.length = 0;
    await offers.search(parseOfferSearchPayload(payload));
    // Plans are taken as the search runs them: in a transaction, after every
    // planner setting the search made before that statement (it switches
    // between walking an order index and reading the text index).
    const isSettings = (s: SQL) => /set_config/.test(JSON.stringify(s.queryChunks));
    for (const [i, statement] of recorded.entries()) {
      if (isSettings(statement)) continue;
      const plan = await database.transaction(async (tx) => {
        for (const settings of recorded.slice(0, i).filter(isSettings)) await tx.query(settings);
        return tx.query<{ "QUERY PLAN": unknown }>(sql`EXPLAIN (FORMAT JSON) ${statement}`);
      });
      if (scansOffersSequentially(plan[0]["QUERY PLAN"])) {
        problems.push({
          payload: JSON.stringify(payload),
          statement: JSON.stringify(plan[0]["QUERY PLAN"]).slice(0, 600),
        });
      }
    }
  }
  return problems;
}

// One client drives all the load from 127.0.0.1: the per-address search limit would refuse it.
const benchEnv = {
  NODE_ENV: "production",
  // The pool `npm start` opens (twice the cores), unless the run says otherwise.
  ...(process.env.DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.DB_POOL_SIZE } : {}),
  LOG_LEVEL: "silent",
  SEED_DEMO_DATA: "false",
  SEARCH_RATE_LIMIT_PER_MINUTE: "100000000",
  // Capacity is measured, not load shedding: on a busy machine the event loop's delay would turn answers into 503s.
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: "0",
};

async function seed(database: Database, siteId: string) {
  const started = Date.now();
  await migrate(database);
  const networks = Math.max(50, Math.min(2000, Math.round(args.size / 300)));
  await seedDemoData(database, {
    siteId,
    networks,
    offers: args.size,
    trafficSources: 20,
    log: (m) => (/offers: \d+0{4}\//.test(m) ? log(`seed ${args.db}: ${m}`) : undefined),
  });
  await createSiteService(database, siteId).ensureDefault();
  await database.execScript("VACUUM ANALYZE");
  log(`seeded ${args.size} offers on ${args.db} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function main() {
  const config = loadConfig(benchEnv);
  const coldConfig = loadConfig({ ...benchEnv, SEARCH_CACHE_SECONDS: "0", PAGE_CACHE_SECONDS: "0" });
  if (args.db === "postgres" && args.seeded) {
    // A seeded copy made for benchmarks: used as it is (the bench user and the search log are written
    // to it), once brought to the current schema, as a server starting on it would (migration 0032
    // rewrites the offers: minutes at a million, once).
    db = await openDatabase({ url: args.seeded, poolSize: config.database.poolSize });
    const applied = await migrate(db);
    if (applied.length) log(`migrated ${args.seeded}: ${applied.join(", ")}`);
  } else if (args.db === "postgres") {
    schema = `bench_${crypto.randomBytes(4).toString("hex")}`;
    db = await openDatabase({ url: args.url, schema, poolSize: config.database.poolSize });
    await seed(db, config.siteId);
  } else if (args.seedOnly) {
    // PGlite is seeded by a process of its own (the parent runs this one first), so the
    // serving process's memory is a server's that opened its data directory, not the seeding's.
    const seeding = await openDatabase({ dataDir: args.dataDir });
    await seed(seeding, config.siteId);
    await seeding.close();
    process.exit(0);
  } else {
    // A seeded data directory (--pglite-from copies one): brought to the current schema first, as a
    // server starting on it would.
    dataDir = args.dataDir;
    db = await openDatabase({ dataDir });
    const applied = await migrate(db);
    if (applied.length) log(`migrated ${dataDir}: ${applied.join(", ")}`);
  }

  const seqScans = await checkPlans(db);

  const serverBuild = path.join(BUILD_DIR, "server", "index.js");
  const build = fs.existsSync(serverBuild) ? ((await import(serverBuild)) as ServerBuild) : undefined;
  const app = await buildApp({ config, db, build, clientDir: build ? path.join(BUILD_DIR, "client") : undefined });

  // The ceiling: a real search answer, serialised and encoded once, served as is.
  const sample = Buffer.from(
    JSON.stringify(await app.services.offers.search(parseOfferSearchPayload({ query: "casino" }))),
  );
  app.get("/bench/static.json", async (_request, reply) =>
    reply.header("content-type", "application/json; charset=utf-8").send(sample),
  );
  // Answers once every statement queued before it has run (PGlite runs them one at a
  // time): the next scenario starts on an idle server, not behind the last one's queue.
  app.get("/bench/idle", async () => {
    await db!.query(sql`SELECT 1`);
    return { idle: true };
  });
  // The page ceiling: the home page's HTML, rendered and encoded once, served as is (same size, no work).
  let page: Buffer = Buffer.alloc(0);
  app.get("/bench/static.html", async (_request, reply) =>
    reply.header("content-type", "text/html; charset=utf-8").send(page),
  );

  // The same app with the search and page caches off, to measure every request doing all its work.
  const coldApp = await buildApp({ config: coldConfig, db, build });
  server = app;
  coldServer = coldApp;
  await app.listen({ host: "127.0.0.1", port: 0 });
  await coldApp.listen({ host: "127.0.0.1", port: 0 });
  if (build) page = (await coldApp.inject("/")).rawPayload;
  const cookie = await logInBenchUser(app);
  const portOf = (a: typeof app) => {
    const address = a.server.address();
    return typeof address === "object" && address ? address.port : 0;
  };
  // What a run at a million offers depends on most (docs/capacity.md): the server's buffer memory.
  const sharedBuffers =
    db.kind === "postgres"
      ? (await db.query<{ v: string }>(sql`SELECT current_setting('shared_buffers') AS v`))[0].v
      : undefined;
  send({
    type: "ready",
    sharedBuffers,
    poolSize: db.kind === "postgres" ? config.database.poolSize : undefined,
    port: portOf(app),
    coldPort: portOf(coldApp),
    seqScans,
    staticBytes: sample.length,
    pageBytes: page.length,
    pages: Boolean(build),
    cookie,
    bootMemory: residentMemory(),
  });
}

/**
 * An affiliate with an account who follows a few offers: the Cookie header of their
 * session, for logged-in page views (the stars of the rows on screen are looked up).
 */
async function logInBenchUser(app: Awaited<ReturnType<typeof buildApp>>): Promise<string> {
  const { auth, watchlist } = app.services;
  const email = "bench@example.com";
  const password = "bench-Passw0rd-for-load-tests";
  // A seeded copy used again already has the user (register answers 409).
  await auth.register(loadConfig({}).siteId, { email, password, name: "Bench Affiliate" }).catch(() => undefined);
  const session = await auth.login({ email, password, remember: true }, { ip: "127.0.0.1" });
  const offers = await app.services.offers.search(parseOfferSearchPayload({}));
  for (const offer of offers.offers.slice(0, 5)) await watchlist.follow(session.user.id, { offerId: offer.id });
  return `${AUTH_COOKIE}=${encodeURIComponent(session.token)}`;
}

main().catch(async (err) => {
  send({ type: "error", text: String(err?.stack ?? err) });
  await cleanup();
  process.exit(1);
});
