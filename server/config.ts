// Every setting comes from the environment and is validated once, at boot.
// A bad value stops the process with a message that names the variable.
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { DatabaseLimits } from "#db/client.ts";
import { parseSecretsKey } from "#core/supply/secrets.ts";

const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = z.url().optional();
const millis = (max: number) => z.coerce.number().int().min(0).max(max);

const DEV_IP_HASH_SALT = "offeratlas-dev-salt";

/**
 * Connections an instance keeps to PostgreSQL when DB_POOL_SIZE is unset: twice this machine's
 * cores, at least 4 (the offer syncs hold up to two). More statements at once than the database
 * has cores do not queue politely, they slow each other: at a million offers on 2 cores, cold
 * searches ran 80-85/s with 2-3 connections, 73-76 with 4, 62 with 10, 33-36 with 20 (p99 0.5 s
 * against 2.2-2.6 s; docs/decisions/0049). Where the database has cores of its own, set it to
 * about twice those, divided among the instances.
 */
function defaultPoolSize(): number {
  return Math.max(4, 2 * os.availableParallelism());
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: "must be a postgres:// or postgresql:// URL",
  }),
  // A read replica of DATABASE_URL: offer searches and the lists of search pages read there.
  DATABASE_READ_URL: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: "must be a postgres:// or postgresql:// URL",
  }),
  REDIS_URL: optionalUrl.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: "must be a redis:// or rediss:// URL",
  }),
  // Prefix of every key this deployment writes in Redis (several deployments may share one).
  REDIS_PREFIX: z.string().trim().min(1).max(100).default("offeratlas:"),
  SITE_ID: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{1,40}$/, "must be 2-41 lowercase letters, digits or dashes")
    .default("offeratlas"),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SEED_DEMO_DATA: z.enum(["true", "false"]).default("true"),
  // Mail: SMTP in production, a file outbox under DATA_DIR otherwise.
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().trim().default("OfferAtlas <no-reply@offeratlas.localhost>"),
  STAFF_EMAIL: z.email().default("staff@offeratlas.localhost"),
  // Anti-bot (reCAPTCHA v3). Without both keys the check is off.
  RECAPTCHA_SITE_KEY: z.string().trim().default(""),
  RECAPTCHA_SECRET_KEY: z.string().trim().default(""),
  RECAPTCHA_VERIFY_URL: z.url().default("https://www.google.com/recaptcha/api/siteverify"),
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  // Secret mixed into hashed IPs so that stored hashes cannot be reversed by enumeration.
  IP_HASH_SALT: z.string().default(DEV_IP_HASH_SALT),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  HOLD_FIRST_REVIEWS: z.enum(["true", "false"]).default("true"),
  // Offer sources synced on their schedule by this process (core/supply/scheduler.ts); off in tests unless asked.
  OFFER_SYNC_SCHEDULER: z.enum(["true", "false"]).optional(),
  // 32 bytes (64 hex characters or base64): the key of stored platform credentials.
  SECRETS_KEY: z.string().optional(),
  // How long a search answer is reused; 0 turns the cache off.
  SEARCH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(15),
  // How long an anonymous visitor's page is reused for the same address; 0 turns it off.
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  // Offer searches one address may make per minute (bots hammer search).
  SEARCH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(240),
  // Requests one public-API key may make per minute (/api/v1).
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  // Database bounds while serving (migrations and the demo seed run without them). 0 turns one off.
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(defaultPoolSize()),
  DB_STATEMENT_TIMEOUT_MS: millis(600_000).default(5000),
  DB_LOCK_TIMEOUT_MS: millis(600_000).default(2000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: millis(3_600_000).default(10_000),
  DB_ACQUIRE_TIMEOUT_MS: millis(60_000).default(2000),
  DB_QUEUE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(256),
  // Load shedding on the process itself (503 before any work). 0 turns one off.
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: millis(60_000).default(1000),
  PRESSURE_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  PRESSURE_MAX_HEAP_FRACTION: z.coerce.number().min(0).max(1).default(0.9),
});

export type Config = {
  env: "development" | "production" | "test";
  /** What a production start should hear about: settings left at values only fit for a laptop. */
  warnings: string[];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Searches read here when set (a replica of databaseUrl). */
  databaseReadUrl: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  siteId: string;
  publicUrl: string;
  logLevel: string;
  seedDemoData: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  staffEmail: string;
  recaptcha: { siteKey: string; secretKey: string; verifyUrl: string; minScore: number };
  ipHashSalt: string;
  trustProxy: boolean;
  /** Hold a new account's first review for a moderator (core/reviews/hold-rules.ts). */
  holdFirstReviews: boolean;
  /** Run the offer-sync queue and its schedule in this process. */
  offerSyncScheduler: boolean;
  /** The key of stored platform credentials (core/supply/secrets.ts); without it none can be stored. */
  secretsKey: Buffer | undefined;
  searchCacheSeconds: number;
  searchRateLimitPerMinute: number;
  apiKeyRateLimitPerMinute: number;
  pageCacheSeconds: number;
  database: { poolSize: number; limits: DatabaseLimits };
  pressure: { maxEventLoopDelayMs: number; maxEventLoopUtilization: number; maxHeapFraction: number };
};

export class ConfigError extends Error {}

function secretsKeyOf(text: string | undefined): Buffer | undefined {
  if (text === undefined) return undefined;
  try {
    return parseSecretsKey(text);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  SECRETS_KEY: ${(err as Error).message}`);
  }
}

/** Defaults a production server should not run on, each with what it breaks. */
function productionWarnings(e: { PUBLIC_URL?: string; IP_HASH_SALT: string; SECRETS_KEY?: string }): string[] {
  const warnings: string[] = [];
  if (!e.PUBLIC_URL)
    warnings.push("PUBLIC_URL is not set: canonical links, the sitemap, feeds and mails will point at localhost");
  if (e.IP_HASH_SALT === DEV_IP_HASH_SALT)
    warnings.push("IP_HASH_SALT is the development default: set a secret of your own so hashed addresses stay private");
  if (!e.SECRETS_KEY) warnings.push("SECRETS_KEY is not set: offer sources cannot store platform credentials");
  return warnings;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (as in a copied .env.example) means "use the default".
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.DATABASE_READ_URL && !e.DATABASE_URL)
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_READ_URL: needs DATABASE_URL (a replica of the embedded database cannot exist)",
    );
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    warnings: e.NODE_ENV === "production" ? productionWarnings(e) : [],
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    siteId: e.SITE_ID,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    logLevel: e.LOG_LEVEL,
    seedDemoData: e.SEED_DEMO_DATA === "true",
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    staffEmail: e.STAFF_EMAIL,
    recaptcha: {
      siteKey: e.RECAPTCHA_SITE_KEY,
      secretKey: e.RECAPTCHA_SECRET_KEY,
      verifyUrl: e.RECAPTCHA_VERIFY_URL,
      minScore: e.RECAPTCHA_MIN_SCORE,
    },
    ipHashSalt: e.IP_HASH_SALT,
    trustProxy: e.TRUST_PROXY === "true",
    holdFirstReviews: e.HOLD_FIRST_REVIEWS === "true",
    offerSyncScheduler: (e.OFFER_SYNC_SCHEDULER ?? String(e.NODE_ENV !== "test")) === "true",
    secretsKey: secretsKeyOf(e.SECRETS_KEY),
    searchCacheSeconds: e.SEARCH_CACHE_SECONDS,
    searchRateLimitPerMinute: e.SEARCH_RATE_LIMIT_PER_MINUTE,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    pageCacheSeconds: e.PAGE_CACHE_SECONDS,
    database: {
      poolSize: e.DB_POOL_SIZE,
      limits: {
        statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
        lockTimeoutMs: e.DB_LOCK_TIMEOUT_MS,
        idleInTransactionTimeoutMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        acquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
        queueLimit: e.DB_QUEUE_LIMIT,
      },
    },
    pressure: {
      maxEventLoopDelayMs: e.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: e.PRESSURE_MAX_EVENT_LOOP_UTILIZATION,
      maxHeapFraction: e.PRESSURE_MAX_HEAP_FRACTION,
    },
  };
}
