// One database interface over two drivers: embedded PGlite (default) and a
// PostgreSQL server (DATABASE_URL). Queries are written once with Drizzle's `sql`
// template (always parameterised) and return the same JavaScript types on both.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";

export { sql, type SQL };

/** Binds a JavaScript array as one array parameter (a bare array in `sql` expands to a list). */
export const array = <T>(values: readonly T[]) => sql.param(values);

const dialect = new PgDialect();

export interface Queryable {
  /** Runs one parameterised statement and returns its rows. */
  query<T = Record<string, unknown>>(statement: SQL): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations only). */
  execScript(script: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `work` in one transaction; it rolls back if `work` throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// int8 and numeric arrive as strings by default; every id and amount here fits a double.
const INT8 = 20;
const NUMERIC = 1700;
const toNumber = (v: string | null) => (v === null ? null : Number(v));

export type DatabaseOptions = {
  /** postgres:// URL; without it PGlite is used. */
  url?: string;
  /** PGlite data directory; undefined means in memory. */
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const client = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    parsers: { [INT8]: toNumber, [NUMERIC]: toNumber },
  });
  const run = async <T>(c: Pick<PGlite, "query">, statement: SQL) => {
    const q = dialect.sqlToQuery(statement);
    const res = await c.query<T>(q.sql, q.params);
    return res.rows;
  };
  return {
    kind: "pglite",
    query: (statement) => run(client, statement),
    transaction: (work) =>
      client.transaction((tx) =>
        work({
          query: (statement) => run(tx, statement),
          execScript: async (script) => {
            await tx.exec(script);
          },
        }),
      ),
    execScript: async (script) => {
      await client.exec(script);
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const schema = options.schema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: schema ? `-c search_path=${schema},public` : undefined,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8 || oid === NUMERIC ? toNumber : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on("error", () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  if (schema) {
    // Isolated schemas (tests, benchmarks) share the database's extensions, which
    // must therefore sit in public; one created from inside a schema is moved there.
    const c = await pool.connect();
    try {
      await c.query(`SELECT pg_advisory_lock(724002)`);
      try {
        await c.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
        const { rows } = await c.query(
          `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
        );
        if (rows[0]?.nspname !== "public") await c.query(`ALTER EXTENSION pg_trgm SET SCHEMA public`);
      } finally {
        await c.query(`SELECT pg_advisory_unlock(724002)`);
      }
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      c.release();
    }
  }
  const run = async <T>(c: pg.Pool | pg.PoolClient, statement: SQL) => {
    const q = dialect.sqlToQuery(statement);
    const res = await c.query(q.sql, q.params as unknown[]);
    return res.rows as T[];
  };
  return {
    kind: "postgres",
    query: (statement) => run(pool, statement),
    transaction: async (work) => {
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        const result = await work({
          query: (statement) => run(c, statement),
          execScript: async (script) => {
            await c.query(script);
          },
        });
        await c.query("COMMIT");
        return result;
      } catch (err) {
        await c.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
    execScript: async (script) => {
      await pool.query(script);
    },
    close: () => pool.end(),
  };
}
