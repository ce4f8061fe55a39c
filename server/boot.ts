// Opens the database and brings it to the current schema, with demo data on
// first start, so that one command serves a working site on a fresh machine.
import path from "node:path";
import { openDatabase, type Database } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { isDatabaseEmpty, seedDemoData } from "#db/seed/demo.ts";
import { syncReferenceData } from "#core/reference/sync.ts";
import { createSiteService } from "#core/sites/sites.ts";
import type { Config } from "./config.ts";

export async function prepareDatabase(config: Config, log: (msg: string) => void): Promise<Database> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite") });
  const applied = await migrate(db);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
  await syncReferenceData(db);
  if (config.seedDemoData && (await isDatabaseEmpty(db))) {
    const started = performance.now();
    const counts = await seedDemoData(db, { siteId: config.siteId, log });
    log(`seeded demo data in ${Math.round(performance.now() - started)} ms: ${JSON.stringify(counts)}`);
  }
  await createSiteService(db, config.siteId).ensureDefault();
  return db;
}
