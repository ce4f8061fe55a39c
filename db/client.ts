// One database interface over two drivers: embedded PGlite (default) and a
// PostgreSQL server (DATABASE_URL). Queries are written once with Drizzle's `sql`
// template (always parameterised) and return the same JavaScript types on both.
//
// Resilience: a lost connection, a refused connection, a statement or lock
// timeout, or a full queue surface as DatabaseUnavailableError (an HttpError 503
// with Retry-After, so the one error handler answers it without knowing about
// databases); every other database error passes through unchanged. Serving
// limits (`limits`) bound how long anything waits for the database; without
// them (migrations, seeding, scripts) statements may run as long as they need.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { HttpError } from "#core/errors.ts";
import { listenOnPostgres, type Listening } from "./listen.ts";

export { sql, type SQL };

/** Binds a JavaScript array as one array parameter (a bare array in `sql` expands to a list). */
export const array = <T>(values: readonly T[]) => sql.param(values);

const dialect = new PgDialect();

/** Statements marked by keepPlan. */
const keptPlans = new WeakSet<SQL>();
/** The prepared statements' names, by text (a handful: keepPlan is for fixed statements). */
const preparedNames = new Map<string, string>();
const MAX_PREPARED = 200;

/**
 * Marks a statement whose text is the same on every call and whose best plan does not turn on its
 * values (rows by id, look-ups in small tables): on PostgreSQL each connection prepares it once and
 * keeps its plan, instead of planning it again on every call (0.2–0.4 ms for a page's offer rows,
 * decision 0052). Not for a search's scans: their plans turn on the values (how common a word is)
 * and on the planner settings of the search's transaction, which a kept plan does not follow.
 */
export function keepPlan(statement: SQL): SQL {
  keptPlans.add(statement);
  return statement;
}

/** Statements marked by withBegin. */
const openingStatements = new WeakSet<SQL>();

/**
 * Marks a transaction's first statement as one PostgreSQL may receive in the same round trip as
 * BEGIN: a statement written by the code alone, no value bound (a search's planner settings). On
 * this machine's loopback, a round trip costs each side about 0.1 ms of CPU, a tenth of a cold
 * search's statements. Sent as one simple query, so only for statements with no parameters: a
 * statement with any keeps its own round trip after BEGIN.
 */
export function withBegin(statement: SQL): SQL {
  openingStatements.add(statement);
  return statement;
}

/** Whether PostgreSQL receives `statement`, first in a transaction, with BEGIN (withBegin). */
export const sentWithBegin = (statement: SQL | undefined) =>
  statement !== undefined && openingStatements.has(statement) && !dialect.sqlToQuery(statement).params.length;

/** The prepared statement's name for a kept statement's text (none past MAX_PREPARED texts). */
function preparedName(statement: SQL, text: string): string | undefined {
  if (!keptPlans.has(statement)) return undefined;
  let name = preparedNames.get(text);
  if (!name && preparedNames.size < MAX_PREPARED) {
    name = `oa_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return name;
}

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
  /**
   * Runs SQL text as given, for a library that writes its own (pg-boss, core/supply/scheduler.ts):
   * with values, one statement with $n parameters; without, a script whose statements' rows come
   * back in order. It takes its turn like any statement (PGlite); a script left in a failed
   * transaction is rolled back before the connection serves anyone else. Both drivers have it;
   * a wrapper that only records statements (bench/) may leave it out.
   */
  raw?(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** PGlite: a dump of the data directory, for `template` (tests copy one migrated database). */
  dump?(): Promise<Blob>;
  /**
   * Calls `onPayload` with each NOTIFY on `channel` (the whole database's, whatever the schema), so
   * a process can keep copies the database's triggers invalidate. PGlite hands one over before the
   * statement that committed it returns. PostgreSQL's arrive on a connection of their own, a moment
   * after the commit; while that connection is lost the listener is not live, and each loss and
   * recovery is told as "*" (db/listen.ts).
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<Listening>;
  close(): Promise<void>;
}

// int8 and numeric arrive as strings by default; every id and amount here fits a double.
const INT8 = 20;
const NUMERIC = 1700;
const toNumber = (v: string | null) => (v === null ? null : Number(v));

/** What a serving process allows the database before answering 503. 0 turns a bound off. */
export type DatabaseLimits = {
  /** PostgreSQL: longest statement (statement_timeout); a client-side read timeout backs it up. */
  statementTimeoutMs: number;
  /** PostgreSQL: longest wait for a lock (lock_timeout). */
  lockTimeoutMs: number;
  /** PostgreSQL: longest a transaction may sit idle (idle_in_transaction_session_timeout). */
  idleInTransactionTimeoutMs: number;
  /** Longest wait for a pooled connection, or for PGlite's one connection. */
  acquireTimeoutMs: number;
  /** Statements (PGlite) or connection requests (PostgreSQL) allowed to wait; more are refused at once. */
  queueLimit: number;
};

export type DatabaseOptions = {
  /** postgres:// URL; without it PGlite is used. */
  url?: string;
  /** PGlite data directory; undefined means in memory. */
  dataDir?: string;
  /** PGlite: start from this dump (Database.dump) instead of an empty database (initdb). */
  template?: Blob;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /** Serving limits; without them nothing is bounded (migrations, seeding, scripts). */
  limits?: DatabaseLimits;
  /** PostgreSQL application_name of every connection (visible in pg_stat_activity). */
  applicationName?: string;
  /** Called when a connection breaks (the pool replaces it); for logs. */
  onConnectionError?: (err: Error) => void;
};

// ---------------------------------------------------------------------------
// "Database unavailable or saturated"

export type DatabaseUnavailableReason = "unavailable" | "timeout" | "saturated";

const RETRY_AFTER_SECONDS: Record<DatabaseUnavailableReason, number> = { unavailable: 5, timeout: 5, saturated: 2 };

/** The database cannot answer now: it is down, refusing, too slow or saturated. Answered 503 with Retry-After. */
export class DatabaseUnavailableError extends HttpError {
  readonly reason: DatabaseUnavailableReason;
  constructor(reason: DatabaseUnavailableReason, cause?: unknown) {
    // One message for every reason: clients never see driver messages or SQL (the cause is for logs).
    super(503, "The service is busy or briefly unavailable. Please try again in a few seconds.", {
      "retry-after": String(RETRY_AFTER_SECONDS[reason]),
    });
    this.name = "DatabaseUnavailableError";
    this.reason = reason;
    if (cause !== undefined) this.cause = cause;
  }
}

// SQLSTATEs that mean "not now" rather than "wrong statement".
const UNAVAILABLE_SQLSTATES: Record<string, DatabaseUnavailableReason> = {
  "57P01": "unavailable", // admin_shutdown (also pg_terminate_backend)
  "57P02": "unavailable", // crash_shutdown
  "57P03": "unavailable", // cannot_connect_now (starting up, shutting down)
  "57P05": "unavailable", // idle_session_timeout
  "53300": "saturated", // too_many_connections
  "53400": "saturated", // configuration_limit_exceeded
  "57014": "timeout", // query_canceled: statement_timeout
  "55P03": "timeout", // lock_not_available: lock_timeout
  "25P03": "timeout", // idle_in_transaction_session_timeout
  "40P01": "timeout", // deadlock_detected
};
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNABORTED",
]);
// node-postgres and pg-pool report these without a code.
const DRIVER_MESSAGES: [RegExp, DatabaseUnavailableReason][] = [
  [/timeout exceeded when trying to connect|connection timeout|Query read timeout/i, "timeout"],
  [
    /Connection terminated|not queryable|Cannot use a pool after calling end|Client was closed|connection (is )?closed|PGlite is closed/i,
    "unavailable",
  ],
];

/** The error to throw for `err`: DatabaseUnavailableError when the database is unavailable, else `err` itself. */
export function classifyDatabaseError(err: unknown): unknown {
  if (err instanceof DatabaseUnavailableError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (UNAVAILABLE_SQLSTATES[code]) return new DatabaseUnavailableError(UNAVAILABLE_SQLSTATES[code], err);
    if (code.startsWith("08")) return new DatabaseUnavailableError("unavailable", err); // connection_exception class
    if (NETWORK_CODES.has(code)) return new DatabaseUnavailableError("unavailable", err);
  }
  if (
    err instanceof AggregateError &&
    err.errors.some((e) => classifyDatabaseError(e) instanceof DatabaseUnavailableError)
  ) {
    return new DatabaseUnavailableError("unavailable", err); // "localhost" resolving to ::1 and 127.0.0.1, both refused
  }
  for (const [pattern, reason] of DRIVER_MESSAGES)
    if (pattern.test(err.message)) return new DatabaseUnavailableError(reason, err);
  return err;
}

/** "Saturated" is answered by the hundred under overload: no stack trace to capture. */
function saturated(): DatabaseUnavailableError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new DatabaseUnavailableError("saturated");
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Admission is decided once per unit of work (a request): the queue limit refuses
 * work whose *first* statement would find the queue full; the statements that
 * follow in the same asynchronous flow are let in, and on PGlite go first (they
 * still wait at most acquireTimeoutMs). Refusing a page's fifth statement after
 * four have run wastes those four and answers 503 anyway: under overload that left
 * almost nothing served. The server marks where each request begins
 * (startDatabaseWork); otherwise a request would inherit the mark of whatever
 * flow started the server.
 */
const admitted = new AsyncLocalStorage<boolean>();

/** Marks the current asynchronous flow as new work for admission (call it as each request begins). */
export function startDatabaseWork(): void {
  if (admitted.getStore()) admitted.enterWith(false);
}

type Admission = "new" | "continuing" | "refused";

function admit(limits: DatabaseLimits | undefined, waiting: number): Admission {
  if (!limits || admitted.getStore()) return "continuing";
  if (limits.queueLimit && waiting >= limits.queueLimit) return "refused";
  // Marks the caller's flow from here on (enterWith reaches the caller's continuations).
  admitted.enterWith(true);
  return "new";
}

const rethrow = (err: unknown): never => {
  throw classifyDatabaseError(err);
};

// ---------------------------------------------------------------------------

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options);
}

/** How long statements may follow each other before the event loop gets a turn (PGlite). */
const SLICE_MS = 10;

/**
 * PGlite is one connection whose queries run synchronously on this event loop.
 * Statements take turns here (a transaction is one turn): at most `queueLimit`
 * wait, none longer than `acquireTimeoutMs`, and beyond that DatabaseUnavailableError
 * comes at once instead of an ever longer wait.
 *
 * Turns run back to back for at most SLICE_MS; after that the next one starts from
 * setImmediate, so sockets (health checks, new requests, answers) are served in
 * between. Without that, requests read in one pass of the loop each ran all their
 * statements in promise callbacks, and 200 of them held the loop for seconds.
 */
function createTurns(limits: DatabaseLimits | undefined) {
  type Waiter = { settled: boolean; start: () => void; fail: (err: Error) => void; timer?: NodeJS.Timeout };
  // Statements of admitted work go before new work.
  const continuing: Waiter[] = [];
  const fresh: Waiter[] = [];
  const waiting = () => continuing.length + fresh.length;
  let busy = false; // a turn is running
  let scheduled = false; // a dispatch is pending on setImmediate
  let sliceStart: number | undefined; // when this pass of the loop started running turns

  const inSlice = () => sliceStart === undefined || performance.now() - sliceStart < SLICE_MS;
  const begin = () => {
    busy = true;
    sliceStart ??= performance.now();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(dispatch);
  };
  const startNext = () => {
    let next: Waiter | undefined;
    while ((next = continuing.shift() ?? fresh.shift()) && next.settled);
    if (!next) return;
    next.settled = true;
    clearTimeout(next.timer);
    begin();
    next.start();
  };
  function dispatch() {
    scheduled = false;
    sliceStart = undefined; // the loop has served its sockets since
    if (!busy) startNext();
  }
  const acquire = (): Promise<void> | undefined => {
    const admission = admit(limits, waiting());
    if (admission === "refused") return Promise.reject(saturated());
    if (!busy && waiting() === 0 && inSlice()) {
      begin();
      return undefined;
    }
    const queue = admission === "new" ? fresh : continuing;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { settled: false, start: resolve, fail: reject };
      if (limits?.acquireTimeoutMs) {
        waiter.timer = setTimeout(() => {
          if (waiter.settled) return;
          waiter.settled = true;
          queue.splice(queue.indexOf(waiter), 1);
          reject(saturated());
        }, limits.acquireTimeoutMs);
      }
      queue.push(waiter);
      if (!busy) schedule();
    });
  };
  const release = () => {
    busy = false;
    if (waiting() && inSlice()) startNext();
    // Always: a later pass ends this slice (and starts whoever waits).
    schedule();
  };
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      const wait = acquire();
      if (wait) await wait;
      try {
        return await work();
      } finally {
        release();
      }
    },
    /** Refuses everyone still waiting (the database is closing). */
    drain() {
      for (const w of [...continuing.splice(0), ...fresh.splice(0)]) {
        if (w.settled) continue;
        w.settled = true;
        clearTimeout(w.timer);
        w.fail(new DatabaseUnavailableError("unavailable"));
      }
    },
  };
}

/**
 * PGlite's memory is this process's: its 128 MB of shared buffers fill with pages
 * the operating system's file cache holds anyway (PGlite reads its data directory
 * through ordinary files), so they are kept small. Measured with `npm run bench:pages`:
 * see docs/decisions/0030-small-pglite-buffers.md.
 */
const PGLITE_SETTINGS = ["shared_buffers = 16MB"];

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const { dataDir } = options;
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const client = await PGlite.create({
    dataDir,
    loadDataDir: options.template,
    extensions: { pg_trgm },
    postgresqlconf: PGLITE_SETTINGS,
    parsers: { [INT8]: toNumber, [NUMERIC]: toNumber },
  });
  const turns = createTurns(options.limits);
  const run = async <T>(c: Pick<PGlite, "query">, statement: SQL) => {
    const q = dialect.sqlToQuery(statement);
    const res = await c.query<T>(q.sql, q.params).catch(rethrow);
    return res.rows;
  };
  return {
    kind: "pglite",
    query: (statement) => turns.run(() => run(client, statement)),
    transaction: (work) =>
      turns
        .run(() =>
          client.transaction((tx) =>
            work({
              query: (statement) => run(tx, statement),
              execScript: async (script) => {
                await tx.exec(script).catch(rethrow);
              },
            }),
          ),
        )
        .catch(rethrow),
    execScript: async (script) => {
      await turns.run(() => client.exec(script)).catch(rethrow);
    },
    raw: (text, values) =>
      turns
        .run(async () => {
          try {
            if (values?.length) return { rows: (await client.query<Record<string, unknown>>(text, values)).rows };
            return { rows: (await client.exec(text)).flatMap((r) => r.rows as Record<string, unknown>[]) };
          } catch (err) {
            await client.query("ROLLBACK").catch(() => {});
            throw err;
          }
        })
        .catch(rethrow),
    dump: () => turns.run(() => client.dumpDataDir("none")),
    listen: async (channel, onPayload) => {
      await turns.run(() => client.listen(channel, onPayload)).catch(rethrow);
      return { live: true };
    },
    close: async () => {
      turns.drain();
      await client.close();
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { schema, limits } = options;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  const ms = (v: number | undefined) => (v && v > 0 ? v : undefined);
  const connection: pg.ClientConfig = {
    connectionString: url,
    options: schema ? `-c search_path=${schema},public` : undefined,
    application_name: options.applicationName ?? "offeratlas",
  };
  const pool = new pg.Pool({
    ...connection,
    max: options.poolSize ?? 10,
    // Server-side bounds, sent with every connection's startup message.
    statement_timeout: ms(limits?.statementTimeoutMs),
    lock_timeout: ms(limits?.lockTimeoutMs),
    idle_in_transaction_session_timeout: ms(limits?.idleInTransactionTimeoutMs),
    // Client-side backstop for a server that stopped answering altogether (network
    // partition): a little after the server would have cancelled the statement.
    query_timeout: limits?.statementTimeoutMs ? limits.statementTimeoutMs + 2000 : undefined,
    // Both the wait for a free pooled connection and the connect itself.
    connectionTimeoutMillis: ms(limits?.acquireTimeoutMs),
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8 || oid === NUMERIC
          ? toNumber
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A broken idle client reports through itself and through the pool: once is enough.
  const reported = new WeakSet<Error>();
  const onConnectionError = (err: Error) => {
    if (reported.has(err)) return;
    reported.add(err);
    options.onConnectionError?.(err);
  };
  // An idle client lost its connection; the pool drops it and connects anew on next use.
  pool.on("error", onConnectionError);
  // A checked-out client (a transaction) that loses its connection emits 'error' too,
  // and an 'error' event without a listener ends the process. The statement in
  // flight fails on its own; the client is dropped when released (not queryable).
  pool.on("connect", (client) => {
    client.on("error", onConnectionError);
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

  // Load shedding: with the pool busy, at most `queueLimit` requests wait for a
  // connection, none longer than acquireTimeoutMs. Failing to get a connection at
  // all (refused, not accepting connections, too many clients, timed out) means the
  // database is unavailable, whatever the driver's error says.
  const acquire = async () => {
    if (admit(limits, pool.waitingCount) === "refused") throw saturated();
    try {
      return await pool.connect();
    } catch (err) {
      const classified = classifyDatabaseError(err);
      throw classified instanceof DatabaseUnavailableError
        ? classified
        : new DatabaseUnavailableError("unavailable", err);
    }
  };
  // A client whose server never answered (client-side read timeout) is not given back;
  // one whose connection ended is dropped by the pool on release by itself.
  const releaseFor = (err: unknown) => {
    const cause = err instanceof DatabaseUnavailableError ? err.cause : err;
    return cause instanceof Error && /Query read timeout/.test(cause.message) ? cause : undefined;
  };
  const listeners = new Set<Awaited<ReturnType<typeof listenOnPostgres>>>();
  const run = async <T>(c: pg.PoolClient, statement: SQL) => {
    const q = dialect.sqlToQuery(statement);
    const name = preparedName(statement, q.sql);
    const res = await c.query({ name, text: q.sql, values: q.params as unknown[] }).catch(rethrow);
    return res.rows as T[];
  };
  return {
    kind: "postgres",
    query: async (statement) => {
      const c = await acquire();
      let failure: unknown;
      try {
        return await run(c, statement);
      } catch (err) {
        failure = err;
        throw err;
      } finally {
        c.release(releaseFor(failure));
      }
    },
    transaction: async (work) => {
      const c = await acquire();
      let broken: Error | undefined;
      // BEGIN goes with the first statement marked by withBegin, or alone before any other.
      let begun = false;
      const begin = async () => {
        if (begun) return;
        begun = true;
        await c.query("BEGIN").catch(rethrow);
      };
      try {
        const result = await work({
          query: async <T>(statement: SQL) => {
            if (!begun && sentWithBegin(statement)) {
              begun = true;
              const text = `BEGIN; ${dialect.sqlToQuery(statement).sql}`;
              const results = (await c.query(text).catch(rethrow)) as unknown as pg.QueryResult[];
              return results[results.length - 1].rows as T[];
            }
            await begin();
            return run<T>(c, statement);
          },
          execScript: async (script) => {
            await begin();
            await c.query(script).catch(rethrow);
          },
        });
        if (begun) await c.query("COMMIT").catch(rethrow);
        return result;
      } catch (err) {
        broken = releaseFor(err);
        // On a lost connection this fails at once, and the client is dropped too.
        if (!broken && begun) {
          await c.query("ROLLBACK").catch((rollbackErr: unknown) => {
            broken = rollbackErr instanceof Error ? rollbackErr : new Error("ROLLBACK failed");
          });
        }
        throw classifyDatabaseError(err);
      } finally {
        c.release(broken);
      }
    },
    execScript: async (script) => {
      const c = await acquire();
      let failure: unknown;
      try {
        await c.query(script).catch(rethrow);
      } catch (err) {
        failure = err;
        throw err;
      } finally {
        c.release(releaseFor(failure));
      }
    },
    raw: async (text, values) => {
      const c = await acquire();
      let failure: unknown;
      try {
        const res = (await c.query(text, values).catch(rethrow)) as pg.QueryResult | pg.QueryResult[];
        return { rows: (Array.isArray(res) ? res : [res]).flatMap((r) => r.rows as Record<string, unknown>[]) };
      } catch (err) {
        failure = err;
        throw err;
      } finally {
        // A failed script may have left its transaction open: the connection goes, not back to the pool.
        c.release(failure ? (failure instanceof Error ? failure : new Error("raw statement failed")) : undefined);
      }
    },
    listen: async (channel, onPayload) => {
      const listening = await listenOnPostgres(connection, channel, onPayload, onConnectionError);
      listeners.add(listening);
      return listening;
    },
    close: async () => {
      await Promise.all([...listeners].map((listening) => listening.close()));
      await pool.end();
    },
  };
}
