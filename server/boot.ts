// Opens the database and brings it to the current schema, with demo data on
// first start, so that one command serves a working site on a fresh machine.
import path from "node:path";
import { openDatabase, type Database, type DatabaseOptions } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { isDatabaseEmpty, seedDemoData } from "#db/seed/demo.ts";
import { seedDemoSources } from "#db/seed/sources.ts";
import { createSecrets } from "#core/supply/secrets.ts";
import { syncReferenceData } from "#core/reference/sync.ts";
import { createSiteService } from "#core/sites/sites.ts";
import type { Config } from "./config.ts";

/** How the serving process opens its database: the configured pool and limits. */
export function servingDatabaseOptions(config: Config, log: (msg: string) => void): DatabaseOptions {
  return {
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, "pglite"),
    poolSize: config.database.poolSize,
    limits: config.database.limits,
    onConnectionError: (err) => log(`database connection lost (the pool reconnects): ${err.message}`),
  };
}

export async function prepareDatabase(config: Config, log: (msg: string) => void): Promise<Database> {
  const serving = servingDatabaseOptions(config, log);
  // Migrations and the demo seed may take long, and wait for another instance's
  // migration lock: on PostgreSQL they run on a pool without the serving time
  // limits, which is then replaced. PGlite's limits only bound a queue, which
  // boot's one-at-a-time statements never fill, so it is opened once.
  const db = await openDatabase(config.databaseUrl ? { ...serving, limits: undefined } : serving);
  const applied = await migrate(db);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
  await syncReferenceData(db);
  if (config.seedDemoData && (await isDatabaseEmpty(db))) {
    const started = performance.now();
    const counts = await seedDemoData(db, { siteId: config.siteId, log });
    log(`seeded demo data in ${Math.round(performance.now() - started)} ms: ${JSON.stringify(counts)}`);
    // Disabled sources on the fake platforms of `npm run demo:platforms`; their key is sealed only with SECRETS_KEY.
    const secrets = config.secretsKey ? createSecrets(config.secretsKey) : undefined;
    log(`demo offer sources (disabled): ${await seedDemoSources(db, { secrets })}`);
  }
  await createSiteService(db, config.siteId).ensureDefault();
  if (!config.databaseUrl) return db;
  await db.close();
  return openDatabase(serving);
}

/** DATABASE_READ_URL's pool (a replica: no migrations, the serving limits), or nothing. */
export async function openReadDatabase(config: Config, log: (msg: string) => void): Promise<Database | undefined> {
  if (!config.databaseReadUrl) return undefined;
  return openDatabase({
    ...servingDatabaseOptions(config, log),
    url: config.databaseReadUrl,
    applicationName: "offeratlas-read",
    onConnectionError: (err) => log(`read database connection lost (the pool reconnects): ${err.message}`),
  });
}
