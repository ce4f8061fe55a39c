// A fresh, migrated database for one test file: in-memory PGlite by default,
// or a private schema on the PostgreSQL server named by TEST_DATABASE_URL.
import crypto from "node:crypto";
import { openDatabase, type Database } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export async function openTestDatabase(): Promise<Database & { dispose(): Promise<void> }> {
  const schema = TEST_DATABASE_URL ? `t_${crypto.randomBytes(6).toString("hex")}` : undefined;
  const db = await openDatabase({ url: TEST_DATABASE_URL, schema, poolSize: 5 });
  await migrate(db);
  return Object.assign(db, {
    async dispose() {
      // Through a connection of its own: a test may have closed (broken) this database on purpose.
      if (schema) {
        const admin = await openDatabase({ url: TEST_DATABASE_URL, poolSize: 1 });
        // With the job queue's schema beside it (core/supply/scheduler.ts), when a test started one.
        await admin.execScript(`DROP SCHEMA IF EXISTS ${schema}, ${schema}_boss CASCADE`);
        await admin.close();
      }
      await db.close().catch(() => {});
    },
  });
}
