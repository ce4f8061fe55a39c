// npm run bench:profile -- [--url postgres://…/db] [--path /?search=…] [--views 20] [--explain] [--search-cache]
//
// Where a page view's database time goes: serves the app with its caches off on an
// existing database (a seeded copy; it is only read, apart from the search log),
// renders each page of the page mix and of the directory (or --path) `views` times, and lists
// every statement by total time, with its EXPLAIN (ANALYZE, BUFFERS) when --explain is given;
// then the statements only the first views made (lists each process caches for a while).
// A statement whose time or buffers grow with the catalogue is what makes a page slower at 1M than at 100k.
import "#server/node-env.ts"; // first: React loads its production build
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ServerBuild } from "react-router";
import { PgDialect } from "drizzle-orm/pg-core";
import { openDatabase, sql, type Database, type Queryable, type SQL } from "#db/client.ts";
import { BUILD_DIR, buildApp } from "#server/app.ts";
import { loadConfig } from "#server/config.ts";
import { PAGE_MIX } from "./mix.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/pages1m" },
    path: { type: "string", multiple: true },
    views: { type: "string", default: "10" },
    cookie: { type: "string" },
    explain: { type: "boolean", default: false },
    /** Keep the 15 s search answer cache: what is left is a logged-in view's own work (render, session, stars). */
    "search-cache": { type: "boolean", default: false },
  },
});
if (!["127.0.0.1", "localhost"].includes(new URL(values.url).hostname))
  throw new Error("Profiles a local PostgreSQL only (127.0.0.1)");

const dialect = new PgDialect();
type Timing = { text: string; statement: SQL; calls: number; ms: number };
const timings = new Map<string, Timing>();

/** The same database, timing every statement by its text (parameters aside). */
function timed(db: Database): Database {
  const wrap =
    (q: Queryable): Queryable["query"] =>
    async (statement) => {
      const started = performance.now();
      try {
        return await q.query(statement);
      } finally {
        const text = dialect.sqlToQuery(statement).sql.replace(/\s+/g, " ").trim();
        const t = timings.get(text) ?? { text, statement, calls: 0, ms: 0 };
        t.calls += 1;
        t.ms += performance.now() - started;
        timings.set(text, t);
      }
    };
  return {
    ...db,
    query: wrap(db),
    transaction: (work) => db.transaction((tx) => work({ ...tx, query: wrap(tx) })),
  };
}

const db = await openDatabase({ url: values.url, poolSize: 4 });
const serverBuild = path.join(BUILD_DIR, "server", "index.js");
if (!fs.existsSync(serverBuild)) throw new Error("No build/: run `npx react-router build` first");
const build = (await import(serverBuild)) as ServerBuild;
const config = loadConfig({
  NODE_ENV: "production",
  LOG_LEVEL: "silent",
  SEED_DEMO_DATA: "false",
  SEARCH_RATE_LIMIT_PER_MINUTE: "100000000",
  // Capacity is measured, not load shedding: on a busy machine the event loop's delay would turn answers into 503s.
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: "0",
  ...(values["search-cache"] ? {} : { SEARCH_CACHE_SECONDS: "0" }),
  PAGE_CACHE_SECONDS: "0",
});
const app = await buildApp({ config, db: timed(db), build });
/** The directory's other pages, named from what the database holds (the same at every seeded size). */
async function directoryPages(): Promise<string[]> {
  const [offer] = await db.query<{ id: number; slug: string }>(
    sql`SELECT id, slug FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`,
  );
  const [network] = await db.query<{ id: number; slug: string }>(
    sql`SELECT id, slug FROM networks WHERE status = 'active' ORDER BY offer_count DESC, id LIMIT 1`,
  );
  const [source] = await db.query<{ id: number }>(
    sql`SELECT id FROM traffic_sources WHERE status = 'active' ORDER BY id LIMIT 1`,
  );
  return [
    "/pay-per-call",
    "/pay-per-call-offers",
    "/networks",
    "/traffic-sources",
    ...(offer ? [`/offer/${offer.id}/${offer.slug}`] : []),
    ...(network ? [`/network/${network.id}/${network.slug}`] : []),
    ...(source ? [`/traffic-sources/details/${source.id}`] : []),
    "/api/top-categories",
  ];
}
const paths = values.path ?? [...PAGE_MIX, ...(await directoryPages())];
const views = Number(values.views);
// One view of each page first: plans and the per-process lists (filter options, ads) are made once.
for (const p of paths) await app.inject({ url: p, headers: values.cookie ? { cookie: values.cookie } : {} });
// Kept for the end: a list cached per process is paid by a first view and at every expiry.
const firstViews = new Map(timings);
timings.clear();
const started = performance.now();
for (let i = 0; i < views; i++)
  for (const p of paths) {
    const res = await app.inject({ url: p, headers: values.cookie ? { cookie: values.cookie } : {} });
    if (res.statusCode !== 200) console.log(`${p}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
const wall = performance.now() - started;
const pageViews = views * paths.length;
const sorted = [...timings.values()].sort((a, b) => b.ms - a.ms);
const dbMs = sorted.reduce((n, t) => n + t.ms, 0);
console.log(
  `${pageViews} page views: ${(wall / pageViews).toFixed(1)} ms each, of which statements ${(dbMs / pageViews).toFixed(1)} ms\n`,
);
/** One statement's line, with its plan when --explain is given. */
async function report(t: Timing, figure: string) {
  console.log(`${figure}  ${String(t.calls).padStart(5)} calls  ${t.text.slice(0, 220)}`);
  if (values.explain && !/^(INSERT|UPDATE|DELETE|SELECT set_config)/i.test(t.text)) {
    const plan = await db.query<{ "QUERY PLAN": string }>(sql`EXPLAIN (ANALYZE, BUFFERS) ${t.statement}`);
    console.log(plan.map((r) => `          ${r["QUERY PLAN"]}`).join("\n"));
  }
}
for (const t of sorted) await report(t, `${(t.ms / pageViews).toFixed(2).padStart(8)} ms/view`);
const cachedLists = [...firstViews.values()].filter((t) => !timings.has(t.text)).sort((a, b) => b.ms - a.ms);
console.log(`\nOnly in the first views (lists cached per process, paid again at each expiry):\n`);
for (const t of cachedLists) await report(t, `${t.ms.toFixed(2).padStart(8)} ms once`);
await app.close();
await db.close();
