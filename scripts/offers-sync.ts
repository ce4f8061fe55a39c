// `npm run offers:sync -- --source <id>`: syncs one offer source now (issue #13) and
// prints its counts; exits 1 when the run failed (or another run of the source is going).
// Works against DATA_DIR (embedded) or DATABASE_URL, like `npm start`.
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { createSecrets } from "#core/supply/secrets.ts";
import { createOfferSync } from "#core/supply/sync.ts";
import { loadConfig } from "#server/config.ts";

const { values } = parseArgs({ options: { source: { type: "string" } } });
if (!values.source || !/^\d{1,15}$/.test(values.source)) {
  console.error("Usage: npm run offers:sync -- --source <id>");
  process.exit(1);
}
const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite") });
let failed = true;
try {
  await migrate(db);
  const sync = createOfferSync(db, {
    secrets: createSecrets(config.secretsKey),
    // Another process's caches are not this one's: the server sees the change on its next read.
    onCatalogueChanged: () => {},
    log: { info: () => {}, warn: () => {} },
  });
  const result = await sync.run(Number(values.source));
  console.log(
    `source ${values.source} run ${result.runId ?? "-"} ${result.status}: seen ${result.seen}, new ${result.new}, changed ${result.changed}, unchanged ${result.unchanged}, retired ${result.retired}, skipped ${result.skipped}`,
  );
  for (const [reason, count] of Object.entries(result.skippedReasons)) console.log(`  skipped ${count}: ${reason}`);
  if (result.error) console.error(result.error);
  failed = result.status !== "succeeded";
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
} finally {
  await db.close();
}
process.exit(failed ? 1 : 0);
