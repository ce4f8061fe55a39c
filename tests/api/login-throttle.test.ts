// Login throttling (core/auth/auth.ts login): failures are counted per account and
// address pair, per address and per account; only the attacker's own addresses are
// refused, the account itself is never locked: past its failure threshold every
// attempt waits a capped, growing delay, and the owner still gets in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import {
  createAuthService,
  DEFAULT_LIMITS,
  INVALID_CREDENTIALS,
  LOGIN_BACKOFF,
  loginDelayMs,
} from "#core/auth/auth.ts";
import { createAntibot } from "#core/antibot/recaptcha.ts";
import type { Mailer } from "#core/mail/mailer.ts";
import { createRateLimiter, TOO_MANY_REQUESTS } from "#core/rate-limit/limiter.ts";
import { hashIp } from "#core/privacy.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let ipCounter = 0;
/** A fresh client address each call: an address that has never failed. */
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const PASSWORD = "violet tractor 42";
const WRONG = "not the password";

beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t?.close());

const login = (email: string, password: string, ip: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress: ip,
    payload: { email, password, "g-recaptcha-response": "" },
  });

async function register(email: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/register/",
    remoteAddress: freshIp(),
    payload: { email, password: PASSWORD, confirmPassword: PASSWORD, name: "Owen Owner" },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe("login throttling over the API", () => {
  it("lets the owner in from a fresh address after 15 wrong passwords from many addresses, while the attack goes on", async () => {
    await register("owner@example.com");
    const wrong = await Promise.all(Array.from({ length: 15 }, () => login("owner@example.com", WRONG, freshIp())));
    expect(wrong.map((r) => r.statusCode)).toEqual(Array(15).fill(401));
    expect(wrong.every((r) => r.json().message === INVALID_CREDENTIALS)).toBe(true);

    const started = Date.now();
    const owner = await login("owner@example.com", PASSWORD, freshIp());
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().token).toBeTruthy();
    // Past the threshold every attempt waits first, but never longer than the cap.
    expect(Date.now() - started).toBeLessThan(LOGIN_BACKOFF.maxMs + 1500);

    // The attacker keeps failing from yet more addresses; the owner still gets in.
    const [owned, ...guesses] = await Promise.all([
      login("owner@example.com", PASSWORD, freshIp()),
      ...Array.from({ length: 5 }, () => login("owner@example.com", WRONG, freshIp())),
    ]);
    expect(owned.statusCode, owned.body).toBe(200);
    expect(guesses.map((r) => r.statusCode)).toEqual(Array(5).fill(401));
  });

  it("refuses one address with 429 and Retry-After once it failed on an account 5 times", async () => {
    await register("target@example.com");
    const ip = freshIp();
    for (let i = 0; i < DEFAULT_LIMITS.loginFailuresPerPair.limit; i++) {
      expect((await login("target@example.com", WRONG, ip)).statusCode).toBe(401);
    }
    const blocked = await login("target@example.com", WRONG, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: TOO_MANY_REQUESTS });
    const retryAfter = Number(blocked.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Only that account is refused to that address (until the address's own limit).
    await register("other@example.com");
    expect((await login("other@example.com", PASSWORD, ip)).statusCode).toBe(200);
  });

  it("refuses even the right password from the blocked address, while a fresh address gets in", async () => {
    await register("victim@example.com");
    const attacker = freshIp();
    for (let i = 0; i < DEFAULT_LIMITS.loginFailuresPerPair.limit; i++) {
      expect((await login("victim@example.com", WRONG, attacker)).statusCode).toBe(401);
    }
    const right = await login("victim@example.com", PASSWORD, attacker);
    expect(right.statusCode).toBe(429);
    expect(right.headers["retry-after"]).toBeDefined();
    expect((await login("victim@example.com", PASSWORD, freshIp())).statusCode).toBe(200);
    // When the window ends the address may try again.
    await t.db.query(
      sql`UPDATE rate_limits SET reset_at = now() - interval '1 second' WHERE key LIKE 'login:fail:pair:%'`,
    );
    expect((await login("victim@example.com", PASSWORD, attacker)).statusCode).toBe(200);
  });

  it("counts failures, not logins: a success clears the address's failures on that account", async () => {
    await register("forgetful@example.com");
    const ip = freshIp();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < DEFAULT_LIMITS.loginFailuresPerPair.limit - 1; i++) {
        expect((await login("forgetful@example.com", WRONG, ip)).statusCode).toBe(401);
      }
      expect((await login("forgetful@example.com", PASSWORD, ip)).statusCode).toBe(200);
    }
    // Many successful logins from one address are not failures either.
    for (let i = 0; i < 8; i++) expect((await login("forgetful@example.com", PASSWORD, ip)).statusCode).toBe(200);
  });

  it("lets no more than the limit through when one address guesses in parallel", async () => {
    await register("parallel@example.com");
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 20 }, () => login("parallel@example.com", WRONG, ip)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(DEFAULT_LIMITS.loginFailuresPerPair.limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(20 - DEFAULT_LIMITS.loginFailuresPerPair.limit);
  });

  it("answers an unknown account exactly like a known one under attack", async () => {
    await register("known@example.com");
    for (const email of ["known@example.com", "unknown@example.com"]) {
      const ip = freshIp();
      const codes = [];
      for (let i = 0; i < 6; i++) codes.push((await login(email, WRONG, ip)).statusCode);
      expect(codes, email).toEqual([401, 401, 401, 401, 401, 429]);
    }
  });
});

describe("login throttling rules (the service, with a recorded wait)", () => {
  const noMail = { mode: "smtp", outboxDir: undefined, send: async () => {} } as unknown as Mailer;
  const quiet = { info() {}, warn() {}, error() {} };

  function service(waits: number[]) {
    return createAuthService({
      db: t.db,
      limiter: createRateLimiter(t.db),
      mail: noMail,
      log: quiet,
      publicUrl: "http://localhost",
      antibot: createAntibot({ siteKey: "", secretKey: "", verifyUrl: "", minScore: 0.5 }),
      ipHashSalt: "throttle-test",
      sleep: async (ms) => void waits.push(ms),
    });
  }

  it("grows the wait from the 11th failure on: 100 ms doubling, at most 3 s; the same for unknown accounts", async () => {
    await register("schedule@example.com");
    const schedules: number[][] = [];
    for (const email of ["schedule@example.com", "no-such-account@example.com"]) {
      const waits: number[] = [];
      const auth = service(waits);
      for (let i = 0; i < 17; i++) {
        await expect(auth.login({ email, password: WRONG }, { ip: `10.78.0.${i}` })).rejects.toMatchObject({
          status: 401,
          message: INVALID_CREDENTIALS,
        });
      }
      schedules.push(waits);
    }
    // Attempts 11–17 waited; attempts 1–10 did not wait at all.
    expect(schedules[0]).toEqual([100, 200, 400, 800, 1600, 3000, 3000]);
    expect(schedules[1]).toEqual(schedules[0]);
    expect(loginDelayMs(10_000, 10)).toBe(LOGIN_BACKOFF.maxMs);

    // The owner, from an address that never failed, gets in after one capped wait, and the success is not counted.
    const waits: number[] = [];
    const session = await service(waits).login(
      { email: "schedule@example.com", password: PASSWORD },
      { ip: "10.78.1.1" },
    );
    expect(session.user.email).toBe("schedule@example.com");
    expect(waits).toEqual([3000]);
    expect(
      await createRateLimiter(t.db).peek(`login:fail:account:${hashIp("schedule@example.com", "throttle-test")}`),
    ).toBe(17);
  });

  it("takes back only a success's own count: logging in between guesses buys no extra guesses", async () => {
    await register("mine@example.com");
    const auth = service([]);
    const ip = "10.79.0.1";
    const limit = DEFAULT_LIMITS.loginFailuresPerIp.limit;
    let guessed = 0;
    for (let i = 0; i < limit + 5; i++) {
      await auth.login({ email: "mine@example.com", password: PASSWORD }, { ip }).catch(() => {});
      await auth
        .login({ email: `sprayed${i}@example.com`, password: WRONG }, { ip })
        .catch((err: { status: number }) => {
          if (err.status === 401) guessed++;
        });
    }
    expect(guessed).toBe(limit);
    expect(await createRateLimiter(t.db).peek(`login:fail:ip:${hashIp(ip, "throttle-test")}`)).toBeGreaterThan(limit);
  });
});
