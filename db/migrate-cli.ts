// `npm run db:migrate`: applies pending migrations to DATABASE_URL or the embedded database.
import path from "node:path";
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "./client.ts";
import { migrate } from "./migrate.ts";

const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, "pglite") });
const applied = await migrate(db);
console.log(applied.length ? `applied: ${applied.join(", ")}` : "the database is up to date");
await db.close();
