// REDIS_URL: the state every instance shares — cached search answers and pages
// (a SharedStore), the catalogue's generation (bumped on every edit, announced
// to the other instances by pub/sub) and the search budget's counters
// (server/plugins/external/rate-limit.ts). Redis away never takes the site with
// it: commands fail at once or within COMMAND_TIMEOUT_MS, callers then compute
// (caches) or let the request through uncounted (the search budget), and one
// warning is logged per outage (docs/decisions/0003 and 0028).
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import type { SharedStore } from "./cache.ts";
import { localGeneration, type Generation } from "./generation.ts";

export type RedisLog = { info(msg: string): void; warn(msg: string): void };

export type SharedState = {
  /** The command connection (also the search budget's store). */
  redis: Redis;
  store: SharedStore;
  generation: Generation;
  close(): Promise<void>;
};

const CONNECT_TIMEOUT_MS = 1000;
const COMMAND_TIMEOUT_MS = 500;

/**
 * Start-up waits for the first connection (or its failure) at most CONNECT_TIMEOUT_MS,
 * so the first requests already share; Redis away never stops the server from starting.
 */
export async function connectShared(url: string, options: { prefix: string; log: RedisLog }): Promise<SharedState> {
  const { prefix, log } = options;
  const redis = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    // Commands made while disconnected fail instead of queueing (a request never waits for a reconnect).
    enableOfflineQueue: false,
  });
  // Pub/sub needs a connection of its own; it is off the request path, so it may queue and resubscribes by itself.
  const subscriber = new Redis(url, { connectTimeout: CONNECT_TIMEOUT_MS, lazyConnect: true });
  let away = false;
  const failed = (err: Error) => {
    if (!away)
      log.warn(`Redis unreachable (${err.message}): each instance caches and counts searches alone until it is back`);
    away = true;
  };
  redis.on("error", failed);
  subscriber.on("error", () => {}); // the command connection reports the outage
  // A reconnect, or a command answered after one timed out.
  const answered = () => {
    if (away) log.info("Redis reachable again");
    away = false;
  };
  redis.on("ready", answered);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS);
    const done = () => (clearTimeout(timer), resolve());
    redis.once("ready", done).once("error", done);
  });

  const store: SharedStore = {
    async get(key) {
      try {
        const text = await redis.get(`${prefix}cache:${key}`);
        answered();
        return text === null ? undefined : (JSON.parse(text) as { value: unknown; storedAt: number });
      } catch (err) {
        failed(err as Error);
        return undefined;
      }
    },
    set(key, value, ttlMs) {
      const text = JSON.stringify({ value, storedAt: Date.now() });
      redis.set(`${prefix}cache:${key}`, text, "PX", Math.max(1, Math.round(ttlMs))).catch(failed);
    },
  };

  const generation = await sharedGeneration(redis, subscriber, `${prefix}catalogue-generation`, failed);
  return {
    redis,
    store,
    generation,
    async close() {
      for (const connection of [subscriber, redis]) {
        if (connection.status === "ready") await connection.quit().catch(() => connection.disconnect());
        else connection.disconnect();
      }
    },
  };
}

/**
 * The catalogue's generation, one number for every instance: an edit INCRs it and
 * PUBLISHes the new value; each instance adopts the highest it has seen and forgets
 * what it cached (its listeners run). After an outage it reads the number again.
 */
async function sharedGeneration(
  redis: Redis,
  subscriber: Redis,
  key: string,
  failed: (err: Error) => void,
): Promise<Generation> {
  const local = localGeneration();
  const adopt = (text: string | null) => {
    const n = Number(text ?? 0);
    if (Number.isSafeInteger(n) && n > local.current()) local.advanceTo(n);
  };
  const read = () => redis.get(key).then(adopt, failed);
  await read();
  subscriber.on("message", (_channel: string, message: string) => adopt(message));
  subscriber.on("ready", () => void read());
  subscriber.connect().catch(() => {});
  const subscribed = subscriber.subscribe(key).catch(() => {});
  // With Redis up, start-up waits until this instance hears the others' edits (bounded all the same).
  if (redis.status === "ready") await Promise.race([subscribed, sleep(CONNECT_TIMEOUT_MS)]);
  return {
    current: local.current,
    onChange: local.onChange,
    advanceTo: local.advanceTo,
    bump() {
      local.bump(); // this instance forgets at once, whatever Redis says
      redis
        .incr(key)
        .then(async (n) => {
          adopt(String(n));
          await redis.publish(key, String(n));
        })
        .catch(failed);
    },
  };
}
