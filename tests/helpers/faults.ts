// Test apps for fault injection: like createTestApp, but the serving database is
// opened the way `npm start` opens it (server/boot.ts: pool size and limits from
// the configuration), under its own application_name, so a test can terminate,
// lock out or refuse exactly its own connections. Migrations and the seed run on
// a connection without the serving limits, as at boot.
import crypto from "node:crypto";
import path from "node:path";
import pg from "pg";
import type { ServerBuild } from "react-router";
import { BUILD_DIR, buildApp } from "#server/app.ts";
import { servingDatabaseOptions } from "#server/boot.ts";
import { loadConfig, type Config } from "#server/config.ts";
import { openDatabase, type Database } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { seedDemoData } from "#db/seed/demo.ts";
import { createSiteService } from "#core/sites/sites.ts";
import { TEST_DATABASE_URL } from "./database.ts";

export type FaultAppOptions = {
  env?: Record<string, string>;
  seed?: { networks?: number; offers?: number; trafficSources?: number };
  /** PostgreSQL URL (default TEST_DATABASE_URL); a throwaway database's, for instance. */
  url?: string;
  /** PostgreSQL: work in a private schema (default), or in the URL's database as is. */
  isolate?: boolean;
};

export async function createFaultApp(options: FaultAppOptions = {}) {
  const url = options.url ?? TEST_DATABASE_URL;
  const tag = crypto.randomBytes(5).toString("hex");
  const schema = url && options.isolate !== false ? `f_${tag}` : undefined;
  const applicationName = `oa_fault_${tag}`;
  const config: Config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SEED_DEMO_DATA: "false",
    SEARCH_CACHE_SECONDS: "0",
    PAGE_CACHE_SECONDS: "0",
    SEARCH_RATE_LIMIT_PER_MINUTE: "1000000",
    ...options.env,
  });
  const connectionErrors: Error[] = [];
  const serving = {
    ...servingDatabaseOptions(config, () => {}),
    url,
    dataDir: undefined,
    schema,
    applicationName,
    onConnectionError: (err: Error) => void connectionErrors.push(err),
  };
  const seed = async (db: Database) => {
    await migrate(db);
    await seedDemoData(db, {
      siteId: config.siteId,
      networks: 10,
      offers: 500,
      trafficSources: 4,
      reviews: 0,
      ...options.seed,
    });
    await createSiteService(db, config.siteId).ensureDefault();
  };
  let db: Database;
  if (url) {
    const maintenance = await openDatabase({ url, schema, applicationName: `${applicationName}_boot` });
    await seed(maintenance);
    await maintenance.close();
    db = await openDatabase(serving);
  } else {
    // In memory: one instance for all (PGlite's limits only bound its queue).
    db = await openDatabase(serving);
    await seed(db);
  }
  const build = (await import(path.join(BUILD_DIR, "server", "index.js"))) as ServerBuild;
  const app = await buildApp({ config, db, build, clientDir: path.join(BUILD_DIR, "client") });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    app,
    db,
    config,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    applicationName,
    schema,
    connectionErrors,
    async close() {
      await app.close();
      await db.close().catch(() => {});
      if (url && schema) await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

export type FaultApp = Awaited<ReturnType<typeof createFaultApp>>;

/** One statement on a connection of its own, without any limits. */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
) {
  const client = new pg.Client({ connectionString: url, application_name: "oa_fault_admin" });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Ends every backend of the app's pool (as an administrator or a crash would); how many. */
export async function terminateBackends(url: string, applicationName: string): Promise<number> {
  const rows = await adminQuery<{ ok: boolean }>(
    url,
    `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
    [applicationName],
  );
  return rows.filter((r) => r.ok).length;
}

/** A URL naming another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export type Answer = { status: number; ms: number; body: string; headers: Headers };

/** One request with a client-side bound, timed. */
export async function timed(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const body = await res.text();
  return { status: res.status, ms: performance.now() - started, body, headers: res.headers };
}

export const searchInit = (query: string, page = 1): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ query, page }),
});
