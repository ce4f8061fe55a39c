// Accounts API (docs/product.md §7): register, login, profile, logout, forgot and reset
// password, session lifetime and revocation, and rate limits shared through
// the database.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "#db/client.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let dataDir: string;
let ipCounter = 0;
/** A fresh client address per test keeps the per-IP limits of one test out of the next. */
const nextIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const PASSWORD = "violet tractor 42";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-auth-"));
  t = await createTestApp({ seed: false, env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Body = Record<string, unknown>;
const post = (url: string, payload: Body, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: "POST", url, payload, remoteAddress: opts.ip ?? nextIp(), headers: opts.headers });

async function register(email: string, extra: Body = {}) {
  return post("/api/auth/register/", {
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    name: "Ann Example",
    ...extra,
  });
}
async function login(email: string, password = PASSWORD, extra: Body = {}, ip?: string) {
  return post("/api/auth/login", { email, password, "g-recaptcha-response": "", ...extra }, { ip });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const profile = (headers: Record<string, string> = {}) => t.app.inject({ url: "/api/users/profile", headers });
const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

async function waitForMail(recipient: string, since: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const [row] = await t.db.query<{ body_text: string }>(
      sql`SELECT body_text FROM mail_outbox WHERE recipient = ${recipient} AND id > ${since} ORDER BY id DESC LIMIT 1`,
    );
    if (row) return row.body_text;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no mail for ${recipient}`);
}
const lastMailId = async () =>
  (await t.db.query<{ id: number | null }>(sql`SELECT max(id) AS id FROM mail_outbox`))[0].id ?? 0;
const tokenFrom = (text: string) =>
  new URL(text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)![0]).searchParams.get("token")!;

describe("POST /api/auth/register/", () => {
  it("creates an account for the site, strips whitespace from the phone and never returns the hash", async () => {
    const res = await register("Reg.One@Example.com", {
      phone: " +1 555 123 4567 ",
      company: "Acme Media",
      messenger: "@annex",
    });
    expect(res.statusCode).toBe(201);
    const { user } = res.json();
    expect(user).toMatchObject({
      email: "Reg.One@Example.com",
      name: "Ann Example",
      phone: "+15551234567",
      company: "Acme Media",
      scope: [],
    });
    expect(JSON.stringify(res.json())).not.toMatch(/hash|argon/i);
    const [row] = await t.db.query<{ site_id: string; password_hash: string }>(
      sql`SELECT site_id, password_hash FROM users WHERE id = ${user.id}`,
    );
    expect(row.site_id).toBe("offeratlas");
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it("omits a phone that is empty after stripping whitespace", async () => {
    const res = await register("reg.blankphone@example.com", { phone: "   " });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.phone).toBeNull();
  });

  it("answers 409 with a message for an address already registered, in any letter case", async () => {
    expect((await register("dup@example.com")).statusCode).toBe(201);
    const again = await register("  DUP@example.COM ");
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "An account with this email address already exists" });
  });

  it("answers 400 with the spec's validation messages", async () => {
    const cases: [Body, string][] = [
      [{ email: "" }, "Email cannot be blank"],
      [{ email: "not-an-email" }, "not-an-email is not a valid email address"],
      [{ password: "short", confirmPassword: "short" }, "Password must be at least 8 characters long"],
      [{ confirmPassword: "something else" }, "The password confirmation does not match"],
      [{ name: "  " }, "Name cannot be blank"],
      [{ phone: "12ab" }, "12ab is not a valid phone number"],
    ];
    for (const [override, message] of cases) {
      const res = await register("valid.case@example.com", override);
      expect(res.statusCode, message).toBe(400);
      expect(res.json()).toEqual({ message });
    }
  });

  it("refuses one of the most common passwords", async () => {
    const res = await register("common@example.com", { password: "password123", confirmPassword: "password123" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/too common/);
  });

  it("refuses an unknown site", async () => {
    const res = await register("site@example.com", { site: "elsewhere" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "Unknown site" });
  });
});

describe("POST /api/auth/login and GET /api/users/profile", () => {
  beforeAll(async () => {
    expect((await register("login@example.com", { phone: "+44 20 7946 0958" })).statusCode).toBe(201);
  });

  it("answers { token, user } and sets an HttpOnly, SameSite=Lax browser-session cookie", async () => {
    const res = await login("LOGIN@example.com");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      email: "login@example.com",
      name: "Ann Example",
      phone: "+442079460958",
      scope: [],
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43,}$/); // 256 random bits, base64url
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toContain(`auth._token.local=${body.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Max-Age|Expires/); // ends with the browser
    expect(cookie).not.toMatch(/Secure/); // test env is not production
  });

  it("stores only the token's hash", async () => {
    const { token } = (await login("login@example.com")).json();
    const rows = await t.db.query<{ token_hash: string }>(
      sql`SELECT token_hash FROM sessions WHERE token_hash = ${sha256(token)}`,
    );
    expect(rows).toHaveLength(1);
    const raw = await t.db.query(sql`SELECT 1 FROM sessions WHERE token_hash = ${token}`);
    expect(raw).toHaveLength(0);
  });

  it("with Remember Me gives a 30-day cookie and session", async () => {
    const res = await login("login@example.com", PASSWORD, { remember: true });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["set-cookie"])).toMatch(/Max-Age=2592000/);
    const days = (new Date(res.json().expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(res.json().remember).toBe(true);
  });

  it("answers the same 401 for a wrong password and an unknown email", async () => {
    const wrong = await login("login@example.com", "not the password");
    const unknown = await login("nobody@example.com", "not the password");
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: "Invalid email or password" });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.headers["set-cookie"]).toBeUndefined();
  });

  it("answers 400 for a missing field", async () => {
    const res = await post("/api/auth/login", { email: "login@example.com" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "Password cannot be blank" });
  });

  it("serves the profile for a Bearer token or the cookie, with scope and without the hash", async () => {
    const { token, user } = (await login("login@example.com")).json();
    await t.db.query(sql`UPDATE users SET scope = '{admin}' WHERE id = ${user.id}`);
    for (const headers of [bearer(token), { cookie: `auth._token.local=${token}` }]) {
      const res = await profile(headers);
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ id: user.id, email: "login@example.com", scope: ["admin"] });
      expect(res.json().user).not.toHaveProperty("password_hash");
      expect(res.json().user).not.toHaveProperty("passwordHash");
      expect(res.headers["cache-control"]).toBe("no-store");
    }
    await t.db.query(sql`UPDATE users SET scope = '{}' WHERE id = ${user.id}`);
  });

  it("answers 401 without a token, with an unknown one, or with an expired session", async () => {
    expect((await profile()).statusCode).toBe(401);
    expect((await profile()).json()).toEqual({ message: "You must be logged in" });
    expect((await profile(bearer("x".repeat(43)))).statusCode).toBe(401);
    const { token } = (await login("login@example.com")).json();
    await t.db.query(
      sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(token)}`,
    );
    expect((await profile(bearer(token))).statusCode).toBe(401);
  });

  it("slides an idle session forward on use, at most once a minute", async () => {
    const { token } = (await login("login@example.com")).json();
    await t.db.query(sql`
      UPDATE sessions SET last_seen_at = now() - interval '2 hours', expires_at = now() + interval '10 hours'
      WHERE token_hash = ${sha256(token)}`);
    expect((await profile(bearer(token))).statusCode).toBe(200);
    const [after] = await t.db.query<{ hours: number }>(
      sql`SELECT extract(epoch FROM expires_at - now()) / 3600 AS hours FROM sessions WHERE token_hash = ${sha256(token)}`,
    );
    expect(after.hours).toBeGreaterThan(11.9);
    expect(after.hours).toBeLessThanOrEqual(12);
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the session server-side and clears the cookie", async () => {
    await register("logout@example.com");
    const { token } = (await login("logout@example.com")).json();
    const res = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["set-cookie"])).toMatch(/auth\._token\.local=;.*Max-Age=0/);
    // The personal answer the browser kept under the session's version goes with it.
    expect(String(res.headers["set-cookie"])).toMatch(/oa_pv=;.*Max-Age=0/);
    expect(res.headers["clear-site-data"]).toBe('"cache"');
    expect((await profile(bearer(token))).statusCode).toBe(401);
    const [row] = await t.db.query<{ revoked: boolean }>(
      sql`SELECT revoked_at IS NOT NULL AS revoked FROM sessions WHERE token_hash = ${sha256(token)}`,
    );
    expect(row.revoked).toBe(true);
  });

  it("always answers 2xx: no token, an unknown token, an empty JSON body, an unknown site", async () => {
    const attempts = [
      { method: "POST" as const, url: "/api/auth/logout" },
      { method: "POST" as const, url: "/api/auth/logout", headers: bearer("nope") },
      {
        method: "POST" as const,
        url: "/api/auth/logout",
        headers: { "content-type": "application/json" },
        payload: "",
      },
      { method: "POST" as const, url: "/api/auth/logout", headers: { "x-site": "elsewhere" } },
    ];
    for (const a of attempts) {
      const res = await t.app.inject(a);
      expect(res.statusCode).toBe(200);
    }
  });
});

describe("forgot and reset password", () => {
  const email = "reset@example.com";
  const NEW_PASSWORD = "orange glacier 77";

  beforeAll(async () => {
    expect((await register(email)).statusCode).toBe(201);
  });

  it("answers the same whether or not the email has an account", async () => {
    const known = await post("/api/auth/forgot-password", { email });
    const unknown = await post("/api/auth/forgot-password", { email: "ghost@example.com" });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const bad = await post("/api/auth/forgot-password", { email: "nope" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: "nope is not a valid email address" });
  });

  it("mails a one-hour, single-use link stored hashed; the reset revokes every session", async () => {
    const { token: sessionA } = (await login(email)).json();
    const { token: sessionB } = (await login(email, PASSWORD, { remember: true })).json();
    const since = await lastMailId();
    await post("/api/auth/forgot-password", { email });
    const resetToken = tokenFrom(await waitForMail(email, since));
    expect(resetToken.length).toBeGreaterThanOrEqual(43);

    const [stored] = await t.db.query<{ token_hash: string; minutes: number }>(sql`
      SELECT token_hash, extract(epoch FROM expires_at - created_at) / 60 AS minutes
      FROM password_resets WHERE token_hash = ${sha256(resetToken)}`);
    expect(stored.minutes).toBeCloseTo(60, 0);

    const check = await t.app.inject(`/api/auth/reset-password?token=${encodeURIComponent(resetToken)}`);
    expect(check.json()).toEqual({ valid: true });

    const mismatch = await post("/api/auth/reset-password", {
      token: resetToken,
      password: NEW_PASSWORD,
      confirmPassword: "other",
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ message: "The password confirmation does not match" });

    const ok = await post("/api/auth/reset-password", {
      token: resetToken,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toMatch(/password has been changed/);

    expect((await profile(bearer(sessionA))).statusCode).toBe(401);
    expect((await profile(bearer(sessionB))).statusCode).toBe(401);
    expect((await login(email)).statusCode).toBe(401);
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);

    const reuse = await post("/api/auth/reset-password", {
      token: resetToken,
      password: "another fine phrase",
      confirmPassword: "another fine phrase",
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ message: "This password reset link is invalid or has expired" });
    expect((await t.app.inject(`/api/auth/reset-password?token=${resetToken}`)).json()).toMatchObject({ valid: false });
  });

  it("refuses an expired link, a replaced link and a missing token", async () => {
    // Earlier tests used up this account's reset mails for the hour.
    await t.db.query(sql`DELETE FROM rate_limits WHERE key LIKE 'forgot:%'`);
    let since = await lastMailId();
    await post("/api/auth/forgot-password", { email });
    const first = tokenFrom(await waitForMail(email, since));
    since = await lastMailId();
    await post("/api/auth/forgot-password", { email });
    const second = tokenFrom(await waitForMail(email, since));
    // Only the newest link works.
    expect((await t.app.inject(`/api/auth/reset-password?token=${first}`)).json().valid).toBe(false);
    expect((await t.app.inject(`/api/auth/reset-password?token=${second}`)).json().valid).toBe(true);
    await t.db.query(
      sql`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(second)}`,
    );
    const expired = await post("/api/auth/reset-password", {
      token: second,
      password: "a brand new phrase",
      confirmPassword: "a brand new phrase",
    });
    expect(expired.statusCode).toBe(400);
    const missing = await t.app.inject("/api/auth/reset-password");
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: "Token cannot be blank" });
  });

  it("never logs the reset link or token, at any level; says where the mail is; keeps the mail file private", async () => {
    await t.db.query(sql`DELETE FROM rate_limits WHERE key LIKE 'forgot:%'`);
    const lines: string[] = [];
    const record = (...args: unknown[]) =>
      void lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    const spies = (["trace", "debug", "info", "warn", "error", "fatal"] as const).map((level) =>
      vi.spyOn(t.app.log, level).mockImplementation(record as never),
    );
    try {
      const since = await lastMailId();
      expect((await post("/api/auth/forgot-password", { email })).statusCode).toBe(200);
      const token = tokenFrom(await waitForMail(email, since));
      await vi.waitFor(() => expect(lines.some((l) => l.includes(".eml"))).toBe(true));
      const outboxDir = path.join(dataDir, "outbox");
      expect(lines.some((l) => l.includes("password reset mail") && l.includes(outboxDir))).toBe(true);
      for (const line of lines) {
        expect(line).not.toContain(token);
        expect(line).not.toContain(sha256(token));
        expect(line).not.toMatch(/token=/);
      }
      // The .eml file (which does hold the link) is readable by the server's user only.
      const file = lines.join("\n").match(/written to (\S+\.eml)/)![1];
      expect(fs.readFileSync(file, "utf8")).toContain("reset-password?token=");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(outboxDir).mode & 0o777).toBe(0o700);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe("rate limits", () => {
  it("never locks an account: 10 failures from other addresses leave the right password working", async () => {
    await register("limited@example.com");
    // Each attempt from a different address: only the account's own count grows (see login-throttle.test.ts).
    for (let i = 0; i < 10; i++) expect((await login("limited@example.com", "wrong password")).statusCode).toBe(401);
    expect((await login("limited@example.com", PASSWORD)).statusCode).toBe(200);
  });

  it("limits failed logins per IP across accounts", async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++)
      expect((await login(`someone${i}@example.com`, "whatever pw", {}, ip)).statusCode).toBe(401);
    const blocked = await login("someone-else@example.com", "whatever pw", {}, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
    expect((await login("someone-else@example.com", "whatever pw", {}, nextIp())).statusCode).toBe(401);
  });

  it("limits registrations per IP", async () => {
    const ip = nextIp();
    for (let i = 0; i < 10; i++) {
      const res = await post(
        "/api/auth/register",
        { email: `bulk${i}@example.com`, password: PASSWORD, confirmPassword: PASSWORD, name: "Bulk" },
        { ip },
      );
      expect(res.statusCode).toBe(201);
    }
    const blocked = await post(
      "/api/auth/register",
      { email: "bulk-x@example.com", password: PASSWORD, confirmPassword: PASSWORD, name: "Bulk" },
      { ip },
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
  });

  it("limits reset mails per account and reset attempts per IP", async () => {
    for (let i = 0; i < 3; i++)
      expect((await post("/api/auth/forgot-password", { email: "flood@example.com" })).statusCode).toBe(200);
    const blocked = await post("/api/auth/forgot-password", { email: "flood@example.com" });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();

    const ip = nextIp();
    for (let i = 0; i < 20; i++) {
      const res = await post(
        "/api/auth/reset-password",
        { token: `guess-${i}`, password: "a long new phrase", confirmPassword: "a long new phrase" },
        { ip },
      );
      expect(res.statusCode).toBe(400);
    }
    const tooMany = await post(
      "/api/auth/reset-password",
      { token: "guess-x", password: "a long new phrase", confirmPassword: "a long new phrase" },
      { ip },
    );
    expect(tooMany.statusCode).toBe(429);
  });

  it("counts atomically under concurrent hits", async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, () => t.app.services.rateLimits.hit("test:concurrent", 10, 60)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    const [row] = await t.db.query<{ hits: number }>(sql`SELECT hits FROM rate_limits WHERE key = 'test:concurrent'`);
    expect(row.hits).toBe(25);
  });
});

describe("account pages (server-rendered, no JavaScript)", () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const formHeaders = { "content-type": "application/x-www-form-urlencoded" };

  beforeAll(async () => {
    expect((await register("pages@example.com")).statusCode).toBe(201);
  });

  it("guards /account and logs in back to it through the /login action", async () => {
    const guarded = await t.app.inject("/account");
    expect(guarded.statusCode).toBe(302);
    expect(guarded.headers.location).toBe("/login?redirectTo=/account");

    const res = await t.app.inject({
      method: "POST",
      url: "/login?redirectTo=/account",
      headers: formHeaders,
      remoteAddress: nextIp(),
      payload: form({ email: "pages@example.com", password: PASSWORD, redirectTo: "/account" }),
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/account");
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toMatch(/^auth\._token\.local=[A-Za-z0-9_-]{43,}; Path=\/; HttpOnly; SameSite=Lax$/);
    const token = cookie.split(";")[0].split("=")[1];

    const account = await t.app.inject({ url: "/account", headers: { cookie: `auth._token.local=${token}` } });
    expect(account.statusCode).toBe(200);
    expect(account.body).toContain("pages@example.com");
    expect(account.body).toContain("Member since");
    expect(account.body).not.toMatch(/argon2/);

    // Guest-only while logged in.
    for (const url of ["/login", "/register"]) {
      const r = await t.app.inject({ url, headers: { cookie: `auth._token.local=${token}` } });
      expect(r.statusCode, url).toBe(302);
      expect(r.headers.location).toBe("/");
    }

    const out = await t.app.inject({
      method: "POST",
      url: "/logout",
      headers: { ...formHeaders, cookie: `auth._token.local=${token}` },
      payload: "",
    });
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe("/");
    expect(String(out.headers["set-cookie"])).toMatch(/auth\._token\.local=;.*Max-Age=0/);
    // Cleared, and no new version beside it (a write's answer gets one, docs/decisions/0043).
    expect([out.headers["set-cookie"]].flat().filter((c) => String(c).startsWith("oa_pv="))).toEqual([
      expect.stringMatching(/^oa_pv=;.*Max-Age=0/),
    ]);
    expect(out.headers["clear-site-data"]).toBe('"cache"');
    expect((await profile({ cookie: `auth._token.local=${token}` })).statusCode).toBe(401);
  });

  it("refuses an off-site redirect target and sets a persistent cookie with Remember Me", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/login",
      headers: formHeaders,
      remoteAddress: nextIp(),
      payload: form({
        email: "pages@example.com",
        password: PASSWORD,
        remember: "true",
        redirectTo: "//evil.example/x",
      }),
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    expect(String(res.headers["set-cookie"])).toMatch(/Max-Age=259\d{4}/);
  });

  it("answers a failed login with the page, the message and 401", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/login",
      headers: formHeaders,
      remoteAddress: nextIp(),
      payload: form({ email: "pages@example.com", password: "not it at all" }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain("Invalid email or password");
    expect(res.headers["set-cookie"]).toBeUndefined();
  });
});
