// Anonymous pages are reused for a few seconds; personal ones never are, and
// every response keeps its own CSP nonce. Expiry makes no visitor wait.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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

describe("an expired page", () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await createTestApp({
      seed: { networks: 2, offers: 10, trafficSources: 1 },
      env: { PAGE_CACHE_SECONDS: "2" },
    });
  });
  afterAll(() => short?.close());

  it("is answered from its copy while the first request past expiry has it rendered again behind the answer", async () => {
    const page = () => short.app.inject("/traffic-sources");
    const rendered = await page();
    expect(rendered.headers["x-page-cache"]).toBeUndefined();
    await sleep(2100);
    const stale = await page();
    expect(stale.headers["x-page-cache"]).toBe("stale");
    const [n1, n2] = [rendered, stale].map((res) => nonceOf(res.headers["content-security-policy"])!);
    expect(stale.body).toContain(`nonce="${n2}"`);
    expect(stale.body.replaceAll(n2, "N")).toBe(rendered.body.replaceAll(n1, "N"));
    // The copy rendered behind that answer lands: fresh again, with each answer's own nonce.
    await vi.waitFor(async () => expect((await page()).headers["x-page-cache"]).toBe("hit"), { timeout: 1500 });
    const fresh = await page();
    const n3 = nonceOf(fresh.headers["content-security-policy"])!;
    expect(fresh.body).toContain(`nonce="${n3}"`);
    expect(fresh.body).not.toContain(n1);
    expect(fresh.body).toContain("<title>Traffic sources for affiliates | OfferAtlas</title>");
  });

  it("keeps answering from its copy while the database is gone, instead of an error", async () => {
    const broken = await createTestApp({
      seed: { networks: 2, offers: 10, trafficSources: 1 },
      env: { PAGE_CACHE_SECONDS: "2" },
    });
    try {
      const [offer] = (await broken.app.inject({ method: "POST", url: "/api/offers/search", payload: {} })).json<{
        offers: { id: number; slug: string; name: string }[];
      }>().offers;
      const page = () => broken.app.inject(`/offer/${offer.id}/${offer.slug}`);
      expect((await page()).statusCode).toBe(200);
      await broken.db.close();
      await sleep(2100);
      const stale = await page();
      expect([stale.statusCode, stale.headers["x-page-cache"]]).toEqual([200, "stale"]);
      // The render behind it failed; the copy stays for its grace period.
      await sleep(500);
      const still = await page();
      expect([still.statusCode, still.headers["x-page-cache"]]).toEqual([200, "stale"]);
      expect(still.body).toContain(offer.name);
    } finally {
      await broken.close();
    }
  });
});
