import crypto from "node:crypto";
import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SharedStore } from "#core/cache/cache.ts";
import { createPageCache, withoutNonce } from "./page-cache.ts";

afterEach(() => vi.useRealTimers());

const page = (body: string, nonce = "OLD") => ({
  status: 200,
  headers: [["content-type", "text/html"]] as [string, string][],
  body,
  nonce,
});

const text = (hit: { body: Buffer } | undefined) => hit?.body.toString();
const sha256 = (script: string) => `'sha256-${crypto.createHash("sha256").update(script).digest("base64")}'`;

describe("a page without its nonce", () => {
  it("allows by hash exactly the scripts that carried the nonce, as they read without it", () => {
    const body = [
      '<script nonce="N0NCE">a()</script>',
      '<script type="text/plain" id="later" nonce="N0NCE">import "/x.js";</script>',
      '<script nonce="N0NCE">ctx = {"nonce":"N0NCE"}</script>',
      '<script src="/assets/e.js" nonce="N0NCE"></script>',
      '<link rel="stylesheet" href="/a.css" nonce="N0NCE"/>',
      '<p>&lt;script&gt;</p><script>injected()</script><script nonce="other">injected()</script>',
    ].join("");
    const { html, scriptHashes } = withoutNonce(body, "N0NCE");
    expect(html).not.toContain("N0NCE");
    expect(html).toContain('<script>ctx = {"nonce":""}</script>');
    expect(html).toContain('<link rel="stylesheet" href="/a.css"/>');
    // The page's own three inline scripts; never one it did not render with the nonce, nor an external one.
    expect(scriptHashes).toEqual([sha256("a()"), sha256('import "/x.js";'), sha256('ctx = {"nonce":""}')]);
    expect(scriptHashes).not.toContain(sha256("injected()"));
  });
});

describe("page cache", () => {
  it("keeps an answer that says it never changes (the route manifest) past a page's lifetime, never rendering it again", async () => {
    vi.useFakeTimers();
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    const manifest = {
      status: 200,
      headers: [
        ["content-type", "application/json"],
        ["cache-control", "public, max-age=31536000, immutable"],
      ] as [string, string][],
      body: '{"patches":{}}',
      nonce: "",
    };
    cache.offer("anonymous", "/__manifest?paths=%2Ffaq&version=abc", manifest);
    cache.offer("anonymous", "/faq", page("faq"));
    vi.advanceTimersByTime(60 * 60_000);
    expect(await cache.get("anonymous", "/__manifest?paths=%2Ffaq&version=abc")).toMatchObject({
      body: Buffer.from('{"patches":{}}'),
      stale: false,
      refresh: false,
    });
    // A page expires as before, and is gone after its grace period.
    expect(await cache.get("anonymous", "/faq")).toBeUndefined();
  });

  it("serves one copy, the same bytes for all; once expired, serves it still and asks one caller to render it again", async () => {
    vi.useFakeTimers();
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("anonymous", "/", page('<script nonce="OLD">go()</script>'));
    expect(await cache.get("anonymous", "/")).toMatchObject({
      body: Buffer.from("<script>go()</script>"),
      scriptHashes: [sha256("go()")],
      stale: false,
      refresh: false,
    });
    vi.advanceTimersByTime(1500);
    // The first caller past expiry gets the copy and renders the page behind it; the others get the copy.
    expect(await cache.get("anonymous", "/")).toMatchObject({ stale: true, refresh: true });
    expect(await cache.get("anonymous", "/")).toMatchObject({
      body: Buffer.from("<script>go()</script>"),
      stale: true,
      refresh: false,
    });
    cache.offer("anonymous", "/", page("fresh", ""));
    expect(await cache.get("anonymous", "/")).toMatchObject({
      body: Buffer.from("fresh"),
      stale: false,
      refresh: false,
    });
    vi.advanceTimersByTime(1000);
    expect((await cache.get("anonymous", "/"))?.refresh).toBe(true);
    // That render never came back: a page's lifetime later, another caller is asked.
    vi.advanceTimersByTime(999);
    expect(await cache.get("anonymous", "/")).toMatchObject({ stale: true, refresh: false });
    vi.advanceTimersByTime(1);
    expect((await cache.get("anonymous", "/"))?.refresh).toBe(true);
    vi.advanceTimersByTime(1500);
    expect(await cache.get("anonymous", "/")).toBeUndefined(); // too old even for the grace period
  });

  it("compresses a copy once, in brotli and gzip, to the same bytes", async () => {
    const cache = createPageCache({ ttlMs: 60_000, maxEntries: 10 });
    const body = `<main>${"offers ".repeat(5000)}</main>`;
    cache.offer("anonymous", "/", page(body, ""));
    const hit = await vi.waitFor(async () => {
      const copy = await cache.get("anonymous", "/");
      expect(Object.keys(copy!.encoded).sort()).toEqual(["br", "gzip"]);
      return copy!;
    });
    expect(zlib.brotliDecompressSync(hit.encoded.br!).toString()).toBe(body);
    expect(zlib.gunzipSync(hit.encoded.gzip!).toString()).toBe(body);
    expect(hit.encoded.br!.length).toBeLessThan(body.length / 20);
    // Every later answer gets those very buffers: nothing is compressed again.
    expect((await cache.get("anonymous", "/"))!.encoded.br).toBe(hit.encoded.br);
  });

  it("keeps only answers that are the same for everyone", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("anonymous", "/a", { ...page("x"), headers: [["set-cookie", "s=1"]] });
    cache.offer("anonymous", "/b", { ...page("x"), status: 404 });
    cache.offer("anonymous", "/c", { ...page("x"), headers: [["cache-control", "private"]] });
    expect([
      await cache.get("anonymous", "/a"),
      await cache.get("anonymous", "/b"),
      await cache.get("anonymous", "/c"),
    ]).toEqual([undefined, undefined, undefined]);
    expect(cache.eligible("GET", {}, {})).toBe(true);
    expect(cache.eligible("POST", {}, {})).toBe(false);
    expect(cache.eligible("GET", { authorization: "Bearer x" }, {})).toBe(false);
    expect(createPageCache({ ttlMs: 0, maxEntries: 1 }).eligible("GET", {}, {})).toBe(false);
  });

  it("serves from a copy only with the cookies a view is judged by, and keeps the views apart", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    expect(cache.eligible("GET", { cookie: "x" }, { "auth._token.local": "t", oa_js: "1" })).toBe(true);
    // Any other cookie may change the page (the consent answer): rendered for its visitor.
    expect(cache.eligible("GET", { cookie: "x" }, { "auth._token.local": "t", oa_consent: "all" })).toBe(false);
    cache.offer("anonymous", "/", page("signed out"));
    expect(await cache.get("signed-in", "/")).toBeUndefined();
    cache.offer("signed-in", "/", page("signed in"));
    expect(text(await cache.get("anonymous", "/"))).toBe("signed out");
    expect(text(await cache.get("signed-in", "/"))).toBe("signed in");
  });

  it("with a shared store, reuses another instance's copy of the same generation only", async () => {
    const copies = new Map<string, { value: unknown; storedAt: number }>();
    const shared: SharedStore = {
      get: async (key) => copies.get(key),
      set: (key, value) => void copies.set(key, { value, storedAt: Date.now() }),
    };
    let generation = 0;
    const [a, b] = [1, 2].map(() =>
      createPageCache({ ttlMs: 1000, maxEntries: 10, shared, generation: () => generation }),
    );
    a.offer("anonymous", "/", page('<script nonce="OLD">home()</script>'));
    expect(await b.get("anonymous", "/")).toMatchObject({
      body: Buffer.from("<script>home()</script>"),
      scriptHashes: [sha256("home()")],
    });
    generation++; // a catalogue edit on either instance
    expect(await b.get("anonymous", "/")).toBeUndefined();
    expect(await a.get("anonymous", "/")).toBeUndefined();
  });
});
