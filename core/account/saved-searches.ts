// An affiliate's saved offer searches and the alert settings of those and of the
// watchlist. Every call is scoped to the user: another user's id answers 404, as
// an unknown one does. Turning an alert on starts it from now (the changes before
// are not news), so the job (core/alerts/alerts.ts) never mails a backlog.
import { sql, type Queryable } from "#db/client.ts";
import {
  SAVED_SEARCHES_MAX,
  savedSearchInput,
  savedSearchPatch,
  watchlistAlertInput,
  type AlertFrequency,
  type SavedSearch,
  type SavedSearchPayload,
} from "#contracts/saved-searches.ts";
import { HttpError, notFound } from "#core/errors.ts";
import { newToken } from "#core/auth/tokens.ts";

const NOT_FOUND = "Saved search not found";

const isId = (v: unknown) => typeof v === "string" && /^\d{1,15}$/.test(v) && Number(v) <= Number.MAX_SAFE_INTEGER;

/** Where a newly started alert begins: after the last change recorded so far. */
const LATEST_CHANGE = sql`(SELECT coalesce(max(id), 0) FROM offer_history)`;

const COLUMNS = sql`id, name, payload AS search, alert_frequency AS "alertFrequency",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "createdAt"`;

export function createSavedSearches(db: Queryable) {
  async function owned(userId: number, rawId: unknown): Promise<SavedSearch> {
    const [row] = isId(rawId)
      ? await db.query<SavedSearch>(
          sql`SELECT ${COLUMNS} FROM saved_searches WHERE id = ${Number(rawId)} AND user_id = ${userId}`,
        )
      : [];
    if (!row) throw notFound(NOT_FOUND);
    return { ...row, id: Number(row.id) };
  }

  return {
    async list(userId: number): Promise<SavedSearch[]> {
      const rows = await db.query<SavedSearch>(
        sql`SELECT ${COLUMNS} FROM saved_searches WHERE user_id = ${userId} ORDER BY id`,
      );
      return rows.map((r) => ({ ...r, id: Number(r.id) }));
    },

    get: owned,

    async create(userId: number, body: unknown): Promise<SavedSearch> {
      if (body === null || typeof body !== "object" || Array.isArray(body))
        throw new HttpError(400, "The saved search must be a JSON object");
      const { name, alertFrequency, page: _page, ...search } = savedSearchInput.parse(body);
      const payload: SavedSearchPayload = search;
      // The count and the insert in one statement: two tabs saving at once cannot pass the limit.
      const [row] = await db.query<{ id: number }>(sql`
        INSERT INTO saved_searches (user_id, name, payload, alert_frequency, unsubscribe_token, last_change_id)
        SELECT ${userId}, ${name}, ${JSON.stringify(payload)}::jsonb, ${alertFrequency}, ${newToken()}, ${LATEST_CHANGE}
        WHERE (SELECT count(*) FROM saved_searches WHERE user_id = ${userId}) < ${SAVED_SEARCHES_MAX}
        RETURNING id`);
      if (!row) throw new HttpError(400, `You can keep at most ${SAVED_SEARCHES_MAX} saved searches; delete one first`);
      return owned(userId, String(row.id));
    },

    /** Renames and/or changes the alert's frequency. */
    async update(userId: number, rawId: unknown, body: unknown): Promise<SavedSearch> {
      const before = await owned(userId, rawId);
      const patch = savedSearchPatch.parse(body ?? {});
      const frequency = patch.alertFrequency ?? before.alertFrequency;
      const starts = before.alertFrequency === "none" && frequency !== "none";
      await db.query(sql`
        UPDATE saved_searches SET name = ${patch.name ?? before.name}, alert_frequency = ${frequency},
          last_change_id = CASE WHEN ${starts} THEN ${LATEST_CHANGE} ELSE last_change_id END,
          last_alerted_at = CASE WHEN ${starts} THEN now() ELSE last_alerted_at END, updated_at = now()
        WHERE id = ${before.id} AND user_id = ${userId}`);
      return owned(userId, String(before.id));
    },

    async remove(userId: number, rawId: unknown): Promise<void> {
      const { id } = await owned(userId, rawId);
      await db.query(sql`DELETE FROM saved_searches WHERE id = ${id} AND user_id = ${userId}`);
    },

    /** The watchlist alert's frequency ("none" until set). */
    async watchlistAlert(userId: number): Promise<{ alertFrequency: AlertFrequency }> {
      const [row] = await db.query<{ alertFrequency: AlertFrequency }>(
        sql`SELECT alert_frequency AS "alertFrequency" FROM watchlist_alerts WHERE user_id = ${userId}`,
      );
      return row ?? { alertFrequency: "none" };
    },

    async setWatchlistAlert(userId: number, body: unknown): Promise<{ alertFrequency: AlertFrequency }> {
      const { alertFrequency } = watchlistAlertInput.parse(body ?? {});
      await db.query(sql`
        INSERT INTO watchlist_alerts (user_id, alert_frequency, unsubscribe_token, last_change_id)
        VALUES (${userId}, ${alertFrequency}, ${newToken()}, ${LATEST_CHANGE})
        ON CONFLICT (user_id) DO UPDATE SET alert_frequency = EXCLUDED.alert_frequency,
          last_change_id = CASE WHEN watchlist_alerts.alert_frequency = 'none' THEN EXCLUDED.last_change_id
            ELSE watchlist_alerts.last_change_id END,
          last_alerted_at = CASE WHEN watchlist_alerts.alert_frequency = 'none' THEN now()
            ELSE watchlist_alerts.last_alerted_at END,
          updated_at = now()`);
      return { alertFrequency };
    },
  };
}
