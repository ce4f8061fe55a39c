// A fresh, migrated database for one test file: in-memory PGlite by default, or a
// database of its own on the PostgreSQL server named by TEST_DATABASE_URL.
//
// Each is a copy of a template built once per test run (the first file that needs it
// builds it; see tests/helpers/templates.ts for the run's setup and clean-up): PGlite's
// initdb, the migrations and the demo seed cost seconds per file, a copy a fraction of that.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { seedDemoData, type SeedDemoOptions } from "#db/seed/demo.ts";
import { DEMO_SEED, pgliteTemplateFile, postgresTemplateName } from "./templates.ts";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export type TestDatabase = Database & {
  /** PostgreSQL: a URL that reaches this database (for another process or pool); PGlite: undefined. */
  url: string | undefined;
  dispose(): Promise<void>;
};

type Seed = Omit<SeedDemoOptions, "log">;
type Template = "migrated" | "demo";

/** A migrated database, seeded with `seed` when given (DEMO_SEED comes ready-made). */
export async function openTestDatabase(seed?: Seed): Promise<TestDatabase> {
  const templates = inject("testTemplates");
  const template: Template = isDeepStrictEqual(seed, DEMO_SEED) ? "demo" : "migrated";
  const db = TEST_DATABASE_URL
    ? await openPostgres(TEST_DATABASE_URL, templates.runId, template)
    : await openPglite(templates.dir, template);
  if (seed && template !== "demo") await seedDemoData(db, seed);
  return db;
}

// ---------------------------------------------------------------------------
// PGlite: a copy of a dump of the template's data directory (PGlite's loadDataDir).

async function openPglite(dir: string, template: Template) {
  const db = await openDatabase({ template: await pgliteTemplate(dir, template) });
  return Object.assign(db, {
    url: undefined,
    async dispose() {
      await db.close().catch(() => {});
    },
  });
}

async function pgliteTemplate(dir: string, template: Template): Promise<Blob> {
  const file = pgliteTemplateFile(dir, template);
  await once(file, async () => {
    const db =
      template === "migrated"
        ? await openDatabase({})
        : await openDatabase({ template: await pgliteTemplate(dir, "migrated") });
    try {
      if (template === "migrated") await migrate(db);
      else await seedDemoData(db, DEMO_SEED);
      const dump = await db.dump!();
      const partial = `${file}.${process.pid}`;
      fs.writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
      fs.renameSync(partial, file);
    } finally {
      await db.close();
    }
  });
  return new Blob([fs.readFileSync(file)]);
}

/**
 * Runs `build` unless `file` exists, in one process at a time: the others wait for the
 * file. A lock left by a process that died is taken over.
 */
async function once(file: string, build: () => Promise<void>) {
  const lock = `${file}.lock`;
  for (;;) {
    if (fs.existsSync(file)) return;
    try {
      fs.mkdirSync(lock);
    } catch {
      const holder = lockHolder(lock);
      if (holder && !alive(holder)) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      if (!fs.existsSync(file)) await build();
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** The pid in a lock directory; 0 while it is being written or once the lock is gone. */
function lockHolder(lock: string): number {
  try {
    return Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
  } catch {
    return 0;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// PostgreSQL: CREATE DATABASE … TEMPLATE, a file-level copy.

async function openPostgres(url: string, runId: string, template: Template) {
  await postgresTemplate(url, runId, template);
  const name = `${postgresTemplateName(runId, "copy")}_${crypto.randomBytes(5).toString("hex")}`;
  await admin(url, `CREATE DATABASE ${name} TEMPLATE ${postgresTemplateName(runId, template)}`);
  const own = withDatabase(url, name);
  const db = await openDatabase({ url: own, poolSize: 5 });
  return Object.assign(db, {
    url: own,
    async dispose() {
      await db.close().catch(() => {});
      // WITH (FORCE): a test may have left a connection of its own open.
      await admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  });
}

/** Creates the run's template database unless it exists, one process at a time (an advisory lock). */
async function postgresTemplate(url: string, runId: string, template: Template) {
  const name = postgresTemplateName(runId, template);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext($1))`, [name]);
    const { rowCount } = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    if (rowCount) return;
    if (template === "demo") await postgresTemplate(url, runId, "migrated");
    const building = `${name}_building`;
    await client.query(`DROP DATABASE IF EXISTS ${building}`);
    await client.query(
      template === "migrated"
        ? `CREATE DATABASE ${building}`
        : `CREATE DATABASE ${building} TEMPLATE ${postgresTemplateName(runId, "migrated")}`,
    );
    const db = await openDatabase({ url: withDatabase(url, building), poolSize: 1 });
    try {
      if (template === "migrated") await migrate(db);
      else await seedDemoData(db, DEMO_SEED);
    } finally {
      await db.close();
    }
    // Renamed when complete: a copy never starts from a half-built template.
    await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
  } finally {
    await client.end();
  }
}

/** One statement on a connection of its own. */
async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
