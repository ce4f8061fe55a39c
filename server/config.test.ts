import os from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("configuration", () => {
  it("has working defaults", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.siteId).toBe("offeratlas");
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.publicUrl).toBe("http://localhost:3000");
  });

  it("is the one place for the defaults the services are built with", () => {
    const c = loadConfig({});
    expect([c.searchCacheSeconds, c.searchRateLimitPerMinute, c.pageCacheSeconds]).toEqual([15, 240, 5]);
    expect(c.ipHashSalt).toBe("offeratlas-dev-salt");
    expect([c.redisUrl, c.redisPrefix, c.databaseReadUrl]).toEqual([undefined, "offeratlas:", undefined]);
    expect(
      loadConfig({ DATABASE_URL: "postgres://db/x", DATABASE_READ_URL: "postgres://replica/x" }).databaseReadUrl,
    ).toBe("postgres://replica/x");
    expect(loadConfig({ REDIS_URL: "redis://127.0.0.1:6379", REDIS_PREFIX: "staging:" }).redisPrefix).toBe("staging:");
  });

  it("keeps about twice the machine's cores in connections to PostgreSQL, unless told (decision 0049)", () => {
    expect(loadConfig({}).database.poolSize).toBe(Math.max(4, 2 * os.availableParallelism()));
    expect(loadConfig({ DB_POOL_SIZE: "12" }).database.poolSize).toBe(12);
    expect(() => loadConfig({ DB_POOL_SIZE: "0" })).toThrow(/DB_POOL_SIZE/);
  });

  it("names the variable when a value is bad", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ SITE_ID: "Bad Site!" })).toThrow(/SITE_ID/);
    expect(() => loadConfig({ REDIS_URL: "http://x" })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DATABASE_URL: "postgres://db/x", DATABASE_READ_URL: "mysql://x" })).toThrow(
      /DATABASE_READ_URL: must be a postgres/,
    );
    expect(() => loadConfig({ DATABASE_READ_URL: "postgres://replica/x" })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
  });

  it("warns a production start about laptop defaults, and only a production start", () => {
    expect(loadConfig({ NODE_ENV: "production" }).warnings).toEqual([
      "PUBLIC_URL is not set: canonical links, the sitemap, feeds and mails will point at localhost",
      "IP_HASH_SALT is the development default: set a secret of your own so hashed addresses stay private",
      "SECRETS_KEY is not set: offer sources cannot store platform credentials",
    ]);
    const configured = loadConfig({
      NODE_ENV: "production",
      PUBLIC_URL: "https://offeratlas.example",
      IP_HASH_SALT: "a-secret-of-our-own",
      SECRETS_KEY: "a".repeat(64),
    });
    expect(configured.warnings).toEqual([]);
    expect(loadConfig({ NODE_ENV: "development" }).warnings).toEqual([]);
    expect(loadConfig({ NODE_ENV: "test" }).warnings).toEqual([]);
  });

  it("treats an empty optional URL as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", REDIS_URL: "" }).databaseUrl).toBeUndefined();
  });
});
