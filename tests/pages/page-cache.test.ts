// Anonymous pages are reused for a few seconds; personal ones never are. A reused
// copy is the same bytes for everyone, compressed once, its scripts allowed by their
// hashes instead of a nonce everyone could read. Expiry makes no visitor wait.
import crypto from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: { networks: 6, offers: 120, trafficSources: 2 }, env: { PAGE_CACHE_SECONDS: "60" } });
});
afterAll(() => t?.close());

const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];
/** The page as rendered with `nonce`, less the nonce: what its copy holds. */
const withoutNonce = (body: string, nonce: string) => body.replaceAll(` nonce="${nonce}"`, "").replaceAll(nonce, "");
const scriptSources = (csp: unknown) => /script-src ([^;]*)/.exec(String(csp))![1].split(" ");
/** Each inline script of a page (not a data block's type it does not run, nor an external one). */
const inlineScripts = (body: string) =>
  [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !/\bsrc=/.test(attrs))
    .map((m) => m[2]);
const sha256 = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;

describe("page micro-cache", () => {
  it("reuses an anonymous page: the same bytes for all, each inline script allowed by its hash, compressed once", async () => {
    const first = await t.app.inject("/networks?page=1");
    const second = await t.app.inject("/networks?page=1");
    expect(first.headers["x-page-cache"]).toBeUndefined();
    expect(second.headers["x-page-cache"]).toBe("hit");
    // The copy tells browsers and shared caches what the page did: revalidate it.
    expect([first.headers["cache-control"], second.headers["cache-control"]]).toEqual(["no-cache", "no-cache"]);
    const n1 = nonceOf(first.headers["content-security-policy"]);
    expect(n1).toBeTruthy();
    // The copy carries no nonce anywhere: its inline scripts are allowed by their hashes, and only they are.
    expect(nonceOf(second.headers["content-security-policy"])).toBeUndefined();
    expect(second.body).not.toContain(n1!);
    expect(second.body).toBe(withoutNonce(first.body, n1!));
    const scripts = inlineScripts(second.body);
    expect(scripts.length).toBeGreaterThan(3);
    expect(scriptSources(second.headers["content-security-policy"]).sort()).toEqual(
      ["'self'", ...new Set(scripts.map(sha256))].sort(),
    );
    // Compressed once, as a browser asks for it: the same bytes, for every later answer too.
    await vi.waitFor(async () => {
      const br = await t.app.inject({ url: "/networks?page=1", headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-length"]).toBe(String(br.rawPayload.length));
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(second.body);
    });
    const gzip = await t.app.inject({ url: "/networks?page=1", headers: { "accept-encoding": "gzip" } });
    expect([gzip.headers["content-encoding"], gzip.headers["vary"]]).toEqual(["gzip", "accept-encoding"]);
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(second.body);
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
    const n1 = nonceOf(rendered.headers["content-security-policy"])!;
    expect(stale.body).toBe(withoutNonce(rendered.body, n1));
    // The copy rendered behind that answer lands: fresh again, rendered with a nonce of its own.
    await vi.waitFor(async () => expect((await page()).headers["x-page-cache"]).toBe("hit"), { timeout: 1500 });
    const fresh = await page();
    expect(nonceOf(fresh.headers["content-security-policy"])).toBeUndefined();
    expect(scriptSources(fresh.headers["content-security-policy"])).toEqual(
      expect.arrayContaining([...new Set(inlineScripts(fresh.body).map(sha256))]),
    );
    expect(fresh.body).toContain("<title>Traffic sources for affiliates | OfferAtlas</title>");
    // A copy rendered behind an answer keeps the page's headers too.
    expect([stale.headers["cache-control"], fresh.headers["cache-control"]]).toEqual(["no-cache", "no-cache"]);
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
