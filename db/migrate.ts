// Applies the committed SQL files in db/migrations in name order, once each, in
// one transaction. On PostgreSQL a transaction-scoped advisory lock keeps
// instances that start together from racing.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Database } from "./client.ts";

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const LOCK_ID = 724_001;

export async function migrate(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query(sql`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
    await tx.execScript(
      `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await tx.query<{ name: string }>(sql`SELECT name FROM schema_migrations`)).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const file of fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith(".sql"))
      .sort()) {
      if (done.has(file)) continue;
      await tx.execScript(fs.readFileSync(path.join(MIGRATIONS_DIR, file), "utf8"));
      await tx.query(sql`INSERT INTO schema_migrations (name) VALUES (${file})`);
      applied.push(file);
    }
    return applied;
  });
}
