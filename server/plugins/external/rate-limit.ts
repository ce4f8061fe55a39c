// @fastify/rate-limit: the search budget (API and search pages alike). With REDIS_URL its
// counters live in Redis (the connection of core/cache/redis.ts), so every instance spends
// one budget per address; without it, in memory per instance (docs/decisions/0003 and 0028).
// Account, login, lead-form and API-key limits are kept in PostgreSQL (core/rate-limit),
// shared either way.
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "#server/config.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** One budget of searches per address, spent by the API's searches and the search pages alike. */
    searchBudget: preHandlerAsyncHookHandler;
  }
}

export async function registerRateLimits(app: FastifyInstance, config: Config, redis: Redis | undefined) {
  await app.register(rateLimit, {
    global: false,
    // Redis away: the request goes on uncounted rather than failing or waiting.
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}rate-limit:`, skipOnError: true } : {}),
  });
  app.decorate("searchBudget", app.rateLimit({ max: config.searchRateLimitPerMinute, timeWindow: 60_000 }));
}
