// A network's offer sources (issue #13): the platform, the endpoint, the
// credentials (sealed with SECRETS_KEY, core/supply/secrets.ts), the schedule
// and the enabled flag. Nothing here ever returns, logs or audits a credential:
// callers see only `hasCredentials`. An edit names the `updatedAt` it was made
// from and answers 409 when someone saved in between; a console change writes
// its audit row in the same transaction (the shell's have no actor: actorId null).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql, type Database, type Queryable, type SQL } from "#db/client.ts";
import { allOf, listPage, orderBy } from "#db/listing.ts";
import {
  EVERY_MINUTES,
  RETIRE_AFTER_RUNS,
  sourceFilter,
  sourceInput,
  sourceUpdate,
  type OfferSource,
  type OfferSourcePage,
  type SourcePlatform,
} from "#contracts/supply.ts";
import { recordAudit } from "#core/audit/audit.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { fieldRefusal, isoTime } from "#core/networks/editor.ts";
import type { Secrets } from "./secrets.ts";
import { CAKE_NEEDS_AFFILIATE_ID, cakeAffiliateId } from "./platforms/cake.ts";
import { feedSettingsProblem } from "./feed-template.ts";

const NOT_FOUND = "Offer source not found";
const STALE = "Someone else changed this offer source; reload it and try again";

/** Who makes a change: a console user on a site, or the shell (no user). */
export type SourceEditor = { siteId: string; userId: number | null };

const SORTABLE = {
  createdAt: sql`s.created_at`,
  network: sql`lower(n.name)`,
  platform: sql`s.platform`,
  nextRunAt: sql`s.next_run_at`,
};

/** Every column a caller may see: the credentials only as whether there are some. */
const COLUMNS = sql`
  s.id, s.network_id AS "networkId", n.name AS "networkName", s.platform, s.endpoint,
  (s.credentials IS NOT NULL) AS "hasCredentials", s.settings, s.every_minutes AS "everyMinutes",
  s.retire_after_runs AS "retireAfterRuns", s.enabled, s.state, s.last_error AS "lastError",
  ${isoTime(sql`s.next_run_at`)} AS "nextRunAt", ${isoTime(sql`s.created_at`)} AS "createdAt",
  ${isoTime(sql`s.updated_at`)} AS "updatedAt",
  (SELECT json_build_object(
            'id', r.id, 'status', r.status, 'startedAt', ${isoTime(sql`r.started_at`)},
            'finishedAt', CASE WHEN r.finished_at IS NULL THEN NULL ELSE ${isoTime(sql`r.finished_at`)} END,
            'seen', r.seen, 'new', r.new, 'changed', r.changed, 'unchanged', r.unchanged,
            'retired', r.retired, 'skipped', r.skipped, 'error', r.error)
     FROM offer_sync_runs r WHERE r.source_id = s.id
     ORDER BY r.started_at DESC, r.id DESC LIMIT 1) AS "lastRun"`;

const FROM = sql`offer_sources s JOIN networks n ON n.id = s.network_id`;

const isId = (raw: unknown) =>
  (typeof raw === "number" || (typeof raw === "string" && /^[0-9]{1,15}$/.test(raw))) &&
  Number.isSafeInteger(Number(raw)) &&
  Number(raw) > 0;

/** What an audit row keeps of a source: everything it shows, credentials only as a flag. */
const audited = (s: OfferSource) => ({
  networkId: s.networkId,
  platform: s.platform,
  endpoint: s.endpoint,
  hasCredentials: s.hasCredentials,
  settings: s.settings,
  everyMinutes: s.everyMinutes,
  retireAfterRuns: s.retireAfterRuns,
  enabled: s.enabled,
});

/**
 * Where a source reads from. A platform's API: an http(s) address. A feed also
 * a file inside the data directory, as a file:// URL or an absolute path (kept
 * as a file:// URL); a file anywhere else is refused, so the console cannot make
 * the server read its own files.
 */
function endpointFor(platform: SourcePlatform, raw: string, dataDir: string | undefined): string {
  const refuse = (message: string) => fieldRefusal("endpoint", message);
  const local = platform === "feed" && dataDir !== undefined;
  const http = "endpoint must be an http(s) address";
  const inside = `endpoint must be an http(s) address, or a file inside the data directory (${dataDir ?? ""})`;
  let file: string | undefined;
  if (/^file:/i.test(raw)) {
    if (!local) throw refuse(http);
    try {
      file = fileURLToPath(new URL(raw));
    } catch {
      throw refuse(inside);
    }
  } else if (path.isAbsolute(raw) && !/^[a-z][a-z0-9+.-]*:/i.test(raw)) {
    if (!local) throw refuse(http);
    file = raw;
  }
  if (file !== undefined) {
    const root = path.resolve(dataDir!);
    const resolved = path.resolve(file);
    if (!resolved.startsWith(root + path.sep)) throw refuse(inside);
    return pathToFileURL(resolved).href;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(local ? inside : http);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) throw refuse(local ? inside : http);
  if (url.username || url.password) throw refuse("endpoint must not carry credentials: give them as the API key");
  return url.href;
}

/**
 * Settings a source's sync can follow: a feed's column mapping (core/supply/feed-template.ts), and
 * CAKE's affiliate id, without which CAKE serves no offer feed. `settings` undefined: kept as they are.
 */
function checkSettings(platform: SourcePlatform, settings: Record<string, unknown> | undefined, adding: boolean) {
  const given = settings ?? (adding ? {} : undefined);
  if (!given) return;
  const problem =
    platform === "feed"
      ? feedSettingsProblem(given)
      : platform === "cake" && !cakeAffiliateId(given)
        ? CAKE_NEEDS_AFFILIATE_ID
        : undefined;
  if (problem) throw fieldRefusal("settings", problem);
}

/**
 * A new source's input, checked as far as it can be without the database: its fields, and its endpoint
 * (kept as the stored form). Refuses like `add`, which checks the same way; the CLI asks first so a
 * mistyped argument never waits for the database.
 */
export function checkedSourceInput(body: unknown, dataDir: string | undefined) {
  const input = sourceInput.parse(body ?? {});
  return { input, endpoint: endpointFor(input.platform, input.endpoint, dataDir) };
}

export function createOfferSources(db: Database, secrets: Secrets, options: { dataDir?: string } = {}) {
  async function one(q: Queryable, id: number): Promise<OfferSource | undefined> {
    const [row] = await q.query<OfferSource>(sql`SELECT ${COLUMNS} FROM ${FROM} WHERE s.id = ${id}`);
    return row;
  }

  async function existing(rawId: unknown): Promise<OfferSource> {
    const source = isId(rawId) ? await one(db, Number(rawId)) : undefined;
    if (!source) throw notFound(NOT_FOUND);
    return source;
  }

  /** The sealed key as a bytea expression; sealing without SECRETS_KEY refuses (503, NO_SECRETS_KEY). */
  const sealed = (apiKey: string): SQL => sql`decode(${secrets.seal(apiKey).toString("hex")}, 'hex')`;

  return {
    /** One page of sources, newest first, each with its last run; narrowed to one network. */
    async list(rawFilter: unknown): Promise<OfferSourcePage> {
      const filter = sourceFilter.parse(rawFilter ?? {});
      const where = allOf(filter.networkId ? sql`s.network_id = ${filter.networkId}` : undefined);
      return listPage(
        db,
        filter.page,
        (limit) =>
          db.query<OfferSource>(
            sql`SELECT ${COLUMNS} FROM ${FROM} WHERE ${where} ${orderBy(filter, SORTABLE, sql`s.id`)} ${limit}`,
          ),
        sql`SELECT count(*)::int AS total FROM offer_sources s WHERE ${where}`,
      );
    },

    get: existing,

    /** The networks a source may belong to, by name (the console's add form). */
    networkChoices: () =>
      db.query<{ id: number; name: string }>(sql`SELECT id, name FROM networks ORDER BY lower(name), id`),

    /** Adds a source; its API key is sealed before it reaches the database. */
    async add(editor: SourceEditor, body: unknown): Promise<OfferSource> {
      const { input, endpoint } = checkedSourceInput(body, options.dataDir);
      const [network] = await db.query(sql`SELECT 1 FROM networks WHERE id = ${input.networkId}`);
      if (!network) throw fieldRefusal("networkId", "networkId must be the id of a network");
      // Sealed first: without SECRETS_KEY the operator learns that before anything else.
      const credentials = input.apiKey === undefined ? sql`NULL` : sealed(input.apiKey);
      checkSettings(input.platform, input.settings, true);
      return db.transaction(async (tx) => {
        const [{ id }] = await tx.query<{ id: number }>(sql`
          INSERT INTO offer_sources (network_id, platform, endpoint, credentials, settings, every_minutes, retire_after_runs)
          VALUES (${input.networkId}, ${input.platform}, ${endpoint}, ${credentials},
                  ${JSON.stringify(input.settings ?? {})}::jsonb,
                  ${input.everyMinutes ?? EVERY_MINUTES.default}, ${input.retireAfterRuns ?? RETIRE_AFTER_RUNS.default})
          RETURNING id`);
        const source = (await one(tx, id))!;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "offer_source.create",
          subjectType: "offer_source",
          subjectId: id,
          after: audited(source),
        });
        return source;
      });
    },

    /** Saves an edit made from the version `updatedAt`: 409 when the source changed since, 404 when it is not there. */
    async update(editor: SourceEditor, rawId: unknown, body: unknown): Promise<OfferSource> {
      const before = await existing(rawId);
      const input = sourceUpdate.parse(body ?? {});
      const endpoint =
        input.endpoint === undefined ? null : endpointFor(before.platform, input.endpoint, options.dataDir);
      checkSettings(before.platform, input.settings, false);
      const credentials =
        input.apiKey === undefined ? sql`credentials` : input.apiKey === null ? sql`NULL` : sealed(input.apiKey);
      const after = await db.transaction(async (tx) => {
        const rows = await tx.query<{ id: number }>(sql`
          UPDATE offer_sources SET
            enabled = coalesce(${input.enabled ?? null}::boolean, enabled),
            every_minutes = coalesce(${input.everyMinutes ?? null}::int, every_minutes),
            retire_after_runs = coalesce(${input.retireAfterRuns ?? null}::int, retire_after_runs),
            settings = coalesce(${input.settings === undefined ? null : JSON.stringify(input.settings)}::jsonb, settings),
            endpoint = coalesce(${endpoint}::text, endpoint),
            credentials = ${credentials},
            updated_at = clock_timestamp()
          WHERE id = ${before.id} AND ${isoTime(sql`updated_at`)} = ${input.updatedAt}
          RETURNING id`);
        if (rows.length === 0) return undefined;
        const saved = (await one(tx, before.id))!;
        await recordAudit(tx, {
          siteId: editor.siteId,
          actorId: editor.userId,
          action: "offer_source.update",
          subjectType: "offer_source",
          subjectId: before.id,
          before: audited(before),
          after: audited(saved),
        });
        return saved;
      });
      if (!after) throw new HttpError(409, STALE);
      return after;
    },
  };
}
