// `node db/seed/cli.ts [--offers N] [--networks N] [--traffic-sources N] [--seed N] [--reset]`
// Migrates DATABASE_URL (or the embedded database under DATA_DIR) and fills it
// with demo data. Without --reset it refuses to touch a database that already
// has networks; --reset empties the content tables first.
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, sql } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { ConfigError, loadConfig } from "#server/config.ts";
import { DEMO_DEFAULTS, isDatabaseEmpty, seedDemoData } from "./demo.ts";

const USAGE = "Usage: node db/seed/cli.ts [--offers N] [--networks N] [--traffic-sources N] [--seed N] [--reset]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      offers: { type: "string" },
      networks: { type: "string" },
      "traffic-sources": { type: "string" },
      seed: { type: "string" },
      reset: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  }));
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function intOption(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ""));
  if (!Number.isSafeInteger(n) || n < min) fail(`--${name} must be an integer >= ${min}, got "${raw}"\n${USAGE}`);
  return n;
}

const offers = intOption("offers", values.offers, DEMO_DEFAULTS.offers);
const networks = intOption("networks", values.networks, DEMO_DEFAULTS.networks, offers > 0 ? 1 : 0);
const trafficSources = intOption("traffic-sources", values["traffic-sources"], DEMO_DEFAULTS.trafficSources);
const seed = intOption("seed", values.seed, DEMO_DEFAULTS.seed, Number.MIN_SAFE_INTEGER);

// The server's settings (DATABASE_URL, DATA_DIR, SITE_ID), validated the same way.
let config;
try {
  config = loadConfig();
} catch (err) {
  fail(err instanceof ConfigError ? err.message : String(err));
}
const { databaseUrl, dataDir, siteId } = config;

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(2)} s`;
const target = databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite at ${path.join(dataDir, "pglite")}`;
console.log(`database: ${target}`);

const db = await openDatabase({ url: databaseUrl, dataDir: path.join(dataDir, "pglite") });
let exitCode = 0;
try {
  const applied = await migrate(db);
  if (applied.length) console.log(`applied migrations: ${applied.join(", ")}`);

  if (values.reset) {
    await db.query(sql`
      TRUNCATE network_properties, offers, reviews, join_clicks, search_log, house_ads, traffic_sources,
        categories, networks
      RESTART IDENTITY CASCADE`);
    console.log("reset: content tables emptied");
  } else if (!(await isDatabaseEmpty(db))) {
    throw new Error(
      "The database already has networks; nothing was changed. Run again with --reset to replace its content.",
    );
  }

  const seedStarted = performance.now();
  const counts = await seedDemoData(db, {
    siteId,
    offers,
    networks,
    trafficSources,
    seed,
    log: (msg) => console.log(`  ${msg} (${elapsed()})`),
  });
  const seconds = (performance.now() - seedStarted) / 1000;
  console.log(
    `seeded ${counts.offers} offers, ${counts.networks} networks, ${counts.trafficSources} traffic sources, ` +
      `${counts.categories} categories (seed ${seed}) in ${seconds.toFixed(2)} s; total ${elapsed()}`,
  );
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  exitCode = 1;
} finally {
  await db.close();
}
process.exit(exitCode);
