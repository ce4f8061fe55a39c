// API keys for the public read API (issue #14): created by a signed-in account and
// shown once, stored only as a hash, listed without the key, verified by the
// service /api/v1 calls, revoked at once, bounded per account, and the page that
// shows a new key shows it once and lets no cache keep it.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { API_KEY_MARKER, API_KEYS_PER_USER, type ApiKeySummary } from "#contracts/api-keys.ts";
import { createApiKeyService } from "#core/account/api-keys.ts";
import { AUTH_COOKIE } from "#core/auth/sessions.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRoles } from "../helpers/staff.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 1, offers: 2, trafficSources: 1 } });
});
afterAll(() => t?.close());

type Account = Awaited<ReturnType<typeof signInWithRoles>>;
const URL = "/api/account/api-keys";

const create = (account: Account, payload: object = {}) =>
  t.app.inject({ method: "POST", url: URL, headers: account.headers, payload });
const list = async (account: Account) => {
  const res = await t.app.inject({ url: URL, headers: account.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ keys: ApiKeySummary[] }>().keys;
};
const revoke = (account: Account, id: number | string) =>
  t.app.inject({ method: "DELETE", url: `${URL}/${id}`, headers: account.headers });

async function newKey(account: Account, name?: string) {
  const res = await create(account, name === undefined ? {} : { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: number; key: string }>();
}

describe("/api/account/api-keys", () => {
  it("answers 401 { message } without a session", async () => {
    for (const [method, url] of [
      ["GET", URL],
      ["POST", URL],
      ["DELETE", `${URL}/1`],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === "POST" ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
  });

  it("shows a new key once: the list and the database hold only its start and its hash", async () => {
    const owner = await signInWithRoles(t, []);
    const res = await create(owner, { name: "  Nightly import  " });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const created = res.json<{ id: number; key: string }>();
    expect(Object.keys(created).sort()).toEqual(["id", "key"]);
    expect(created.key).toMatch(/^oa_live_[A-Za-z0-9_-]{43}$/);
    const secret = created.key.slice(API_KEY_MARKER.length + 8);

    const keys = await list(owner);
    expect(keys).toEqual([
      {
        id: created.id,
        name: "Nightly import",
        prefix: created.key.slice(0, API_KEY_MARKER.length + 8),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        lastUsedAt: null,
      },
    ]);
    const listed = JSON.stringify(keys);
    expect(listed).not.toContain(created.key);
    expect(listed).not.toContain(secret);

    const [row] = await t.db.query<Record<string, unknown>>(sql`SELECT * FROM api_keys WHERE id = ${created.id}`);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(secret);
    expect(row.key_hash).toBe(crypto.createHash("sha256").update(created.key).digest("hex"));
  });

  it("verifies an active key for its owner and nothing else", async () => {
    const owner = await signInWithRoles(t, []);
    const { id, key } = await newKey(owner);
    expect(await t.app.services.apiKeys.verify(key)).toEqual({ keyId: id, userId: owner.user.id });
    // As a client may send it, with spaces around.
    expect(await t.app.services.apiKeys.verify(` ${key} `)).toEqual({ keyId: id, userId: owner.user.id });

    const flipped = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    for (const wrong of [flipped, key.slice(0, -1), key.slice(API_KEY_MARKER.length), "", API_KEY_MARKER, key + key])
      expect(await t.app.services.apiKeys.verify(wrong), wrong).toBeNull();
    // A session token is not an API key.
    expect(await t.app.services.apiKeys.verify(owner.headers.authorization.replace("Bearer ", ""))).toBeNull();
  });

  it("revokes a key at once; another account's key is 404 and stays valid", async () => {
    const owner = await signInWithRoles(t, []);
    const stranger = await signInWithRoles(t, []);
    const kept = await newKey(owner, "kept");
    const doomed = await newKey(owner, "doomed");

    const theirs = await revoke(stranger, kept.id);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: expect.any(String) });
    expect(await t.app.services.apiKeys.verify(kept.key)).not.toBeNull();

    const res = await revoke(owner, doomed.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.app.services.apiKeys.verify(doomed.key)).toBeNull();
    expect((await list(owner)).map((k) => k.name)).toEqual(["kept"]);
    expect(await t.app.services.apiKeys.verify(kept.key)).toEqual({ keyId: kept.id, userId: owner.user.id });
    // Revoking twice changes nothing and is no error.
    expect((await revoke(owner, doomed.id)).statusCode).toBe(204);

    for (const id of ["0", "-1", "abc", "1.5", "99999999999999999999", "0x10", String(kept.id + 100_000)]) {
      const bad = await revoke(owner, id);
      expect(bad.statusCode, id).toBe(404);
      expect(bad.json()).toEqual({ message: expect.any(String) });
    }
  });

  it(`allows ${API_KEYS_PER_USER} active keys per account; revoking one makes room`, async () => {
    const owner = await signInWithRoles(t, []);
    const made = [];
    for (let i = 0; i < API_KEYS_PER_USER; i++) made.push(await newKey(owner, `key ${i}`));
    const over = await create(owner, { name: "one too many" });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toMatch(/already have 10 API keys; revoke one/);
    // The limit is per account: someone else still can.
    await newKey(await signInWithRoles(t, []));

    expect((await revoke(owner, made[0].id)).statusCode).toBe(204);
    await newKey(owner, "after revoking");
    expect((await create(owner)).statusCode).toBe(409);
    expect(await list(owner)).toHaveLength(API_KEYS_PER_USER);
  });

  it("refuses a bad name with 400 { message } and creates nothing", async () => {
    const owner = await signInWithRoles(t, []);
    for (const payload of [
      { name: "x".repeat(61) },
      { name: 42 },
      { name: ["a"] },
      { name: "nul\u0000byte" },
      { name: "ok", scope: "admin" },
    ]) {
      const res = await create(owner, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ message: expect.any(String) });
    }
    expect(await list(owner)).toEqual([]);
    // A name is optional; 60 characters fit.
    await newKey(owner);
    await newKey(owner, "y".repeat(60));
    expect((await list(owner)).map((k) => k.name).sort()).toEqual(["", "y".repeat(60)]);
  });
});

describe("last use", () => {
  it("is written at most once a minute per key, across instances too", async () => {
    const owner = await signInWithRoles(t, []);
    let now = Date.parse("2030-01-01T00:00:00Z");
    const clock = () => now;
    const keys = createApiKeyService(t.db, { now: clock });
    const { id, key } = await keys.create(owner.user.id, { name: "clocked" });
    const lastUsed = async () => {
      const [row] = await t.db.query<{ last_used_at: Date | null }>(
        sql`SELECT last_used_at FROM api_keys WHERE id = ${id}`,
      );
      return row.last_used_at && new Date(row.last_used_at).toISOString();
    };

    await keys.verify(key);
    expect(await lastUsed()).toBe("2030-01-01T00:00:00.000Z");
    now += 59_000;
    await keys.verify(key);
    expect(await lastUsed()).toBe("2030-01-01T00:00:00.000Z");
    // Another process's service remembers nothing, but the row's own time holds it back as well.
    await createApiKeyService(t.db, { now: clock }).verify(key);
    expect(await lastUsed()).toBe("2030-01-01T00:00:00.000Z");
    now += 2_000;
    await keys.verify(key);
    expect(await lastUsed()).toBe("2030-01-01T00:01:01.000Z");
    expect((await keys.list(owner.user.id))[0].lastUsedAt).toBe("2030-01-01T00:01:01.000Z");
  });
});

describe("/account/api-keys page", () => {
  const cookieOf = (account: Account) => `${AUTH_COOKIE}=${account.headers.authorization.replace("Bearer ", "")}`;
  const post = (account: Account, form: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/account/api-keys",
      headers: { cookie: cookieOf(account), "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(form).toString(),
    });

  it("sends a signed-out visitor to log in first", async () => {
    const res = await t.app.inject({ url: "/account/api-keys" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/login?redirectTo=/account/api-keys");
  });

  it("shows a created key once, never from cache, and only its start after a reload", async () => {
    const owner = await signInWithRoles(t, []);
    const created = await post(owner, { intent: "create", name: "Page key" });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.headers["cache-control"]).toBe("no-store");
    const [key] = created.body.match(/oa_live_[A-Za-z0-9_-]{43}/) ?? [];
    expect(key, "the new key in the page").toBeDefined();
    expect(created.body).toContain("you will not see it again");
    expect(await t.app.services.apiKeys.verify(key!)).not.toBeNull();

    const again = await t.app.inject({ url: "/account/api-keys", headers: { cookie: cookieOf(owner) } });
    expect(again.statusCode).toBe(200);
    expect(again.headers["cache-control"]).toBe("no-store");
    expect(again.body).not.toContain(key!);
    expect(again.body).not.toContain(key!.slice(16));
    expect(again.body).toContain(key!.slice(0, 16));
    expect(again.body).toContain("Page key");
    // A client-side navigation's data request is not kept either.
    const data = await t.app.inject({ url: "/account/api-keys.data", headers: { cookie: cookieOf(owner) } });
    expect(data.statusCode).toBe(200);
    expect(data.headers["cache-control"]).toBe("no-store");
    // Nor the answer of the action a browser with JavaScript posts to (it carries the key).
    const fetched = await t.app.inject({
      method: "POST",
      url: "/account/api-keys.data",
      headers: { cookie: cookieOf(owner), "content-type": "application/x-www-form-urlencoded" },
      payload: "intent=create&name=Scripted",
    });
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.body).toMatch(/oa_live_[A-Za-z0-9_-]{43}/);
    expect(fetched.headers["cache-control"]).toBe("no-store");
  });

  it("revokes from the page and refuses a bad name in the form", async () => {
    const owner = await signInWithRoles(t, []);
    const { id, key } = await newKey(owner, "to revoke");
    const revoked = await post(owner, { intent: "revoke", id: String(id) });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.body).toContain("API key revoked");
    expect(await t.app.services.apiKeys.verify(key)).toBeNull();

    const stranger = await signInWithRoles(t, []);
    const other = await newKey(owner, "still here");
    expect((await post(stranger, { intent: "revoke", id: String(other.id) })).statusCode).toBe(404);
    expect(await t.app.services.apiKeys.verify(other.key)).not.toBeNull();

    const long = await post(owner, { intent: "create", name: "z".repeat(61) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain("Name must be at most 60 characters long");
    expect(long.body).not.toMatch(/oa_live_[A-Za-z0-9_-]{43}/);
    expect((await post(owner, { intent: "rotate", name: "x" })).statusCode).toBe(400);
    expect((await list(owner)).map((k) => k.name)).toEqual(["still here"]);
  });
});
