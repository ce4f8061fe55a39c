// One sync run of an offer source (issue #13): stream the platform's pages, map
// each record (core/supply/platforms/*), and write them in batches, each batch
// one transaction (a process killed mid-run leaves whole batches only). An
// unchanged record (same source_hash) writes nothing at all; a new or changed
// one is upserted by (source_id, external_id), with a history row when its
// payout, currency, type or status moved. A successful run then counts a miss
// for every offer it did not see (the run keeps the external ids it saw) and
// retires those missed `retire_after_runs` times in a row, and records its start
// as the source's last_verified_at: an offer that run saw unchanged was verified
// then (core/supply/verification.ts; an offer's first miss stores its last-seen time in its
// own verified_at). One run at a time per source, across processes: an advisory
// lock on the source; a run left 'running' by a dead process is marked failed
// ("interrupted") by the next run of its source.
import { sql, array, type Database, type Queryable } from "#db/client.ts";
import { notFound } from "#core/errors.ts";
import { usdValue } from "#core/reference/currencies.ts";
import { allocateSlugs, slugify } from "#core/offers/slugs.ts";
import { offerExtras, sourceHash, type MappedOffer } from "#core/supply/mapping.ts";
import { verifiedAtSql } from "#core/supply/verification.ts";
import type { Secrets } from "#core/supply/secrets.ts";
import { connectorFor } from "#core/supply/platforms/index.ts";
import { PlatformAuthError, PlatformError, type HttpPatience } from "#core/supply/platforms/http.ts";

export type RunCounts = {
  seen: number;
  new: number;
  changed: number;
  unchanged: number;
  retired: number;
  skipped: number;
  skippedReasons: Record<string, number>;
};

export type RunResult = RunCounts & {
  /** Null when another run of the source was already going (status "busy"). */
  runId: number | null;
  status: "succeeded" | "failed" | "busy";
  error?: string;
};

export type OfferSyncOptions = {
  secrets: Secrets;
  /** Called once after a run that changed the catalogue (caches forget what they hold). */
  onCatalogueChanged: () => void;
  log: { info(msg: string): void; warn(msg: string): void };
  fetch?: typeof fetch;
  /** Records written per transaction. */
  batchSize?: number;
  /** The connectors' patience: per-request timeout and retries (tests shorten them). */
  http?: HttpPatience;
};

export const ALREADY_RUNNING = "A sync of this source is already running";

type SourceRow = {
  id: number;
  networkId: number;
  platform: string;
  endpoint: string;
  credentials: Uint8Array | null;
  settings: Record<string, unknown>;
  retireAfterRuns: number;
};

type ExistingRow = {
  id: number;
  externalId: string;
  sourceHash: string | null;
  payoutAmount: number | null;
  payoutPercent: number | null;
  currency: string;
  payoutType: string;
  status: string;
  missedRuns: number;
  /** Retired by the operator or with its network: the source does not bring it back. */
  held: boolean;
};

/** Why a run that was left 'running' by a process that died is marked failed. */
export const INTERRUPTED = "interrupted";

/** New offers in one run after which the offers table's statistics are refreshed. */
const ANALYZE_AFTER_NEW = 5_000;

/**
 * The advisory lock's first key: offer sources of this schema (advisory locks are
 * database-wide, and schemas sharing a database must not lock each other's sources);
 * the second key is the source id.
 */
const LOCK_SPACE = sql`hashtext(current_schema() || ':offer-sources')`;

const emptyCounts = (): RunCounts => ({
  seen: 0,
  new: 0,
  changed: 0,
  unchanged: 0,
  retired: 0,
  skipped: 0,
  skippedReasons: {},
});

/** The networks' offer counts (and each site listing's copy) from their active offers, as the editor keeps them. */
async function recountNetwork(tx: Queryable, networkId: number) {
  await tx.query(sql`
    UPDATE networks n SET offer_count = (SELECT count(*)::int FROM offers o WHERE o.network_id = n.id AND o.status = 'active')
    WHERE n.id = ${networkId}`);
  await tx.query(sql`
    UPDATE network_properties p SET offer_count = n.offer_count FROM networks n
    WHERE n.id = p.network_id AND p.network_id = ${networkId}`);
}

const saveCounts = (q: Queryable, runId: number, c: RunCounts) =>
  q.query(sql`
    UPDATE offer_sync_runs SET seen = ${c.seen}, new = ${c.new}, changed = ${c.changed}, unchanged = ${c.unchanged},
      retired = ${c.retired}, skipped = ${c.skipped}, skipped_reasons = ${JSON.stringify(c.skippedReasons)}::jsonb
    WHERE id = ${runId}`);

export function createOfferSync(db: Database, options: OfferSyncOptions) {
  const batchSize = options.batchSize ?? 500;
  const runningHere = new Set<number>();

  /** Runs `work` holding the source's lock, or answers undefined when another run holds it. */
  async function withSourceLock<T>(sourceId: number, work: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (runningHere.has(sourceId)) return undefined;
    runningHere.add(sourceId);
    try {
      if (db.kind === "postgres") {
        // A transaction-level lock in a transaction of its own, held while the batches commit on other
        // connections; it goes with the connection if the process dies. It idles between statements
        // for as long as the run lasts, so the serving bound on idle transactions is lifted for it.
        return await db.transaction(async (tx) => {
          await tx.query(sql`SET LOCAL idle_in_transaction_session_timeout = 0`);
          const [row] = await tx.query<{ locked: boolean }>(
            sql`SELECT pg_try_advisory_xact_lock(${LOCK_SPACE}, ${sourceId}::int) AS locked`,
          );
          return row.locked ? { value: await work() } : undefined;
        });
      }
      // PGlite: one process owns the database; its one session holds the lock.
      const [row] = await db.query<{ locked: boolean }>(
        sql`SELECT pg_try_advisory_lock(${LOCK_SPACE}, ${sourceId}::int) AS locked`,
      );
      if (!row.locked) return undefined;
      try {
        return { value: await work() };
      } finally {
        await db.query(sql`SELECT pg_advisory_unlock(${LOCK_SPACE}, ${sourceId}::int)`);
      }
    } finally {
      runningHere.delete(sourceId);
    }
  }

  /** Writes one batch of mapped records in one transaction; returns what it counted. */
  async function writeBatch(source: SourceRow, runId: number, records: MappedOffer[], knownCountries: Set<string>) {
    const counts = { new: 0, changed: 0, unchanged: 0, skipped: 0, duplicates: 0 };
    const byId = new Map<string, MappedOffer>();
    for (const r of records) {
      if (byId.has(r.externalId)) counts.duplicates++;
      byId.set(r.externalId, r);
    }
    const batch = [...byId.values()];
    const ids = batch.map((r) => r.externalId);

    await db.transaction(async (tx) => {
      // Platform categories: a name seen for the first time waits for an operator's mapping (NULL).
      const names = [...new Set(batch.flatMap((r) => r.categories))];
      const vertical = new Map<string, number | null>();
      if (names.length) {
        await tx.query(sql`
          INSERT INTO platform_categories (platform, name) SELECT ${source.platform}, unnest(${array(names)}::text[])
          ON CONFLICT (platform, name) DO NOTHING`);
        const rows = await tx.query<{ name: string; categoryId: number | null }>(sql`
          SELECT name, category_id AS "categoryId" FROM platform_categories
          WHERE platform = ${source.platform} AND name = ANY (${array(names)}::text[])`);
        for (const row of rows) vertical.set(row.name, row.categoryId);
      }

      const existing = new Map(
        (
          await tx.query<ExistingRow>(sql`
            SELECT id, external_id AS "externalId", source_hash AS "sourceHash", payout_amount AS "payoutAmount",
              payout_percent AS "payoutPercent", btrim(currency) AS currency, payout_type AS "payoutType", status,
              missed_runs AS "missedRuns", (status = 'retired' AND (retired_by_operator OR retired_with_network)) AS held
            FROM offers WHERE source_id = ${source.id} AND external_id = ANY (${array(ids)}::text[])`)
        ).map((row) => [row.externalId, row]),
      );

      const unchanged: string[] = [];
      // Unchanged but missed by earlier runs: seen again, so its misses start over.
      const returning: string[] = [];
      // A held offer is written with its own status ('retired'), not the source's.
      const writes: (Omit<MappedOffer, "status"> & {
        status: string;
        categoryIds: number[];
        hash: string;
        before?: ExistingRow;
      })[] = [];
      for (const record of batch) {
        const categoryIds = [
          ...new Set(
            record.categories.map((n) => vertical.get(n)).filter((id): id is number => typeof id === "number"),
          ),
        ].sort((a, b) => a - b);
        const upstream = { ...record, countries: record.countries.filter((c) => knownCountries.has(c)) };
        const hash = sourceHash(upstream, categoryIds);
        const before = existing.get(record.externalId);
        // What the source says is kept, but an offer the operator (or its network) retired stays retired.
        const offer = { ...upstream, status: before?.held ? before.status : upstream.status };
        if (before && before.sourceHash === hash && before.status === offer.status) {
          unchanged.push(record.externalId);
          if (before.missedRuns > 0) returning.push(record.externalId);
        } else writes.push({ ...offer, categoryIds, hash, before });
      }

      const runStart = sql`(SELECT started_at FROM offer_sync_runs WHERE id = ${runId})`;
      if (returning.length) {
        await tx.query(sql`
          UPDATE offers SET verified_at = ${runStart}, missed_runs = 0
          WHERE source_id = ${source.id} AND external_id = ANY (${array(returning)}::text[])`);
      }

      if (writes.length) {
        // Slugs of new offers, unique across the directory: the name's, else with the platform's id,
        // else with the source's too (core/offers/slugs.ts).
        const fresh = writes.filter((w) => !w.before);
        const slugs = await allocateSlugs(
          tx,
          fresh.map((w) => {
            const base = slugify(w.name) || "offer";
            return [base, `${base}-${w.externalId}`, `${base}-${w.externalId}-s${source.id}`];
          }),
        );
        const slugOf = new Map(fresh.map((w, i) => [w.externalId, slugs[i]]));

        const rows = writes.map((w) => {
          const extras = offerExtras(w);
          return {
            external_id: w.externalId,
            slug: slugOf.get(w.externalId) ?? "",
            name: w.name,
            description: w.description,
            preview_url: w.previewUrl,
            landing_domain: w.landingDomain,
            payout_type: w.payoutType,
            payout_amount: w.payoutAmount,
            payout_percent: w.payoutPercent,
            // The one rule for the ranking payout (core/reference/currencies.ts).
            payout_usd: w.payoutAmount === null ? null : usdValue(w.payoutAmount, w.currency),
            currency: w.currency,
            countries: w.countries,
            category_ids: w.categoryIds,
            status: w.status,
            source_hash: w.hash,
            mobile: extras.mobile,
            ppc: extras.payPerCall,
            allowed_traffic: extras.allowedTraffic,
            restricted_traffic: extras.restrictedTraffic,
          };
        });
        const saved = await tx.query<{ id: number; externalId: string }>(sql`
          INSERT INTO offers (source_id, network_id, external_id, slug, name, description, preview_url, landing_domain,
            payout_type, payout_amount, payout_percent, payout_usd, currency, countries, category_ids, status,
            mobile, ppc, allowed_traffic, restricted_traffic, source_hash, verified_at, missed_runs)
          SELECT ${source.id}, ${source.networkId}, r.external_id, r.slug, r.name, r.description, r.preview_url,
            r.landing_domain, r.payout_type, r.payout_amount, r.payout_percent, r.payout_usd, r.currency, r.countries,
            r.category_ids, r.status, r.mobile, r.ppc, r.allowed_traffic, r.restricted_traffic, r.source_hash,
            ${runStart}, 0
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(external_id text, slug text, name text,
            description text, preview_url text, landing_domain text, payout_type text, payout_amount numeric,
            payout_percent numeric, payout_usd numeric, currency text, countries text[], category_ids int[],
            status text, mobile boolean, ppc boolean, allowed_traffic text[], restricted_traffic text[],
            source_hash text)
          ON CONFLICT (source_id, external_id) WHERE source_id IS NOT NULL DO UPDATE SET
            name = EXCLUDED.name, description = EXCLUDED.description, preview_url = EXCLUDED.preview_url,
            landing_domain = EXCLUDED.landing_domain, payout_type = EXCLUDED.payout_type,
            payout_amount = EXCLUDED.payout_amount, payout_percent = EXCLUDED.payout_percent,
            payout_usd = EXCLUDED.payout_usd, currency = EXCLUDED.currency, countries = EXCLUDED.countries,
            category_ids = EXCLUDED.category_ids, status = EXCLUDED.status, mobile = EXCLUDED.mobile,
            ppc = EXCLUDED.ppc, allowed_traffic = EXCLUDED.allowed_traffic,
            restricted_traffic = EXCLUDED.restricted_traffic, source_hash = EXCLUDED.source_hash,
            verified_at = EXCLUDED.verified_at, missed_runs = 0, updated_at = clock_timestamp()
          RETURNING id, external_id AS "externalId"`);
        const idOf = new Map(saved.map((s) => [s.externalId, s.id]));

        // History: every new offer, and every change of payout, currency, type or status.
        const history = writes
          .filter(
            (w) =>
              !w.before ||
              w.before.payoutAmount !== w.payoutAmount ||
              w.before.payoutPercent !== w.payoutPercent ||
              w.before.currency !== w.currency ||
              w.before.payoutType !== w.payoutType ||
              w.before.status !== w.status,
          )
          .map((w) => ({
            offer_id: idOf.get(w.externalId),
            payout_amount: w.payoutAmount,
            payout_percent: w.payoutPercent,
            currency: w.currency,
            payout_type: w.payoutType,
            payout_usd: w.payoutAmount === null ? null : usdValue(w.payoutAmount, w.currency),
            status: w.status,
          }));
        if (history.length) {
          await tx.query(sql`
            INSERT INTO offer_history (offer_id, payout_amount, payout_percent, currency, payout_type, payout_usd, status, run_id)
            SELECT h.offer_id, h.payout_amount, h.payout_percent, h.currency, h.payout_type, h.payout_usd, h.status, ${runId}
            FROM jsonb_to_recordset(${JSON.stringify(history)}::jsonb) AS h(offer_id bigint, payout_amount numeric,
              payout_percent numeric, currency text, payout_type text, payout_usd numeric, status text)`);
        }
      }
      counts.new = writes.filter((w) => !w.before).length;
      counts.changed = writes.length - counts.new;
      counts.unchanged = unchanged.length;
    });
    return counts;
  }

  async function execute(source: SourceRow): Promise<RunResult> {
    // This run holds the source's lock: a run still 'running' died with its process.
    await db.query(sql`
      UPDATE offer_sync_runs SET status = 'failed', finished_at = now(), error = ${INTERRUPTED}
      WHERE source_id = ${source.id} AND status = 'running'`);
    const [{ id: runId }] = await db.query<{ id: number }>(
      sql`INSERT INTO offer_sync_runs (source_id) VALUES (${source.id}) RETURNING id`,
    );
    const c = emptyCounts();
    const skipped = (reason: string, n = 1) => {
      c.skipped += n;
      c.skippedReasons[reason] = (c.skippedReasons[reason] ?? 0) + n;
    };
    try {
      const connector = connectorFor(source.platform);
      if (!connector) throw new PlatformError(`${source.platform} sources cannot be synced: no connector`);
      if (!source.credentials && connector.needsApiKey)
        throw new PlatformAuthError("The source has no API key: add one before syncing");
      const apiKey = source.credentials ? options.secrets.open(Buffer.from(source.credentials)) : null;
      const pages = connector.pages({
        endpoint: source.endpoint,
        apiKey,
        settings: source.settings,
        fetch: options.fetch,
        http: options.http,
      });
      const knownCountries = new Set(
        (await db.query<{ code: string }>(sql`SELECT code FROM countries`)).map((r) => r.code),
      );
      let buffer: MappedOffer[] = [];
      // The external ids this run saw, for the misses at its end (100,000 ids: about 6 MB of heap).
      const seenIds = new Set<string>();
      const flush = async (records: MappedOffer[]) => {
        for (const r of records) seenIds.add(r.externalId);
        const counted = await writeBatch(source, runId, records, knownCountries);
        c.new += counted.new;
        c.changed += counted.changed;
        c.unchanged += counted.unchanged;
        if (counted.duplicates) skipped("duplicate external id", counted.duplicates);
        await saveCounts(db, runId, c);
      };
      for await (const page of pages) {
        for (const raw of page) {
          c.seen++;
          const mapped = connector.map(raw);
          if (mapped.ok) buffer.push(mapped.offer);
          else skipped(mapped.reason);
        }
        while (buffer.length >= batchSize) {
          const records = buffer.slice(0, batchSize);
          buffer = buffer.slice(batchSize);
          await flush(records);
        }
      }
      if (buffer.length) await flush(buffer);

      await db.transaction(async (tx) => {
        // A miss for every listed offer this run did not see; at its first, the time the source last
        // saw it goes into its own verified_at (the source's last_verified_at moves on below).
        await tx.query(sql`
          UPDATE offers o SET missed_runs = o.missed_runs + 1, verified_at = ${verifiedAtSql(sql`o`, sql`s`)}
          FROM offer_sources s
          WHERE s.id = o.source_id AND o.source_id = ${source.id} AND o.status <> 'retired'
            AND NOT EXISTS (SELECT 1 FROM unnest(${array([...seenIds])}::text[]) AS seen(external_id)
                            WHERE seen.external_id = o.external_id)`);
        const [retired] = await tx.query<{ n: number }>(sql`
          WITH gone AS (
            UPDATE offers SET status = 'retired', updated_at = clock_timestamp()
            WHERE source_id = ${source.id} AND status <> 'retired' AND missed_runs >= ${source.retireAfterRuns}
            RETURNING id, payout_amount, payout_percent, currency, payout_type, payout_usd
          ), noted AS (
            INSERT INTO offer_history (offer_id, payout_amount, payout_percent, currency, payout_type, payout_usd, status, run_id)
            SELECT id, payout_amount, payout_percent, currency, payout_type, payout_usd, 'retired', ${runId} FROM gone
          )
          SELECT count(*)::int AS n FROM gone`);
        c.retired = retired.n;
        if (c.new + c.changed + c.retired > 0) await recountNetwork(tx, source.networkId);
        await saveCounts(tx, runId, c);
        await tx.query(sql`UPDATE offer_sync_runs SET status = 'succeeded', finished_at = now() WHERE id = ${runId}`);
        await tx.query(sql`
          UPDATE offer_sources SET state = 'ok', last_error = NULL, updated_at = now(),
            last_verified_at = (SELECT started_at FROM offer_sync_runs WHERE id = ${runId})
          WHERE id = ${source.id}`);
      });
      // Many new rows make the planner's statistics stale: the next run's per-batch lookups by
      // (source_id, external_id) would scan the whole source (bench/sync.ts measured 108 ms a batch
      // against 1 ms once analysed).
      if (c.new >= ANALYZE_AFTER_NEW) await db.query(sql`ANALYZE offers`);
      if (c.new + c.changed + c.retired > 0) options.onCatalogueChanged();
      options.log.info(
        `offer sync: source ${source.id} run ${runId} succeeded: seen ${c.seen}, new ${c.new}, changed ${c.changed}, unchanged ${c.unchanged}, retired ${c.retired}, skipped ${c.skipped}`,
      );
      return { runId, status: "succeeded", ...c };
    } catch (err) {
      const auth = err instanceof PlatformAuthError;
      const error =
        auth || err instanceof PlatformError
          ? (err as Error).message
          : `The sync stopped: ${err instanceof Error ? err.message : String(err)}`;
      await saveCounts(db, runId, c);
      await db.query(sql`
        UPDATE offer_sync_runs SET status = 'failed', finished_at = now(), error = ${error} WHERE id = ${runId}`);
      await db.query(sql`
        UPDATE offer_sources SET last_error = ${error}, updated_at = now(),
          state = CASE WHEN ${auth} THEN 'failing' ELSE state END
        WHERE id = ${source.id}`);
      // Batches that committed before the fault are in the catalogue.
      if (c.new + c.changed > 0) options.onCatalogueChanged();
      options.log.warn(`offer sync: source ${source.id} run ${runId} failed: ${error}`);
      return { runId, status: "failed", error, ...c };
    }
  }

  return {
    /** Syncs one source now; "busy" when a run of it is already going here or in another process. */
    async run(sourceId: number): Promise<RunResult> {
      const [source] = await db.query<SourceRow>(sql`
        SELECT id, network_id AS "networkId", platform, endpoint, credentials, settings,
          retire_after_runs AS "retireAfterRuns"
        FROM offer_sources WHERE id = ${sourceId}`);
      if (!source) throw notFound("Offer source not found");
      const locked = await withSourceLock(source.id, () => execute(source));
      if (!locked) return { runId: null, status: "busy", error: ALREADY_RUNNING, ...emptyCounts() };
      return locked.value;
    },
  };
}
