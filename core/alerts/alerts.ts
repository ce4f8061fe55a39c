// E-mail alerts (issue #14), per saved search and for the watchlist.
//
// Design, in words:
// - What is news: the rows of offer_history (core/alerts/changes.ts) after an alert's
//   cursor (last_change_id), up to the newest row when the run starts, plus a followed
//   network's retirement. A history id, not a time, marks the place: rows written with
//   the database's clock and a job run with a test's (or a late) clock cannot miss each other.
// - When: `run(now)` takes its clock as a parameter. Instant alerts are due at every
//   run; daily and weekly ones once per slot (core/alerts/schedule.ts).
// - What is sent: one digest per user and frequency through the outbox
//   (core/mail/mailer.ts: retries, SMTP or files), a section per alert; a run that
//   finds nothing for a user sends nothing.
// - One change, one mention: alert_mentions has a row per (user, change), written in
//   the transaction that queues the mail; a change already mentioned to the user by any
//   of their alerts is left out, and two instances racing on a user cannot both mail it.
// - Unsubscribing: every alert has a random 256-bit token (its "Stop this alert" link)
//   and every digest one that stops all the user's alerts of its frequency
//   (List-Unsubscribe, one-click POST per RFC 8058). Both work signed out.
import { sql, type Database, type Queryable } from "#db/client.ts";
import type { AlertFrequency, SavedSearchPayload } from "#contracts/saved-searches.ts";
import { newToken } from "#core/auth/tokens.ts";
import type { MailLog, Mailer } from "#core/mail/mailer.ts";
import { hashIp } from "#core/privacy.ts";
import type { RateLimiter, RateRule } from "#core/rate-limit/limiter.ts";
import { savedSearchChanges, watchlistChanges, type AlertChange } from "./changes.ts";
import { digestMail, searchLink, type DigestSection } from "./digest.ts";
import { slotStart } from "./schedule.ts";

type Frequency = Exclude<AlertFrequency, "none">;
/** Changes one section lists; past it, a link to all of them. */
const SECTION_MAX = 50;
/** Alerts taken per run; the rest (oldest run first) are due again at the next. */
const ALERTS_PER_RUN = 500;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/**
 * Unsubscribe links per address and minute: plenty for a person and a mail provider's
 * one-click POST, while a token hunt (2^256 tokens) gets nowhere anyway.
 */
const UNSUBSCRIBE_RATE: RateRule = { limit: 30, windowSeconds: 60 };

type DueAlert = {
  kind: "search" | "watchlist";
  /** The saved search's id; the watchlist alert's is its user's. */
  id: number;
  userId: number;
  email: string;
  frequency: Frequency;
  name: string | null;
  search: SavedSearchPayload | null;
  token: string;
};

/** What a token stops, in words for the unsubscribe page. */
export type UnsubscribeTarget = { what: string; active: boolean };

export type AlertDeps = {
  mail: Mailer;
  publicUrl: string;
  log: MailLog;
  limiter: RateLimiter;
  ipHashSalt: string;
};

export function createAlerts(db: Database, deps: AlertDeps) {
  const throttle = (clientIp: string) =>
    deps.limiter.consume(`unsubscribe:${hashIp(clientIp, deps.ipHashSalt)}`, UNSUBSCRIBE_RATE);
  const stopUrl = (token: string) => `${deps.publicUrl}/unsubscribe/${token}`;

  /** The alerts due at `now`, both kinds. */
  function dueAlerts(now: Date): Promise<DueAlert[]> {
    const due = (table: ReturnType<typeof sql>) => sql`${table}.alert_frequency = 'instant'
      OR (${table}.alert_frequency = 'daily' AND ${table}.last_alerted_at < ${slotStart("daily", now).toISOString()}::timestamptz)
      OR (${table}.alert_frequency = 'weekly' AND ${table}.last_alerted_at < ${slotStart("weekly", now).toISOString()}::timestamptz)`;
    return db.query<DueAlert>(sql`
      SELECT * FROM (
        SELECT 'search' AS kind, s.id, s.user_id AS "userId", u.email, s.alert_frequency AS frequency, s.name,
          s.payload AS search, s.unsubscribe_token AS token, s.last_alerted_at
        FROM saved_searches s JOIN users u ON u.id = s.user_id
        WHERE s.alert_frequency <> 'none' AND (${due(sql`s`)})
        UNION ALL
        SELECT 'watchlist', a.user_id, a.user_id, u.email, a.alert_frequency, NULL, NULL, a.unsubscribe_token,
          a.last_alerted_at
        FROM watchlist_alerts a JOIN users u ON u.id = a.user_id
        WHERE a.alert_frequency <> 'none' AND (${due(sql`a`)})
      ) due ORDER BY last_alerted_at, "userId" LIMIT ${ALERTS_PER_RUN}`);
  }

  /** Claims an alert (locks it, still unchanged), answering its cursor; null when another run has it. */
  async function claim(tx: Queryable, a: DueAlert): Promise<number | null> {
    const [row] =
      a.kind === "search"
        ? await tx.query<{ cursor: number }>(sql`SELECT last_change_id AS cursor FROM saved_searches
            WHERE id = ${a.id} AND alert_frequency = ${a.frequency} FOR UPDATE SKIP LOCKED`)
        : await tx.query<{ cursor: number }>(sql`SELECT last_change_id AS cursor FROM watchlist_alerts
            WHERE user_id = ${a.userId} AND alert_frequency = ${a.frequency} FOR UPDATE SKIP LOCKED`);
    return row ? Number(row.cursor) : null;
  }

  async function advance(tx: Queryable, a: DueAlert, upTo: number, now: Date) {
    const at = now.toISOString();
    await (a.kind === "search"
      ? tx.query(sql`UPDATE saved_searches SET last_change_id = greatest(last_change_id, ${upTo}),
          last_alerted_at = ${at}::timestamptz WHERE id = ${a.id}`)
      : tx.query(sql`UPDATE watchlist_alerts SET last_change_id = greatest(last_change_id, ${upTo}),
          last_alerted_at = ${at}::timestamptz WHERE user_id = ${a.userId}`));
  }

  /** The token of a user's digests of one frequency, made at the first. */
  async function digestToken(tx: Queryable, userId: number, frequency: Frequency): Promise<string> {
    await tx.query(sql`INSERT INTO alert_digest_tokens (user_id, frequency, token)
      VALUES (${userId}, ${frequency}, ${newToken()}) ON CONFLICT (user_id, frequency) DO NOTHING`);
    const [row] = await tx.query<{ token: string }>(
      sql`SELECT token FROM alert_digest_tokens WHERE user_id = ${userId} AND frequency = ${frequency}`,
    );
    return row.token;
  }

  /** One user's due alerts of one frequency: their news, mentioned and mailed in one transaction. */
  async function digest(alerts: DueAlert[], upTo: number, now: Date): Promise<boolean> {
    const [{ userId, email, frequency }] = alerts;
    return db.transaction(async (tx) => {
      const sections: DigestSection[] = [];
      const mentions: { key: string; kind: string; subjectId: number; offerId: number | null }[] = [];
      const seen = new Set<string>();
      for (const a of alerts) {
        const cursor = await claim(tx, a);
        if (cursor === null) continue;
        const window = { userId, after: cursor, upTo, limit: SECTION_MAX + 1 };
        const found: AlertChange[] =
          a.kind === "search"
            ? await savedSearchChanges(tx, window, a.id, a.search!)
            : await watchlistChanges(tx, window);
        await advance(tx, a, upTo, now);
        // A change two alerts of the user found is told once, in the first.
        const changes = found.slice(0, SECTION_MAX).filter((c) => !seen.has(c.key));
        if (!changes.length) continue;
        for (const c of changes) {
          seen.add(c.key);
          mentions.push({ key: c.key, kind: a.kind, subjectId: a.id, offerId: c.offerId });
        }
        sections.push({
          title: a.kind === "search" ? `Your saved search "${a.name}":` : "Your watchlist:",
          changes,
          more: found.length > SECTION_MAX,
          moreUrl: a.kind === "search" ? searchLink(deps.publicUrl, a.search!) : `${deps.publicUrl}/account/watchlist`,
          stopUrl: stopUrl(a.token),
        });
      }
      if (!sections.length) return false;
      const written = await tx.query<{ key: string }>(sql`
        INSERT INTO alert_mentions (user_id, change_key, subject_kind, subject_id, offer_id, mentioned_at)
        SELECT ${userId}, m.key, m.kind, m.subject_id, m.offer_id, ${now.toISOString()}::timestamptz
        FROM jsonb_to_recordset(${JSON.stringify(mentions.map((m) => ({ ...m, subject_id: m.subjectId, offer_id: m.offerId })))}::jsonb)
          AS m(key text, kind text, subject_id bigint, offer_id bigint)
        ON CONFLICT (user_id, change_key) DO NOTHING
        RETURNING change_key AS key`);
      // Another run mentioned some first (it had the user's other alerts locked): those are not told twice.
      const ours = new Set(written.map((w) => w.key));
      const kept = sections
        .map((s) => ({ ...s, changes: s.changes.filter((c) => ours.has(c.key)) }))
        .filter((s) => s.changes.length);
      if (!kept.length) return false;
      const token = await digestToken(tx, userId, frequency);
      await deps.mail.enqueue(
        tx,
        digestMail({ to: email, frequency, sections: kept, publicUrl: deps.publicUrl, unsubscribeUrl: stopUrl(token) }),
      );
      return true;
    });
  }

  /** What a token names, or null for an unknown (or malformed) one. */
  async function resolve(q: Queryable, token: string) {
    if (!TOKEN.test(token)) return null;
    const [row] = await q.query<{
      kind: "search" | "watchlist" | "digest";
      id: number;
      name: string | null;
      frequency: string;
    }>(sql`
      SELECT 'search' AS kind, id, name, alert_frequency AS frequency FROM saved_searches WHERE unsubscribe_token = ${token}
      UNION ALL
      SELECT 'watchlist', user_id, NULL, alert_frequency FROM watchlist_alerts WHERE unsubscribe_token = ${token}
      UNION ALL
      SELECT 'digest', user_id, NULL, frequency FROM alert_digest_tokens WHERE token = ${token}`);
    return row ?? null;
  }

  function describe(r: NonNullable<Awaited<ReturnType<typeof resolve>>>, active: boolean): UnsubscribeTarget {
    const what =
      r.kind === "search"
        ? `e-mail alerts for your saved search “${r.name}”`
        : r.kind === "watchlist"
          ? "e-mail alerts for your watchlist"
          : `all your ${r.frequency === "instant" ? "instant" : r.frequency} alert e-mails`;
    return { what, active };
  }

  async function isActive(r: NonNullable<Awaited<ReturnType<typeof resolve>>>): Promise<boolean> {
    if (r.kind !== "digest") return r.frequency !== "none";
    const [row] = await db.query<{ n: number }>(sql`
      SELECT (SELECT count(*) FROM saved_searches WHERE user_id = ${r.id} AND alert_frequency = ${r.frequency})
        + (SELECT count(*) FROM watchlist_alerts WHERE user_id = ${r.id} AND alert_frequency = ${r.frequency}) AS n`);
    return Number(row.n) > 0;
  }

  return {
    /** Sends the alerts due at `now`; answers how many digests were queued. */
    async run(now: Date = new Date()): Promise<{ digests: number }> {
      const [{ upTo }] = await db.query<{ upTo: number }>(
        sql`SELECT coalesce(max(id), 0) AS "upTo" FROM offer_history`,
      );
      const groups = new Map<string, DueAlert[]>();
      for (const a of await dueAlerts(now)) {
        const key = `${a.userId}:${a.frequency}`;
        groups.set(key, [...(groups.get(key) ?? []), { ...a, id: Number(a.id), userId: Number(a.userId) }]);
      }
      let digests = 0;
      for (const alerts of groups.values()) {
        try {
          if (await digest(alerts, Number(upTo), now)) digests++;
        } catch (err) {
          // One user's failure (a row gone mid-run) does not hold up the others; their alerts stay due.
          deps.log.error(
            `alert digest for user ${alerts[0].userId} failed: ${err instanceof Error ? err.message : err}`,
          );
        }
      }
      if (digests) await deps.mail.deliverDue();
      return { digests };
    },

    /** What the token stops and whether it is still on; null for an unknown token. 429 past the rate. */
    async unsubscribeTarget(token: string, clientIp: string): Promise<UnsubscribeTarget | null> {
      await throttle(clientIp);
      const r = await resolve(db, token);
      return r ? describe(r, await isActive(r)) : null;
    },

    /** Turns off what the token names (again is fine); null for an unknown token. */
    async unsubscribe(token: string, clientIp: string): Promise<UnsubscribeTarget | null> {
      await throttle(clientIp);
      const r = await resolve(db, token);
      if (!r) return null;
      if (r.kind === "search")
        await db.query(sql`UPDATE saved_searches SET alert_frequency = 'none', updated_at = now() WHERE id = ${r.id}`);
      else if (r.kind === "watchlist")
        await db.query(
          sql`UPDATE watchlist_alerts SET alert_frequency = 'none', updated_at = now() WHERE user_id = ${r.id}`,
        );
      else {
        await db.query(sql`UPDATE saved_searches SET alert_frequency = 'none', updated_at = now()
          WHERE user_id = ${r.id} AND alert_frequency = ${r.frequency}`);
        await db.query(sql`UPDATE watchlist_alerts SET alert_frequency = 'none', updated_at = now()
          WHERE user_id = ${r.id} AND alert_frequency = ${r.frequency}`);
      }
      return describe(r, false);
    },
  };
}
