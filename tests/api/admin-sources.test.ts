// The console's offer sources (issue #13): admins add, list, read and edit a
// network's sources; the API key is sealed before it is stored (the bytea never
// holds it in clear) and no answer or audit row ever carries it; without
// SECRETS_KEY a key is refused; a stale edit answers 409; 401/403 without the role.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import type { OfferSource, OfferSourcePage } from "#contracts/supply.ts";
import { NO_SECRETS_KEY, createSecrets, parseSecretsKey } from "#core/supply/secrets.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

const SECRETS_KEY = "7f".repeat(16) + "a1".repeat(16);
const API_KEY = "ef-live-Zq81xTTkP0aa93LmQ";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInWithRoles>>;
let networkId: number;

beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 2, offers: 5, trafficSources: 1 }, env: { SECRETS_KEY } });
  admin = await signInWithRoles(t, ["admin"]);
  [{ id: networkId }] = await t.db.query<{ id: number }>(sql`SELECT id FROM networks ORDER BY id LIMIT 1`);
});
afterAll(() => t?.close());

const add = (payload: unknown, headers = admin.headers) =>
  t.app.inject({ method: "POST", url: "/api/admin/sources", headers, payload: payload as object });
const put = (id: number | string, payload: object, headers = admin.headers) =>
  t.app.inject({ method: "PUT", url: `/api/admin/sources/${id}`, headers, payload });
const list = (query = "", headers = admin.headers) => t.app.inject({ url: `/api/admin/sources${query}`, headers });

const stored = async (id: number) => {
  const [row] = await t.db.query<{ hex: string | null }>(
    sql`SELECT encode(credentials, 'hex') AS hex FROM offer_sources WHERE id = ${id}`,
  );
  return row.hex === null ? null : Buffer.from(row.hex, "hex");
};
const auditRows = (id: number) =>
  t.db.query<{ action: string; actor_id: number | null; text: string }>(sql`
    SELECT action, actor_id, (coalesce(before::text, '') || coalesce(after::text, '')) AS text
    FROM audit_log WHERE subject_type = 'offer_source' AND subject_id = ${id} ORDER BY id`);

describe("/api/admin/sources", () => {
  it("answers 401 without a session and 403 to a moderator", async () => {
    expect((await t.app.inject({ url: "/api/admin/sources" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/api/admin/sources", payload: {} })).statusCode).toBe(401);
    const moderator = await signInWithRoles(t, ["moderator"]);
    expect((await list("", moderator.headers)).statusCode).toBe(403);
    expect((await add({ networkId }, moderator.headers)).statusCode).toBe(403);
    expect((await t.app.inject({ url: "/api/admin/sources/1", headers: moderator.headers })).statusCode).toBe(403);
    expect((await put(1, { updatedAt: "x" }, moderator.headers)).statusCode).toBe(403);
  });

  it("adds a source with its key sealed: never in the database in clear, in an answer or in the audit row", async () => {
    const res = await add({
      networkId,
      platform: "everflow",
      endpoint: "https://api.eflow.team/v1/affiliates/alloffers",
      apiKey: API_KEY,
      everyMinutes: 60,
      settings: { runnableOnly: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toContain(API_KEY);
    const source = res.json<OfferSource>();
    expect(source).toMatchObject({
      networkId,
      platform: "everflow",
      endpoint: "https://api.eflow.team/v1/affiliates/alloffers",
      hasCredentials: true,
      settings: { runnableOnly: true },
      everyMinutes: 60,
      retireAfterRuns: 3,
      enabled: true,
      state: "new",
      lastError: null,
      lastRun: null,
    });
    expect(Object.keys(source)).not.toContain("credentials");

    const sealed = (await stored(source.id))!;
    expect(sealed.length).toBeGreaterThan(1 + 12 + 16);
    expect(sealed.includes(Buffer.from(API_KEY))).toBe(false);
    expect(sealed.toString("latin1")).not.toContain(API_KEY);
    // It is the key, sealed under SECRETS_KEY: the sync can open it.
    expect(createSecrets(parseSecretsKey(SECRETS_KEY)).open(sealed)).toBe(API_KEY);

    const got = await t.app.inject({ url: `/api/admin/sources/${source.id}`, headers: admin.headers });
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain(API_KEY);
    expect(got.json<OfferSource>()).toEqual(source);

    const audit = await auditRows(source.id);
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([["offer_source.create", admin.user.id]]);
    expect(audit[0].text).toContain('"hasCredentials": true');
    expect(audit[0].text).not.toContain(API_KEY);
  });

  it("lists sources with their last run, narrowed to a network", async () => {
    const res = await add({ networkId, platform: "feed", endpoint: "https://feeds.example.com/offers.csv" });
    expect(res.statusCode, res.body).toBe(201);
    const feed = res.json<OfferSource>();
    expect(feed).toMatchObject({ hasCredentials: false, everyMinutes: 360 });
    await t.db.query(sql`
      INSERT INTO offer_sync_runs (source_id, status, started_at, finished_at, seen, new, changed, unchanged, retired, skipped)
      VALUES (${feed.id}, 'failed', now() - interval '2 hours', now() - interval '2 hours', 1, 1, 0, 0, 0, 0),
             (${feed.id}, 'succeeded', now() - interval '1 hour', now() - interval '59 minutes', 120, 4, 7, 108, 1, 2)`);
    const page = (await list()).json<OfferSourcePage>();
    expect(page.total).toBe(2);
    expect(page.items[0].id).toBe(feed.id); // newest first
    expect(page.items[0].lastRun).toMatchObject({
      status: "succeeded",
      seen: 120,
      new: 4,
      changed: 7,
      unchanged: 108,
      retired: 1,
      skipped: 2,
      error: null,
    });
    expect(page.items[0].lastRun!.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page.items[1].lastRun).toBeNull();
    const [{ id: otherNetwork }] = await t.db.query<{ id: number }>(
      sql`SELECT id FROM networks WHERE id <> ${networkId} ORDER BY id LIMIT 1`,
    );
    expect((await list(`?networkId=${otherNetwork}`)).json<OfferSourcePage>().total).toBe(0);
    expect(
      (await list(`?networkId=${networkId}&sort=platform&dir=asc`)).json<OfferSourcePage>().items[0].platform,
    ).toBe("everflow");
    for (const bad of ["?page=abc", "?networkId=x", "?networkId=0"]) {
      const answer = await list(bad);
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.json<{ message: string }>().message).toBeTruthy();
    }
  });

  it("refuses bad input with the field's message", async () => {
    const base = { networkId, platform: "tune", endpoint: "https://demo.api.hasoffers.com/Apiv3/json" };
    const cases: [object, string][] = [
      [{ ...base, platform: "impact" }, "platform must be one of everflow, tune, cake, affise, feed"],
      [{ ...base, endpoint: "" }, "endpoint cannot be blank"],
      [{ ...base, endpoint: "ftp://example.com/offers" }, "endpoint must be an http(s) address"],
      [{ ...base, endpoint: "javascript:alert(1)" }, "endpoint must be an http(s) address"],
      [{ ...base, endpoint: "file:///etc/passwd" }, "endpoint must be an http(s) address"],
      [
        { ...base, endpoint: "https://user:pw@example.com/" },
        "endpoint must not carry credentials: give them as the API key",
      ],
      [
        { ...base, platform: "feed", endpoint: "file:///etc/passwd" },
        "endpoint must be an http(s) address, or a file inside the data directory",
      ],
      [
        { ...base, platform: "feed", endpoint: "/etc/passwd" },
        "endpoint must be an http(s) address, or a file inside the data directory",
      ],
      [{ ...base, networkId: 999999 }, "networkId must be the id of a network"],
      [{ ...base, networkId: "abc" }, "networkId must be an integer"],
      [{ ...base, everyMinutes: 4 }, "everyMinutes must be between 5 and 10080"],
      [{ ...base, everyMinutes: 10081 }, "everyMinutes must be between 5 and 10080"],
      [{ ...base, retireAfterRuns: 0 }, "retireAfterRuns must be between 1 and 100"],
      [{ ...base, retireAfterRuns: 101 }, "retireAfterRuns must be between 1 and 100"],
      [{ ...base, apiKey: "x".repeat(501) }, "apiKey must be at most 500 characters long"],
      [{ ...base, settings: [1] }, "settings must be an object"],
    ];
    for (const [payload, message] of cases) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    expect((await list()).json<OfferSourcePage>().total).toBe(2);
  });

  it("takes a feed file inside the data directory, kept as a file URL", async () => {
    const file = path.join(t.config.dataDir, "feeds", "acme.csv");
    for (const endpoint of [file, `file://${file}`]) {
      const res = await add({ networkId, platform: "feed", endpoint });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<OfferSource>().endpoint).toBe(`file://${file}`);
    }
    await t.db.query(sql`DELETE FROM offer_sources WHERE endpoint LIKE 'file:%'`);
    expect(fs.existsSync(file)).toBe(false); // nothing is read or written when a source is added
  });

  it("edits the schedule, the flag and the key; a stale edit answers 409 and changes nothing", async () => {
    const [source] = (await list("?sort=platform&dir=asc")).json<OfferSourcePage>().items;
    expect(source.platform).toBe("everflow");
    const NEW_KEY = "ef-rotated-9Yh2kLmQpR";
    const res = await put(source.id, {
      updatedAt: source.updatedAt,
      enabled: false,
      everyMinutes: 1440,
      retireAfterRuns: 5,
      apiKey: NEW_KEY,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(NEW_KEY);
    const saved = res.json<OfferSource>();
    expect(saved).toMatchObject({ enabled: false, everyMinutes: 1440, retireAfterRuns: 5, hasCredentials: true });
    expect(saved.updatedAt).not.toBe(source.updatedAt);
    const sealed = (await stored(source.id))!;
    expect(sealed.toString("latin1")).not.toContain(NEW_KEY);
    expect(createSecrets(parseSecretsKey(SECRETS_KEY)).open(sealed)).toBe(NEW_KEY);

    const stale = await put(source.id, { updatedAt: source.updatedAt, everyMinutes: 5 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: "Someone else changed this offer source; reload it and try again" });
    const [row] = await t.db.query<{ every_minutes: number }>(
      sql`SELECT every_minutes FROM offer_sources WHERE id = ${source.id}`,
    );
    expect(row.every_minutes).toBe(1440);

    // An empty key keeps the stored one; null removes it.
    const kept = await put(source.id, { updatedAt: saved.updatedAt, apiKey: "", enabled: true });
    expect(kept.json<OfferSource>()).toMatchObject({ hasCredentials: true, enabled: true });
    const removed = await put(source.id, { updatedAt: kept.json<OfferSource>().updatedAt, apiKey: null });
    expect(removed.json<OfferSource>().hasCredentials).toBe(false);
    expect(await stored(source.id)).toBeNull();

    const audit = await auditRows(source.id);
    expect(audit.map((a) => a.action)).toEqual([
      "offer_source.create",
      "offer_source.update",
      "offer_source.update",
      "offer_source.update",
    ]);
    for (const entry of audit) {
      expect(entry.text).not.toContain(NEW_KEY);
      expect(entry.text).not.toContain(API_KEY);
    }
    expect(audit[1].text).toContain('"everyMinutes": 1440');

    expect((await put(source.id, { updatedAt: saved.updatedAt, everyMinutes: 3 })).statusCode).toBe(400);
    expect((await put(source.id, { everyMinutes: 30 })).json()).toEqual({ message: "updatedAt is required" });
    for (const id of ["999999", "abc", "0", "1e3"]) {
      const missing = await put(id, { updatedAt: saved.updatedAt });
      expect(missing.statusCode, id).toBe(404);
      expect(missing.json()).toEqual({ message: "Offer source not found" });
      expect((await t.app.inject({ url: `/api/admin/sources/${id}`, headers: admin.headers })).statusCode).toBe(404);
    }
  });
});

describe("/api/admin/sources without SECRETS_KEY", () => {
  let bare: TestApp;
  let bareAdmin: Awaited<ReturnType<typeof signInWithRoles>>;
  beforeAll(async () => {
    bare = await createTestApp({ seed: { networks: 1, offers: 1, trafficSources: 1 } });
    bareAdmin = await signInWithRoles(bare, ["admin"]);
  });
  afterAll(() => bare?.close());

  it("refuses to store an API key (503, nothing written) but adds a source without one", async () => {
    const [{ id }] = await bare.db.query<{ id: number }>(sql`SELECT id FROM networks LIMIT 1`);
    const payload = { networkId: id, platform: "affise", endpoint: "https://api-demo.affise.com/3.0/partner/offers" };
    const refused = await bare.app.inject({
      method: "POST",
      url: "/api/admin/sources",
      headers: bareAdmin.headers,
      payload: { ...payload, apiKey: API_KEY },
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ message: NO_SECRETS_KEY });
    expect(await bare.db.query(sql`SELECT 1 FROM offer_sources`)).toEqual([]);
    expect(await bare.db.query(sql`SELECT 1 FROM audit_log WHERE subject_type = 'offer_source'`)).toEqual([]);

    const keyless = await bare.app.inject({
      method: "POST",
      url: "/api/admin/sources",
      headers: bareAdmin.headers,
      payload,
    });
    expect(keyless.statusCode, keyless.body).toBe(201);
    expect(keyless.json<OfferSource>().hasCredentials).toBe(false);
  });
});
