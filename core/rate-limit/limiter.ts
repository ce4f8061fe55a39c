// Fixed-window rate limits kept in the database, so every app instance shares
// the same counters. One atomic upsert per hit: no read-modify-write race.
import { sql, type Queryable } from "#db/client.ts";
import { HttpError } from "../errors.ts";

export type RateLimitResult = { allowed: boolean; hits: number; remaining: number; retryAfterSeconds: number };

export type RateRule = { limit: number; windowSeconds: number };

export const TOO_MANY_REQUESTS = "Too many attempts, please try again later";

export function createRateLimiter(db: Queryable) {
  let hitsSincePurge = 0;

  async function hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const [row] = await db.query<{ hits: number; retry_after: number }>(sql`
      INSERT INTO rate_limits (key, hits, reset_at)
      VALUES (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN rate_limits.reset_at <= now() THEN 1 ELSE rate_limits.hits + 1 END,
        reset_at = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
      RETURNING hits, GREATEST(1, ceil(extract(epoch FROM reset_at - now())))::int AS retry_after`);
    // Expired windows are dead rows; sweep them now and then instead of on a timer.
    if (++hitsSincePurge >= 500) {
      hitsSincePurge = 0;
      await db.query(sql`DELETE FROM rate_limits WHERE reset_at < now()`);
    }
    return {
      allowed: row.hits <= limit,
      hits: row.hits,
      remaining: Math.max(0, limit - row.hits),
      retryAfterSeconds: row.retry_after,
    };
  }

  return {
    hit,
    /** Counts one hit and throws 429 (with Retry-After) when the window is full. */
    async consume(key: string, rule: RateRule, message = TOO_MANY_REQUESTS): Promise<void> {
      const r = await hit(key, rule.limit, rule.windowSeconds);
      if (!r.allowed) throw new HttpError(429, message, { "Retry-After": String(r.retryAfterSeconds) });
    },
    /** Forgets a key, e.g. an address's failed logins on an account after a successful one. */
    async reset(key: string): Promise<void> {
      await db.query(sql`DELETE FROM rate_limits WHERE key = ${key}`);
    },
    /**
     * Takes back one hit of the current window (one atomic UPDATE). With `hit`, this
     * counts outcomes rather than attempts without a read-modify-write race: count the
     * attempt up front (so parallel requests cannot all slip under a limit), then
     * forgive it once it turned out fine (e.g. a login that succeeded).
     */
    async forgive(key: string): Promise<void> {
      await db.query(sql`UPDATE rate_limits SET hits = hits - 1 WHERE key = ${key} AND hits > 0 AND reset_at > now()`);
    },
    /** The hits counted in the key's current window, without counting one (0 when none or expired). */
    async peek(key: string): Promise<number> {
      const [row] = await db.query<{ hits: number }>(
        sql`SELECT hits FROM rate_limits WHERE key = ${key} AND reset_at > now()`,
      );
      return row?.hits ?? 0;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
