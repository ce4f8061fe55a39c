// The personal parts of a shared signed-in page (docs/decisions/0029): who is signed in and
// which of the page's offers and networks they follow. Every signed-in page view asks for
// them, so the session and the follows are read in one statement.
import { sql } from "#db/client.ts";
import type { PersonalParts } from "#contracts/personal.ts";
import type { AuthService } from "#core/auth/auth.ts";
import { followedColumn, watchStateOf, type FollowedRow, type OnScreen } from "./watchlist.ts";

export function createPersonalParts(auth: Pick<AuthService, "userForTokenWith">) {
  /** The parts for a session token, or null when it signs nobody in. */
  return async (token: string | undefined, on: OnScreen): Promise<PersonalParts | null> => {
    const found = await auth.userForTokenWith<FollowedRow[] | null>(token, followedColumn(sql`u.id`, on) ?? sql`NULL`);
    if (!found) return null;
    const { name, email, scope } = found.user;
    const { offers, networks } = watchStateOf(found.also ?? []);
    return { user: { name, email, scope }, watch: { offers, networks } };
  };
}
