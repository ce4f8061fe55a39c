// Anonymous pages are reused for a few seconds; personal ones never are, and
// every response keeps its own CSP nonce.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 6, offers: 120, trafficSources: 2 }, env: { PAGE_CACHE_SECONDS: "60" } });
});
afterAll(() => t?.close());

const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];

describe("page micro-cache", () => {
  it("reuses an anonymous page and renews its nonce", async () => {
    const first = await t.app.inject("/networks?page=1");
    const second = await t.app.inject("/networks?page=1");
    expect(first.headers["x-page-cache"]).toBeUndefined();
    expect(second.headers["x-page-cache"]).toBe("hit");
    const n1 = nonceOf(first.headers["content-security-policy"]);
    const n2 = nonceOf(second.headers["content-security-policy"]);
    expect(n1).toBeTruthy();
    expect(n2).not.toBe(n1);
    expect(second.body).toContain(`nonce="${n2}"`);
    expect(second.body).not.toContain(n1!);
    expect(second.body.replaceAll(n2!, "N")).toBe(first.body.replaceAll(n1!, "N"));
  });

  it("never reuses pages for visitors with cookies a page may read, nor errors", async () => {
    await t.app.inject("/faq");
    // The consent answer (or any cookie but the session and the script mark) makes the page its visitor's.
    const withCookie = await t.app.inject({ url: "/faq", headers: { cookie: "oa_consent=all" } });
    expect(withCookie.headers["x-page-cache"]).toBeUndefined();
    // A session that names nobody is signed out: the anonymous copy (tests/pages/personal-pages.test.ts).
    const forged = await t.app.inject({ url: "/faq", headers: { cookie: "auth._token.local=abc" } });
    expect(forged.headers["x-page-cache"]).toBe("hit");
    await t.app.inject("/no/such/page");
    expect((await t.app.inject("/no/such/page")).headers["x-page-cache"]).toBeUndefined();
  });
});
