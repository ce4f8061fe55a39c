// Offer syncs on their schedule (issue #13), on pg-boss: a job queue in the
// application's own database (docs/decisions/0017-offer-syncs-on-pg-boss.md).
//
// - Queue `offer-sync`, job data `{ sourceId }`, sent with the singleton key
//   `source:<id>` under the `exclusive` policy: at most one job per source is
//   queued, waiting for a retry or running, whoever sends it.
// - Due sources: every `dueEverySeconds` each instance claims the enabled sources
//   whose next_run_at has come (row locks, SKIP LOCKED: one instance claims each),
//   moves next_run_at on by every_minutes and enqueues them. A send that fails
//   gives the source back (next_run_at = now), so the next pass tries again.
// - The worker (`concurrency` at a time) calls offerSync.run. A failed run with a
//   transient cause (the platform erred or could not be reached) fails the job, so
//   pg-boss retries it with exponential backoff; one whose credentials were refused
//   (the source is 'failing', until a run succeeds) completes: retrying cannot fix
//   it, the operator can, and the next scheduled run tries again.
//   "busy" (a run of the source is going elsewhere) completes without a run.
// - Jobs live in the database: one queued before a stop runs after the next start,
//   here or in another instance. The advisory lock in sync.ts stays the guarantee
//   of one run at a time per source.
//
// pg-boss talks to the app's own Database (db.raw), in a schema of its own named
// after the app's, so isolated test schemas never share a queue. On PGlite its
// statements take turns with the app's, so its scripts (BEGIN … COMMIT) never
// interleave with an app transaction on the one connection.
import { PgBoss, type Db, type Job } from "pg-boss";
import { array, sql, type Database } from "#db/client.ts";
import type { SyncRun } from "#contracts/supply.ts";
import { HttpError, refusalOf } from "#core/errors.ts";
import { isoTime } from "#core/networks/editor.ts";
import type { RunResult } from "#core/supply/sync.ts";

export const OFFER_SYNC_QUEUE = "offer-sync";

export const SYNC_ALREADY_QUEUED = "A sync of this source is already queued or running";

type SyncJob = { sourceId: number };

export type OfferSchedulerOptions = {
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /** How often due sources are looked for. */
  dueEverySeconds?: number;
  /** How often an idle worker asks the queue for a job (pg-boss: at least 0.5). */
  pollingSeconds?: number;
  /** Syncs running at once in this process. */
  concurrency?: number;
  /** Retries of a transient failure, the first delay and the longest one (it doubles, with jitter). */
  retry?: { limit: number; delaySeconds: number; maxDelaySeconds: number };
  /** Longest a stop waits for running syncs; one still running is retried later. */
  stopTimeoutMs?: number;
};

/** One run in a source's history, with why records were skipped (reason → count). */
export type SyncRunEntry = SyncRun & { skippedReasons: Record<string, number> };

/** Runs the console shows per source. */
const HISTORY_LENGTH = 20;

/** What sent a source's sync: the queue, or this process directly (the queue does not run here). */
export type SyncRequest = { queued: boolean; message: string };

const DEFAULT_RETRY = { limit: 3, delaySeconds: 60, maxDelaySeconds: 3600 };

/** Sources claimed per pass; more wait for the next one. */
const DUE_BATCH = 100;

const singletonKey = (sourceId: number) => `source:${sourceId}`;

/** pg-boss's view of the app's database. */
function bossDatabase(db: Database): Db {
  const { raw } = db;
  if (!raw) throw new Error("The offer-sync queue needs a database that runs raw SQL (db/client.ts)");
  return { executeSql: (text: string, values?: unknown[]) => raw(text, values) };
}

export function createOfferScheduler(
  db: Database,
  sync: { run(sourceId: number): Promise<RunResult> },
  options: OfferSchedulerOptions,
) {
  const { log } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  let boss: PgBoss | undefined;
  let dueTimer: NodeJS.Timeout | undefined;
  let duePass: Promise<void> | undefined;
  /** Sources this process runs directly ("Sync now" while the queue runs elsewhere or nowhere). */
  const runningDirectly = new Set<number>();
  /** Sources whose job this process's worker holds. */
  const working = new Set<number>();

  /** The schema pg-boss keeps its tables in: the app's, suffixed, or `pgboss` beside `public`. */
  async function bossSchema(): Promise<string> {
    const [row] = await db.query<{ schema: string }>(sql`SELECT current_schema() AS schema`);
    return row.schema === "public" ? "pgboss" : `${row.schema}_boss`;
  }

  /** Claims the due sources (moving their next run on) and enqueues each; returns how many were sent. */
  async function enqueueDue(): Promise<number> {
    const queue = boss; // a stop meanwhile does not cut the pass short
    if (!queue) return 0;
    const due = await db.query<{ id: number }>(sql`
      UPDATE offer_sources s SET next_run_at = now() + make_interval(mins => s.every_minutes)
      FROM (
        SELECT id FROM offer_sources WHERE enabled AND next_run_at <= now()
        ORDER BY next_run_at LIMIT ${DUE_BATCH} FOR UPDATE SKIP LOCKED
      ) due
      WHERE s.id = due.id
      RETURNING s.id`);
    let sent = 0;
    for (const [i, { id }] of due.entries()) {
      try {
        // null: one is already queued or running for the source, which serves this occurrence too.
        if (await queue.send(OFFER_SYNC_QUEUE, { sourceId: id } satisfies SyncJob, { singletonKey: singletonKey(id) }))
          sent++;
      } catch (err) {
        const unsent = due.slice(i).map((s) => s.id);
        await db
          .query(sql`UPDATE offer_sources SET next_run_at = now() WHERE id = ANY (${array(unsent)}::bigint[])`)
          .catch(() => {});
        throw err;
      }
    }
    return sent;
  }

  async function runJob(job: Job<SyncJob>) {
    const { sourceId } = job.data;
    let result: RunResult;
    working.add(sourceId);
    try {
      result = await sync.run(sourceId);
    } catch (err) {
      // Deleted since it was queued: nothing to run.
      if (refusalOf(err)?.status === 404) return { sourceId, status: "gone" };
      throw err;
    } finally {
      working.delete(sourceId);
    }
    if (result.status === "failed") {
      const [source] = await db.query<{ state: string }>(sql`SELECT state FROM offer_sources WHERE id = ${sourceId}`);
      // Thrown, the job is retried with backoff; a refused credential waits for the operator.
      if (source && source.state !== "failing") throw new Error(result.error ?? "The sync failed");
    }
    return { sourceId, runId: result.runId, status: result.status };
  }

  function runDirectly(sourceId: number) {
    runningDirectly.add(sourceId);
    sync
      .run(sourceId)
      .catch((err: unknown) => log.error(`offer sync: source ${sourceId} could not run: ${String(err)}`))
      .finally(() => runningDirectly.delete(sourceId));
  }

  return {
    /** Whether this process runs the queue (started and not stopped). */
    get running() {
      return boss !== undefined;
    },

    /** Installs or updates pg-boss's tables, then starts the worker and the due-sources pass. */
    async start(): Promise<void> {
      if (boss) return;
      const instance = new PgBoss({
        db: bossDatabase(db),
        schema: await bossSchema(),
        backend: db.kind === "pglite" ? "pglite" : "postgres",
        // Due sources are found by the pass below (per source intervals, not cron expressions).
        schedule: false,
      });
      instance.on("error", (err: unknown) => log.warn(`offer sync queue: ${String(err)}`));
      await instance.start({ attempts: 3 });
      const settings = {
        retryLimit: retry.limit,
        retryDelay: retry.delaySeconds,
        retryBackoff: true,
        retryDelayMax: retry.maxDelaySeconds,
        // A large source takes minutes; a job active this long is taken for lost and retried
        // (the advisory lock answers "busy" if the first run is in fact still going).
        expireInSeconds: 2 * 3600,
      };
      await instance.createQueue(OFFER_SYNC_QUEUE, { policy: "exclusive", ...settings });
      // An existing queue keeps what it was created with; these settings are this release's.
      await instance.updateQueue(OFFER_SYNC_QUEUE, settings);
      await instance.work<SyncJob>(
        OFFER_SYNC_QUEUE,
        { localConcurrency: options.concurrency ?? 2, pollingIntervalSeconds: options.pollingSeconds ?? 2 },
        async ([job]) => runJob(job),
      );
      boss = instance;
      const pass = () => {
        if (duePass) return; // the previous pass is still going
        duePass = enqueueDue()
          .then((n) => {
            if (n) log.info(`offer sync: ${n} due source${n === 1 ? "" : "s"} queued`);
          })
          .catch((err: unknown) => log.error(`offer sync: due sources not queued: ${String(err)}`))
          .finally(() => (duePass = undefined));
      };
      dueTimer = setInterval(pass, (options.dueEverySeconds ?? 60) * 1000);
      dueTimer.unref();
      pass();
    },

    /** Stops taking jobs and waits (bounded) for running syncs; the queue keeps what is left. */
    async stop(): Promise<void> {
      clearInterval(dueTimer);
      dueTimer = undefined;
      const instance = boss;
      boss = undefined;
      await duePass;
      await instance?.stop({ graceful: true, close: false, timeout: options.stopTimeoutMs ?? 20_000 });
    },

    /** Whether a run of the source waits in the queue, or this process is running it. */
    async pending(sourceId: number): Promise<boolean> {
      if (runningDirectly.has(sourceId) || working.has(sourceId)) return true;
      if (!boss) return false;
      const queued = await boss.findJobs(OFFER_SYNC_QUEUE, { key: singletonKey(sourceId), queued: true, limit: 1 });
      return queued.length > 0;
    },

    /** The source's latest runs, newest first. */
    history: (sourceId: number) =>
      db.query<SyncRunEntry>(sql`
        SELECT id, status, ${isoTime(sql`started_at`)} AS "startedAt",
          CASE WHEN finished_at IS NULL THEN NULL ELSE ${isoTime(sql`finished_at`)} END AS "finishedAt",
          seen, new, changed, unchanged, retired, skipped, skipped_reasons AS "skippedReasons", error
        FROM offer_sync_runs WHERE source_id = ${sourceId}
        ORDER BY started_at DESC, id DESC LIMIT ${HISTORY_LENGTH}`),

    /** Enqueues due sources now (the pass the timer runs). */
    enqueueDue,

    /**
     * "Sync now": queues a run of the source, or runs it here at once when the queue does not
     * run in this process. 409 while one is queued or running.
     */
    async syncNow(sourceId: number): Promise<SyncRequest> {
      if (!boss) {
        if (runningDirectly.has(sourceId)) throw new HttpError(409, SYNC_ALREADY_QUEUED);
        runDirectly(sourceId);
        return { queued: false, message: "The sync queue does not run in this process: the sync started here." };
      }
      const id = await boss.send(OFFER_SYNC_QUEUE, { sourceId } satisfies SyncJob, {
        singletonKey: singletonKey(sourceId),
      });
      if (!id) throw new HttpError(409, SYNC_ALREADY_QUEUED);
      return { queued: true, message: "Sync queued: it starts within seconds." };
    },
  };
}

export type OfferScheduler = ReturnType<typeof createOfferScheduler>;
