// Fixed-window rate limits kept in the database, so every app instance shares
// the same counters. One atomic upsert per hit: no read-modify-write race.
import { sql, type Queryable } from "#db/client.ts";
import { HttpError } from "../errors.ts";

export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number };

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
    return { allowed: row.hits <= limit, remaining: Math.max(0, limit - row.hits), retryAfterSeconds: row.retry_after };
  }

  return {
    hit,
    /** Counts one hit and throws 429 (with Retry-After) when the window is full. */
    async consume(key: string, rule: RateRule, message = TOO_MANY_REQUESTS): Promise<void> {
      const r = await hit(key, rule.limit, rule.windowSeconds);
      if (!r.allowed) throw new HttpError(429, message, { "Retry-After": String(r.retryAfterSeconds) });
    },
    /** Forgets a key, e.g. an account's failed logins after a successful one. */
    async reset(key: string): Promise<void> {
      await db.query(sql`DELETE FROM rate_limits WHERE key = ${key}`);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
