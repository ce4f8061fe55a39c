// @fastify/rate-limit: the search budget (API and search pages alike). With REDIS_URL its
// counters live in Redis, so every instance spends one budget per address; without it, in
// memory per instance (docs/decisions/0003-redis-for-shared-rate-limits.md). Account,
// login and lead-form limits are kept in PostgreSQL (core/rate-limit), shared either way.
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import { Redis } from "ioredis";
import type { Config } from "#server/config.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** One budget of searches per address, spent by the API's searches and the search pages alike. */
    searchBudget: preHandlerAsyncHookHandler;
  }
}

export async function registerRateLimits(app: FastifyInstance, config: Config) {
  const redis = config.redisUrl ? await connectRedis(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    global: false,
    // Redis away: the request goes on uncounted rather than failing or waiting.
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}rate-limit:`, skipOnError: true } : {}),
  });
  app.decorate("searchBudget", app.rateLimit({ max: config.searchRateLimitPerMinute, timeWindow: 60_000 }));
}

const CONNECT_TIMEOUT_MS = 1000;

/**
 * A connection whose commands fail at once while Redis is away, warning once per outage.
 * Start-up waits for the first connection (or its failure) at most CONNECT_TIMEOUT_MS,
 * so the first requests are counted too; Redis away never stops the server from starting.
 */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    // Commands made while disconnected fail instead of queueing (a request never waits for a reconnect).
    enableOfflineQueue: false,
  });
  let away = false;
  redis.on("error", (err: Error) => {
    if (!away) app.log.warn({ err: err.message }, "Redis unreachable: search budgets are not counted until it is back");
    away = true;
  });
  redis.on("ready", () => {
    if (away) app.log.info("Redis reachable again");
    away = false;
  });
  app.addHook("onClose", async () => {
    if (redis.status === "ready") await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS);
    const done = () => (clearTimeout(timer), resolve());
    redis.once("ready", done).once("error", done);
  });
  return redis;
}
