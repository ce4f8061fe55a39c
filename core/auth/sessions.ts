// Login sessions. "Remember Me" gives a 30-day session; otherwise the cookie
// ends with the browser and the session expires after 12 idle hours. Use
// slides the expiry forward, written at most once a minute per session.
import { sql, type Queryable } from "#db/client.ts";
import type { SessionUser } from "#contracts/auth.ts";
import { hashIp, hashToken, newToken } from "./tokens.ts";

export type { SessionUser };

export const REMEMBER_SECONDS = 30 * 24 * 3600;
export const IDLE_SECONDS = 12 * 3600;
const TOUCH_AFTER_SECONDS = 60;

export type UserRow = {
  id: number;
  email: string;
  name: string;
  phone: string | null;
  company: string | null;
  messenger: string | null;
  scope: string[];
  created_at: Date | string;
};

export const toSessionUser = (r: UserRow): SessionUser => ({
  id: r.id,
  email: r.email,
  name: r.name,
  phone: r.phone,
  company: r.company,
  messenger: r.messenger,
  scope: r.scope ?? [],
  createdAt: new Date(r.created_at).toISOString(),
});

export type NewSession = { token: string; expiresAt: Date; remember: boolean };

export function createSessionStore(db: Queryable, ipHashSalt: string) {
  return {
    async create(userId: number, remember: boolean, meta: { ip?: string; userAgent?: string }): Promise<NewSession> {
      const token = newToken();
      const lifetime = remember ? REMEMBER_SECONDS : IDLE_SECONDS;
      const [row] = await db.query<{ expires_at: Date | string }>(sql`
        INSERT INTO sessions (token_hash, user_id, remember, expires_at, user_agent, ip_hash)
        VALUES (${hashToken(token)}, ${userId}, ${remember}, now() + make_interval(secs => ${lifetime}),
          ${meta.userAgent?.slice(0, 300) ?? null}, ${meta.ip ? hashIp(meta.ip, ipHashSalt) : null})
        RETURNING expires_at`);
      return { token, expiresAt: new Date(row.expires_at), remember };
    },

    /** The user behind a live session token, or null (unknown, expired or revoked). */
    async user(token: string): Promise<SessionUser | null> {
      if (!token || token.length > 200) return null;
      const tokenHash = hashToken(token);
      const [row] = await db.query<UserRow & { session_id: number; stale: boolean; remember: boolean }>(sql`
        SELECT u.id, u.email, u.name, u.phone, u.company, u.messenger, u.scope, u.created_at,
          s.id AS session_id, s.remember, s.last_seen_at < now() - make_interval(secs => ${TOUCH_AFTER_SECONDS}) AS stale
        FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = ${tokenHash} AND s.revoked_at IS NULL AND s.expires_at > now()`);
      if (!row) return null;
      if (row.stale) {
        const lifetime = row.remember ? REMEMBER_SECONDS : IDLE_SECONDS;
        await db.query(sql`
          UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(secs => ${lifetime})
          WHERE id = ${row.session_id}`);
      }
      return toSessionUser(row);
    },

    async revoke(token: string): Promise<void> {
      if (!token || token.length > 200) return;
      await db.query(sql`UPDATE sessions SET revoked_at = now() WHERE token_hash = ${hashToken(token)} AND revoked_at IS NULL`);
    },

    async revokeAll(userId: number, tx: Queryable = db): Promise<void> {
      await tx.query(sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
