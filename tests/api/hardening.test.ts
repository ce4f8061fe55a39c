// The HTTP boundary under hostile input (issue "Hardening"): unsafe text, wrong
// content types, oversized page forms, malformed URLs and headers, off-site
// redirects, and the search budget shared by the API and the search pages.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "#db/client.ts";
import { requestLogFields } from "#server/app.ts";
import { UNSAFE_TEXT_MESSAGE } from "#server/plugins/input-hygiene.ts";
import { FORM_BODY_LIMITS } from "#server/plugins/react-router.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 6, offers: 120, trafficSources: 3 } });
});
afterAll(() => t?.close());

let ipCounter = 0;
const nextIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const PASSWORD = "violet tractor 42";

async function networkPath() {
  const [n] = await t.db.query<{ id: number; slug: string }>(sql`SELECT id, slug FROM networks ORDER BY id LIMIT 1`);
  return { id: n.id, page: `/network/${n.id}/${n.slug}` };
}

async function loginCookie(email: string) {
  await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { email, password: PASSWORD, confirmPassword: PASSWORD, name: "Hal Hardy" },
    remoteAddress: nextIp(),
  });
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password: PASSWORD },
    remoteAddress: nextIp(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().token as string };
}

describe("NUL bytes and lone surrogates", () => {
  it("are refused with 400 { message } in paths, query strings and JSON bodies, on the API and on pages", async () => {
    const { id, page } = await networkPath();
    const cases: { method: "GET" | "POST"; url: string; payload?: unknown; headers?: Record<string, string> }[] = [
      { method: "GET", url: "/api/networks?search=%00" },
      { method: "GET", url: "/api/networks/%00" },
      { method: "GET", url: "/api/offers/%00/x" },
      { method: "GET", url: "/networks?search=%00" },
      { method: "GET", url: "/traffic-sources?search=a%00b" },
      { method: "GET", url: "/?search=%00" },
      {
        method: "POST",
        url: "/api/auth/register",
        payload: { email: "nul@example.com", password: PASSWORD, confirmPassword: PASSWORD, name: "Nul\u0000Name" },
      },
      {
        method: "POST",
        url: "/api/support/contact-us",
        payload: {
          name: "Alex Reader",
          email: "alex@example.org",
          topic: "Listing or offer correction",
          subject: "a\u0000b",
          message: "Hello there, a message.",
        },
      },
      {
        method: "POST",
        url: "/api/advertisement-request",
        payload: {
          name: "Sam Buyer",
          email: "sam@example.com",
          company: "B",
          website: "b.example.com",
          placements: ["Banner ads"],
          budget: "$1,000 - $5,000",
          message: "lone \ud800 surrogate",
        },
      },
      {
        method: "POST",
        url: "/api/advertisement-request",
        payload: { name: "Sam Buyer", email: "sam@example.com", message: "x", ["key\u0000"]: "v" },
      },
      { method: "POST", url: "/api/offers/search", payload: { query: "\u0000" } },
      {
        method: "POST",
        url: "/api/networks/" + id + "/reviews",
        payload: { rating: 5, comment: "great\u0000network" },
      },
      {
        method: "POST",
        url: "/register",
        payload: form({
          name: "Nul\u0000Name",
          email: "nul2@example.com",
          password: PASSWORD,
          confirmPassword: PASSWORD,
        }),
        headers: FORM,
      },
      {
        method: "POST",
        url: "/contact",
        payload: form({ name: "Alex", email: "alex@example.org", subject: "a\u0000b", message: "m" }),
        headers: FORM,
      },
      { method: "POST", url: "/advertise", payload: form({ name: "Sam", message: "x\u0000" }), headers: FORM },
      { method: "POST", url: page, payload: form({ rating: "5", comment: "bad\u0000" }), headers: FORM },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ ...c, payload: c.payload as string, remoteAddress: nextIp() });
      expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBe(400);
      expect(res.headers["content-type"], `${c.url}: ${res.body.slice(0, 300)}`).toMatch(/json/);
      expect(res.json(), c.url).toEqual({ message: UNSAFE_TEXT_MESSAGE });
    }
  });

  it("are refused before a rate-limit slot is spent: 30 hostile posts, then a real message still goes through", async () => {
    const ip = nextIp();
    const contact = (subject: string) => ({
      name: "Alex Reader",
      email: "alex@example.org",
      topic: "Listing or offer correction",
      subject,
      message: "A real message about a payout.",
    });
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/support/contact-us",
        payload: contact(`bad\u0000${i}`),
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(400);
    }
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/support/contact-us",
      payload: contact("Real subject"),
      remoteAddress: ip,
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("never break top searches or the search log (one NUL search used to poison it until restart)", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/offers/search",
      payload: { query: "\u0000" },
      remoteAddress: nextIp(),
    });
    expect(bad.statusCode).toBe(400);
    for (const ip of [nextIp(), nextIp()]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/offers/search",
        payload: { query: "hardening zebra" },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(200);
    }
    const top = await t.app.inject({ method: "GET", url: "/api/top-searches" });
    expect(top.statusCode, top.body).toBe(200);
    const logged = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM search_log WHERE query = 'hardening zebra'`,
    );
    expect(logged[0].n).toBe(2);
  });
});

describe("page form posts", () => {
  const FORMS = [
    "/login",
    "/register",
    "/forgot-password",
    "/reset-password?token=x",
    "/contact",
    "/advertise",
    "/add-your-network",
  ];

  it("refuse any content type but the two form encodings with 415 { message }", async () => {
    const { page } = await networkPath();
    const types: [string, string][] = [
      ["application/json", "{}"],
      ["text/plain", "email=a@b.co"],
      ["application/xml", "<a/>"],
      ["application/octet-stream", "\u0001\u0002"],
      ["image/png", "png"],
    ];
    for (const url of [...FORMS, page, "/logout"]) {
      for (const [type, body] of types) {
        const res = await t.app.inject({
          method: "POST",
          url,
          payload: body,
          headers: { "content-type": type },
          remoteAddress: nextIp(),
        });
        expect(res.statusCode, `${url} ${type}`).toBe(415);
        expect(res.json()).toEqual({ message: "Unsupported content type" });
      }
    }
  });

  it("refuse unreadable multipart with 400 { message }, never 500", async () => {
    const bodies: [string, string][] = [
      ["multipart/form-data", "--x\r\n"],
      ["multipart/form-data; boundary=", "garbage"],
      ["multipart/form-data; boundary=abc", '--abc\r\nContent-Disposition: form-data; name="name"\r\n\r\nunterminated'],
      ["multipart/form-data; boundary=abc", "no boundary at all"],
    ];
    for (const url of FORMS) {
      for (const [type, body] of bodies) {
        const res = await t.app.inject({
          method: "POST",
          url,
          payload: body,
          headers: { "content-type": type },
          remoteAddress: nextIp(),
        });
        expect(res.statusCode, `${url} ${type} ${res.body}`).toBe(400);
        expect(res.json()).toEqual({ message: "The form could not be read" });
      }
    }
  });

  it("have a size limit (413 { message }) and never echo what was sent", async () => {
    const marker = "zqxjoversized";
    const big = form({
      email: "big@example.com",
      password: PASSWORD,
      name: marker.repeat(Math.ceil((FORM_BODY_LIMITS.urlencoded + 1) / marker.length)),
    });
    for (const url of ["/register", "/login", "/forgot-password", "/reset-password?token=x", "/contact"]) {
      const res = await t.app.inject({ method: "POST", url, payload: big, headers: FORM, remoteAddress: nextIp() });
      expect(res.statusCode, url).toBe(413);
      expect(res.json()).toEqual({ message: "Request body is too large" });
    }
    const hugeMultipart = `--b\r\nContent-Disposition: form-data; name="description"\r\n\r\n${"y".repeat(FORM_BODY_LIMITS.multipart + 1)}\r\n--b--\r\n`;
    const res = await t.app.inject({
      method: "POST",
      url: "/add-your-network",
      payload: hugeMultipart,
      headers: { "content-type": "multipart/form-data; boundary=b" },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(413);
    expect(res.body).not.toContain("yyyy");
  });

  it("still work as forms: a wrong password re-renders the login page with the message", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/login",
      payload: form({ email: "nobody@example.com", password: "wrong password 1" }),
      headers: FORM,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain("Invalid email or password");
  });
});

describe("redirect after login", () => {
  it("never leaves the site, whatever redirectTo says", async () => {
    const email = "redirect@example.com";
    await loginCookie(email);
    for (const redirectTo of [
      "/.//evil.example",
      "/..//evil.example",
      "//evil.example",
      "/\\evil.example",
      "https://evil.example",
      "/%2e//evil.example",
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/login",
        payload: form({ email, password: PASSWORD, redirectTo }),
        headers: FORM,
        remoteAddress: nextIp(),
      });
      expect(res.statusCode, redirectTo).toBe(302);
      expect(res.headers.location, redirectTo).toBe("/");
    }
    const local = await t.app.inject({
      method: "POST",
      url: "/login",
      payload: form({ email, password: PASSWORD, redirectTo: "/account?tab=1" }),
      headers: FORM,
      remoteAddress: nextIp(),
    });
    expect(local.headers.location).toBe("/account?tab=1");
  });
});

describe("malformed requests", () => {
  it("answer bad percent-encoding with 400 { message } that does not repeat the path", async () => {
    for (const url of ["/api/networks/%ff/x", "/%ff/zqxjpath", "/api/offers/%E0%A4%A/x"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ message: "Malformed URL" });
    }
  });

  it("answer oversized headers with 431 { message } that does not repeat the path", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(
        { host: "127.0.0.1", port, path: "/zqxjpath<script>", headers: { "x-big": "a".repeat(20_000) } },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ message: "Request headers are too large" });
  });

  it("answer a path with control characters, and a post to a page that takes none, without repeating the path", async () => {
    for (const url of ["/zqxj%0Apath", "/offer/%09/x", "/networks%7F"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: "Not found" });
    }
    for (const url of ["/readyz", "/faq", "/zqxjnothing"]) {
      const res = await t.app.inject({ method: "POST", url, payload: "a=1", headers: FORM });
      expect(res.statusCode, url).toBe(405);
      expect(res.json()).toEqual({ message: "Method not allowed" });
    }
  });

  it("answer unknown methods and unknown sites with { message } that does not repeat them", async () => {
    for (const method of ["PROPFIND", "TRACE", "MKCOL"] as const) {
      const res = await t.app.inject({ method: method as "GET", url: "/zqxjpath" });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ message: "Not found" });
    }
    const site = await t.app.inject({ method: "GET", url: "/api/networks", headers: { "x-site": "zqxj<script>" } });
    expect(site.statusCode).toBe(400);
    expect(site.json()).toEqual({ message: "Unknown site" });
  });

  it("refuse a non-JSON body on the API with 415 { message }", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: "email=a@b.co",
      headers: { "content-type": "text/plain" },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: "Unsupported content type" });
  });
});

describe("search budget", () => {
  it("is shared by the API's searches and the search pages, per address", async () => {
    const limited = await createTestApp({
      seed: { networks: 3, offers: 30, trafficSources: 1 },
      env: { SEARCH_RATE_LIMIT_PER_MINUTE: "4" },
    });
    try {
      const ip = "10.99.0.1";
      const api = (query: string) =>
        limited.app.inject({ method: "POST", url: "/api/offers/search", payload: { query }, remoteAddress: ip });
      const page = (url: string) => limited.app.inject({ method: "GET", url, remoteAddress: ip });
      expect((await api("a")).statusCode).toBe(200);
      expect((await page("/?search=b")).statusCode).toBe(200);
      expect((await page("/pay-per-call-offers?search=c")).statusCode).toBe(200);
      expect((await page("/_.data?search=d")).statusCode).toBe(200);
      const overPage = await page("/?search=e");
      expect(overPage.statusCode).toBe(429);
      expect(overPage.headers["retry-after"]).toBeDefined();
      expect((await api("f")).statusCode).toBe(429);
      // Pages without a search, and other addresses, are not held back.
      expect((await page("/networks")).statusCode).toBe(200);
      expect(
        (await limited.app.inject({ method: "GET", url: "/?search=g", remoteAddress: "10.99.0.2" })).statusCode,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("request log", () => {
  it("never keeps a token from a request's address", () => {
    for (const url of [
      "/reset-password?token=s3cret",
      "/api/auth/reset-password?a=1&token=s3cret#x",
      "/x?TOKEN=s3cret&key=s3cret&api_key=s3cret",
    ]) {
      const logged = requestLogFields({ method: "GET", url, ip: "10.0.0.1" });
      expect(logged.url).not.toContain("s3cret");
      expect(logged.url).toContain("[hidden]");
    }
    expect(requestLogFields({ method: "GET", url: "/networks?search=casino" }).url).toBe("/networks?search=casino");
  });
});
