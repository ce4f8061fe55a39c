// Builds the whole app in-process over a fresh seeded database, as `npm start`
// would, so tests exercise the real routes through `inject` or a real socket.
import path from "node:path";
import type { ServerBuild } from "react-router";
import { BUILD_DIR, buildApp } from "#server/app.ts";
import { loadConfig, type Config } from "#server/config.ts";
import { createSiteService } from "#core/sites/sites.ts";
import type { Database } from "#db/client.ts";
import { openTestDatabase } from "./database.ts";
import { DEMO_SEED } from "./templates.ts";

export type TestAppOptions = {
  seed?: { networks?: number; offers?: number; trafficSources?: number } | false;
  env?: Record<string, string>;
  /** Another app's database (several instances on one database): used as it is, never seeded or closed here. */
  db?: Awaited<ReturnType<typeof openTestDatabase>>;
  /** Where searches read (DATABASE_READ_URL's pool). */
  readDb?: Database;
};

export async function createTestApp(options: TestAppOptions = {}) {
  const config: Config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SEED_DEMO_DATA: "false",
    // Tests change data between requests; a cached search answer would hide that.
    SEARCH_CACHE_SECONDS: "0",
    PAGE_CACHE_SECONDS: "0",
    SEARCH_RATE_LIMIT_PER_MINUTE: "100000",
    // Seeding and a whole suite run on this event loop; shedding on its delay would refuse
    // ordinary test requests. The overload suite (tests/faults) runs with the real defaults.
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: "0",
    // Every test account is new: suites that review networks would see every first review held.
    // The rule's own tests turn it on.
    HOLD_FIRST_REVIEWS: "false",
    ...options.env,
  });
  const db =
    options.db ??
    (await openTestDatabase(
      options.seed === false ? undefined : { ...DEMO_SEED, siteId: config.siteId, ...options.seed },
    ));
  await createSiteService(db, config.siteId).ensureDefault();
  const build = (await import(path.join(BUILD_DIR, "server", "index.js"))) as ServerBuild;
  const app = await buildApp({ config, db, readDb: options.readDb, build, clientDir: path.join(BUILD_DIR, "client") });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      if (!options.db) await db.dispose();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
