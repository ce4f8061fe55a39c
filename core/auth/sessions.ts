// Login sessions. "Remember Me" gives a 30-day session; otherwise the cookie
// ends with the browser and the session expires after 12 idle hours. Use
// slides the expiry forward, written at most once a minute per session.
import { sql, type Queryable, type SQL } from "#db/client.ts";
import type { SessionUser } from "#contracts/auth.ts";
import { hashIp, hashToken, newToken } from "./tokens.ts";

const REMEMBER_SECONDS = 30 * 24 * 3600;
const IDLE_SECONDS = 12 * 3600;
/** How often a session in use is written back (its last use, its sliding expiry). */
export const TOUCH_AFTER_SECONDS = 60;

/** A users row as the queries select it. */
export type UserRow = Omit<SessionUser, "createdAt"> & { created_at: Date | string };

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

/** docs/product.md §7: cookie prefix "auth.", token prefix "_token.", strategy "local". */
export const AUTH_COOKIE = "auth._token.local";

/** Tokens may arrive as "Bearer abc" (header or a client that stored the header value). */
export function stripBearer(value: string | undefined): string | undefined {
  const v = value?.trim().replace(/^Bearer\s+/i, "");
  return v ? v : undefined;
}

/** Reads the session token from a raw Cookie header (page actions have only that). */
export function readSessionCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== AUTH_COOKIE) continue;
    try {
      return stripBearer(decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The session cookie as a Set-Cookie value, written alike by the API and the page
 * actions: HttpOnly, SameSite=Lax, for the whole site. With Remember Me it lasts
 * as long as the session; otherwise it ends with the browser. `null` clears it.
 */
export function sessionCookie(session: Pick<NewSession, "token" | "remember"> | null, secure: boolean): string {
  const parts = [
    `${AUTH_COOKIE}=${session ? encodeURIComponent(session.token) : ""}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (!session) parts.push("Max-Age=0", `Expires=${new Date(0).toUTCString()}`);
  else if (session.remember)
    parts.push(
      `Max-Age=${REMEMBER_SECONDS}`,
      `Expires=${new Date(Date.now() + REMEMBER_SECONDS * 1000).toUTCString()}`,
    );
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function createSessionStore(db: Queryable, ipHashSalt: string) {
  /**
   * The user behind a live session token and, read in the same statement, `also`: an
   * expression over the user's id `u.id` (a page's personal parts: one round trip, not two).
   */
  async function userWith<T>(token: string, also: SQL): Promise<{ user: SessionUser; also: T } | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const [row] = await db.query<UserRow & { session_id: number; stale: boolean; remember: boolean; also: T }>(sql`
      SELECT u.id, u.email, u.name, u.phone, u.company, u.messenger, u.scope, u.created_at,
        s.id AS session_id, s.remember, s.last_seen_at < now() - make_interval(secs => ${TOUCH_AFTER_SECONDS}) AS stale,
        ${also} AS also
      FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = ${tokenHash} AND s.revoked_at IS NULL AND s.expires_at > now()`);
    if (!row) return null;
    if (row.stale) {
      const lifetime = row.remember ? REMEMBER_SECONDS : IDLE_SECONDS;
      await db.query(sql`
        UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(secs => ${lifetime})
        WHERE id = ${row.session_id}`);
    }
    return { user: toSessionUser(row), also: row.also };
  }

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
      return (await userWith(token, sql`NULL`))?.user ?? null;
    },

    userWith,

    async revoke(token: string): Promise<void> {
      if (!token || token.length > 200) return;
      await db.query(
        sql`UPDATE sessions SET revoked_at = now() WHERE token_hash = ${hashToken(token)} AND revoked_at IS NULL`,
      );
    },

    async revokeAll(userId: number, tx: Queryable = db): Promise<void> {
      await tx.query(sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`);
    },
  };
}
