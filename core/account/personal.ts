// The personal parts of a shared signed-in page (docs/decisions/0029): who is signed in and
// which of the page's offers and networks they follow. Every signed-in page view asks for
// them, so each session's parts are kept in memory (docs/decisions/0041): its user, its expiry
// and all its user's follows (at most WATCHLIST_LIMIT). Triggers tell every change to them
// (migration 0030), whoever writes, and the copies of that user are dropped. PostgreSQL tells
// a moment after the commit; in that moment the writer's own browser is already covered: its
// write dropped its copy here, and marked its cookie so that no other instance's copy answers it.
import crypto from "node:crypto";
import { LRUCache } from "lru-cache";
import { sql, type Database } from "#db/client.ts";
import { PERSONAL_VERSION_COOKIE, type PersonalParts } from "#contracts/personal.ts";
import type { SessionUser } from "#contracts/auth.ts";
import type { AuthService } from "#core/auth/auth.ts";
import { hashToken } from "#core/auth/tokens.ts";
import { TOUCH_AFTER_SECONDS } from "#core/auth/sessions.ts";
import { watchStateOf, type FollowedRow, type OnScreen } from "./watchlist.ts";

/** The channel migration 0030's triggers notify, with a user's id or '*' (every user). */
const CHANGED = "oa_personal_changed";
/** Signed-in sessions kept; the least recently used goes first. */
const KEPT_SESSIONS = 10_000;

type Auth = Pick<AuthService, "userForTokenWith">;

/** A browser's personal version cookie (a session cookie, like the session's): `version`, or a new random one. */
export function personalVersionCookie(secure: boolean, version = crypto.randomBytes(9).toString("base64url")): string {
  const parts = [`${PERSONAL_VERSION_COOKIE}=${version}`, "Path=/", "SameSite=Lax"];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export type PersonalPartsService = {
  /** The parts for a session token, or null when it signs nobody in. `version`: the browser's PERSONAL_VERSION_COOKIE. */
  read(token: string, on: OnScreen, version?: string): Promise<PersonalParts | null>;
  /** All of the session's parts (every follow) and their version, or null when it signs nobody in. */
  all(token: string, version?: string): Promise<{ parts: PersonalParts; version: string } | null>;
  /** The version the session's parts are at, or null when it signs nobody in (what a signed-in page tells its browser). */
  version(token: string, version?: string): Promise<string | null>;
  /** A request of this session may have written: its copy here goes, and reads in flight keep nothing. */
  wrote(token: string): void;
};

const partsOf = (user: SessionUser, followed: readonly FollowedRow[]): PersonalParts => {
  const { offers, networks } = watchStateOf(followed);
  return { user: { name: user.name, email: user.email, scope: user.scope }, watch: { offers, networks } };
};

/** `version`: a digest of the session and everything its parts say, the same on every instance. */
type Kept = { user: SessionUser; followed: FollowedRow[]; expiresAt: number; version: string };

/**
 * The parts' version: a digest of the session's token (so it tells nothing about the user and
 * another session's never matches) and of the user and follows, in a fixed order. Every instance
 * that reads the same rows gets the same version, so a browser's cached answer (docs/decisions/0047)
 * holds across instances and is replaced exactly when the parts change.
 */
function versionOf(token: string, user: SessionUser, followed: readonly FollowedRow[]): string {
  const follows = [...followed].sort((a, b) => Number(a[0]) - Number(b[0]));
  const said = JSON.stringify([user.id, user.name, user.email, user.scope, follows]);
  return crypto.createHash("sha256").update(token).update("\0").update(said).digest("base64url").slice(0, 22);
}

/**
 * Each session's parts kept until its user's data changes. A copy lives at most
 * TOUCH_AFTER_SECONDS, so a session in use still reaches the database (which slides its expiry)
 * as often as before, and never past the session's own expiry. While the database's
 * notifications cannot be heard (a lost connection), every request reads the database.
 */
export function createPersonalParts(db: Pick<Database, "listen">, auth: Auth): PersonalPartsService {
  const sessions = new LRUCache<string, Kept>({ max: KEPT_SESSIONS, ttl: TOUCH_AFTER_SECONDS * 1000 });
  // Bumped by every change: a read that began before one may hold what it replaced.
  let changes = 0;
  const listening = db
    .listen(CHANGED, (userId) => {
      changes++;
      if (userId === "*") return sessions.clear();
      // Writes to these tables are rare against reads: a walk of the kept sessions is fine.
      const gone = [...sessions.entries()].filter(([, copy]) => String(copy.user.id) === userId);
      for (const [key] of gone) sessions.delete(key);
    })
    .catch(() => ({ live: false })); // not listening: every request reads the database

  /**
   * The session's parts, from its kept copy unless the browser wrote since that copy was read
   * (its version cookie says another version: a write gave it a random one), or from the database.
   */
  async function kept(token: string, version: string | undefined): Promise<Kept | null> {
    const live = (await listening).live;
    const key = hashToken(token);
    const copy = live ? sessions.get(key) : undefined;
    if (copy && (version === undefined || copy.version === version) && copy.expiresAt > Date.now()) return copy;
    const before = changes;
    const found = await auth.userForTokenWith<{ followed: FollowedRow[]; expiresAt: string }>(
      token,
      sql`json_build_object('followed', (SELECT coalesce(json_agg(json_build_array(w.id, w.offer_id, w.network_id)), '[]'::json)
        FROM watchlist_items w WHERE w.user_id = u.id), 'expiresAt', s.expires_at)`,
    );
    if (!found) return null;
    const { followed, expiresAt } = found.also;
    const read = {
      user: found.user,
      followed,
      expiresAt: Date.parse(expiresAt),
      version: versionOf(token, found.user, followed),
    };
    if (changes === before && (await listening).live) sessions.set(key, read);
    return read;
  }

  return {
    async read(token, on, version) {
      const copy = await kept(token, version);
      return copy && partsOf(copy.user, onScreen(copy.followed, on));
    },
    async all(token, version) {
      const copy = await kept(token, version);
      return copy && { parts: partsOf(copy.user, copy.followed), version: copy.version };
    },
    async version(token, version) {
      return (await kept(token, version))?.version ?? null;
    },
    wrote(token) {
      changes++;
      sessions.delete(hashToken(token));
    },
  };
}

/** The follows among the offers and networks on screen (as followedColumn selects them). */
function onScreen(followed: readonly FollowedRow[], on: OnScreen): FollowedRow[] {
  const offers = new Set(on.offerIds ?? []);
  const networks = new Set(on.networkIds ?? []);
  return followed.filter(
    ([, offerId, networkId]) =>
      (offerId !== null && offers.has(Number(offerId))) || (networkId !== null && networks.has(Number(networkId))),
  );
}
