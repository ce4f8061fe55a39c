// The personal parts of a shared signed-in page (docs/decisions/0029): who is signed in and
// which of the page's offers and networks they follow. Every signed-in page view asks for
// them, so the session and the follows are read in one statement.
//
// On the embedded database that statement is most of the request's cost (it runs on this
// event loop), so each session's parts are kept in memory (docs/decisions/0041): its user, its
// expiry and all its user's follows (at most WATCHLIST_LIMIT). Triggers tell every change to
// them (migration 0030), and PGlite hands the notification over before the writing statement
// returns, so no answer after a logout, an unfollow or a profile edit comes from an old copy.
import { LRUCache } from "lru-cache";
import { sql, type Database } from "#db/client.ts";
import type { PersonalParts } from "#contracts/personal.ts";
import type { SessionUser } from "#contracts/auth.ts";
import type { AuthService } from "#core/auth/auth.ts";
import { hashToken } from "#core/auth/tokens.ts";
import { TOUCH_AFTER_SECONDS } from "#core/auth/sessions.ts";
import { followedColumn, watchStateOf, type FollowedRow, type OnScreen } from "./watchlist.ts";

/** The channel migration 0030's triggers notify, with a user's id or '*' (every user). */
const CHANGED = "oa_personal_changed";
/** Signed-in sessions kept; the least recently used goes first. */
const KEPT_SESSIONS = 10_000;

type Auth = Pick<AuthService, "userForTokenWith">;
type Personal = (token: string | undefined, on: OnScreen) => Promise<PersonalParts | null>;

const partsOf = (user: SessionUser, followed: readonly FollowedRow[]): PersonalParts => {
  const { offers, networks } = watchStateOf(followed);
  return { user: { name: user.name, email: user.email, scope: user.scope }, watch: { offers, networks } };
};

/** The parts for a session token, or null when it signs nobody in. */
export function createPersonalParts(db: Database, auth: Auth): Personal {
  const read: Personal = async (token, on) => {
    const found = await auth.userForTokenWith<FollowedRow[] | null>(token, followedColumn(sql`u.id`, on) ?? sql`NULL`);
    return found && partsOf(found.user, found.also ?? []);
  };
  return db.listen ? kept(db.listen, auth, read) : read;
}

type Kept = { user: SessionUser; followed: FollowedRow[]; expiresAt: number };

/**
 * `read`, with each session's parts kept until its user's data changes. A copy lives at most
 * TOUCH_AFTER_SECONDS, so a session in use still reaches the database (which slides its expiry)
 * as often as before, and never past the session's own expiry.
 */
function kept(listen: NonNullable<Database["listen"]>, auth: Auth, read: Personal): Personal {
  const sessions = new LRUCache<string, Kept>({ max: KEPT_SESSIONS, ttl: TOUCH_AFTER_SECONDS * 1000 });
  // Bumped by every change: a read that began before one may hold what it replaced.
  let changes = 0;
  const listening = listen(CHANGED, (userId) => {
    changes++;
    if (userId === "*") return sessions.clear();
    // Writes to these tables are rare against reads: a walk of the kept sessions is fine.
    const gone = [...sessions.entries()].filter(([, copy]) => String(copy.user.id) === userId);
    for (const [key] of gone) sessions.delete(key);
  }).then(
    () => true,
    () => false, // not listening: every request reads the database, as without the copies
  );

  return async (token, on) => {
    if (!token || !(await listening)) return read(token, on);
    const key = hashToken(token);
    const copy = sessions.get(key);
    if (copy && copy.expiresAt > Date.now()) return partsOf(copy.user, onScreen(copy.followed, on));
    const before = changes;
    const found = await auth.userForTokenWith<{ followed: FollowedRow[]; expiresAt: string }>(
      token,
      sql`json_build_object('followed', (SELECT coalesce(json_agg(json_build_array(w.id, w.offer_id, w.network_id)), '[]'::json)
        FROM watchlist_items w WHERE w.user_id = u.id), 'expiresAt', s.expires_at)`,
    );
    if (!found) return null;
    const { followed, expiresAt } = found.also;
    if (changes === before) sessions.set(key, { user: found.user, followed, expiresAt: Date.parse(expiresAt) });
    return partsOf(found.user, onScreen(followed, on));
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
