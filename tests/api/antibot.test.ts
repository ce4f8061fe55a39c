// The reCAPTCHA v3 verifier, run for real against a local fake verify server:
// pass, low score, wrong action, provider failure, and the off switch.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAntibot } from "#core/antibot/recaptcha.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

type Seen = { secret: string | null; response: string | null; remoteip: string | null };
let server: http.Server;
let verifyUrl: string;
const seen: Seen[] = [];

// Answers like Google's siteverify, keyed by the token the "browser" sent.
const ANSWERS: Record<string, { status?: number; body: unknown }> = {
  "good-login": { body: { success: true, score: 0.9, action: "login", hostname: "localhost" } },
  "good-register": { body: { success: true, score: 0.7, action: "register" } },
  "low-score": { body: { success: true, score: 0.1, action: "login" } },
  "wrong-action": { body: { success: true, score: 0.9, action: "register" } },
  rejected: { body: { success: false, "error-codes": ["invalid-input-response"] } },
  "provider-down": { status: 500, body: { error: "boom" } },
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      seen.push({ secret: form.get("secret"), response: form.get("response"), remoteip: form.get("remoteip") });
      const answer = ANSWERS[form.get("response") ?? ""] ?? { body: { success: false } };
      res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const settings = () => ({ siteKey: "site-key-123", secretKey: "secret-456", verifyUrl, minScore: 0.5 });

describe("createAntibot", () => {
  it("passes a good token for the expected action and sends secret, token and client IP", async () => {
    const antibot = createAntibot(settings());
    expect(antibot.enabled).toBe(true);
    expect(antibot.siteKey).toBe("site-key-123");
    await expect(antibot.verify("good-login", "login", "203.0.113.9")).resolves.toBeUndefined();
    expect(seen.at(-1)).toEqual({ secret: "secret-456", response: "good-login", remoteip: "203.0.113.9" });
  });

  it("refuses a low score, a wrong action, a rejected or missing token with 400", async () => {
    const antibot = createAntibot(settings());
    for (const token of ["low-score", "wrong-action", "rejected", undefined, ""]) {
      await expect(antibot.verify(token, "login"), String(token)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/ReCaptcha verification failed/),
      });
    }
  });

  it("honours the configured threshold", async () => {
    await expect(
      createAntibot({ ...settings(), minScore: 0.05 }).verify("low-score", "login"),
    ).resolves.toBeUndefined();
  });

  it("answers 503 when the provider fails or cannot be reached", async () => {
    await expect(createAntibot(settings()).verify("provider-down", "login")).rejects.toMatchObject({ status: 503 });
    const unreachable = createAntibot({ ...settings(), verifyUrl: "http://127.0.0.1:9/siteverify" });
    await expect(unreachable.verify("good-login", "login")).rejects.toMatchObject({ status: 503 });
  });

  it("is off without keys: no request, every token passes", async () => {
    const before = seen.length;
    const off = createAntibot({ siteKey: "", secretKey: "", verifyUrl, minScore: 0.5 });
    expect(off.enabled).toBe(false);
    expect(off.siteKey).toBe("");
    await expect(off.verify(undefined, "login")).resolves.toBeUndefined();
    expect(createAntibot({ ...settings(), secretKey: "" }).enabled).toBe(false);
    expect(seen.length).toBe(before);
  });
});

describe("anti-bot on the accounts API and pages", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      env: { RECAPTCHA_SITE_KEY: "site-key-123", RECAPTCHA_SECRET_KEY: "secret-456", RECAPTCHA_VERIFY_URL: verifyUrl },
    });
  });
  afterAll(() => t?.close());

  const password = "meadow lantern 9";
  const registerBody = { email: "bot@example.com", password, confirmPassword: password, name: "Bot Check" };

  it("requires a valid token for register and login", async () => {
    const noToken = await t.app.inject({ method: "POST", url: "/api/auth/register/", payload: registerBody });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().message).toMatch(/ReCaptcha verification failed/);
    const loginToken = await t.app.inject({
      method: "POST",
      url: "/api/auth/register/",
      payload: { ...registerBody, "g-recaptcha-response": "good-login" },
    });
    expect(loginToken.statusCode).toBe(400); // a token minted for another action
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/auth/register/",
      payload: { ...registerBody, "g-recaptcha-response": "good-register" },
    });
    expect(ok.statusCode).toBe(201);

    const creds = { email: "bot@example.com", password };
    for (const token of ["low-score", "wrong-action", "rejected"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { ...creds, "g-recaptcha-response": token },
      });
      expect(res.statusCode, token).toBe(400);
    }
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { ...creds, "g-recaptcha-response": "good-login" },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().token).toBeTruthy();
  });

  it("puts the site key and the protection notice on the pages", async () => {
    const page = await t.app.inject("/login");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("site-key-123");
    expect(page.body).toContain("This site is protected by reCAPTCHA");
    expect(page.body).toContain(".grecaptcha-badge{visibility:hidden}");
  });

  it("leaves the script and notice out when no key is configured", async () => {
    const off = await createTestApp({ seed: false });
    try {
      const page = await off.app.inject("/login");
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain("protected by reCAPTCHA");
      expect(page.body).not.toContain("recaptcha/api.js");
    } finally {
      await off.close();
    }
  });
});
