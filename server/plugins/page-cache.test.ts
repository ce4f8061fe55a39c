import { afterEach, describe, expect, it, vi } from "vitest";
import type { SharedStore } from "#core/cache/cache.ts";
import { createPageCache } from "./page-cache.ts";

afterEach(() => vi.useRealTimers());

const page = (body: string, nonce = "OLD") => ({
  status: 200,
  headers: [["content-type", "text/html"]] as [string, string][],
  body,
  nonce,
});

describe("page cache", () => {
  it("serves a copy with the new nonce; once expired, serves it still and asks one caller to render it again", async () => {
    vi.useFakeTimers();
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("anonymous", "/", page('<script nonce="OLD"></script>'));
    expect(await cache.get("anonymous", "/", "NEW1")).toMatchObject({
      body: '<script nonce="NEW1"></script>',
      stale: false,
      refresh: false,
    });
    vi.advanceTimersByTime(1500);
    // The first caller past expiry gets the copy and renders the page behind it; the others get the copy.
    expect(await cache.get("anonymous", "/", "A")).toMatchObject({
      body: '<script nonce="A"></script>',
      stale: true,
      refresh: true,
    });
    expect(await cache.get("anonymous", "/", "B")).toMatchObject({
      body: '<script nonce="B"></script>',
      stale: true,
      refresh: false,
    });
    cache.offer("anonymous", "/", page("fresh", ""));
    expect(await cache.get("anonymous", "/", "C")).toMatchObject({ body: "fresh", stale: false, refresh: false });
    vi.advanceTimersByTime(1000);
    expect((await cache.get("anonymous", "/", "D"))?.refresh).toBe(true);
    // That render never came back: a page's lifetime later, another caller is asked.
    vi.advanceTimersByTime(999);
    expect(await cache.get("anonymous", "/", "E")).toMatchObject({ stale: true, refresh: false });
    vi.advanceTimersByTime(1);
    expect((await cache.get("anonymous", "/", "F"))?.refresh).toBe(true);
    vi.advanceTimersByTime(1500);
    expect(await cache.get("anonymous", "/", "G")).toBeUndefined(); // too old even for the grace period
  });

  it("keeps only answers that are the same for everyone", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("anonymous", "/a", { ...page("x"), headers: [["set-cookie", "s=1"]] });
    cache.offer("anonymous", "/b", { ...page("x"), status: 404 });
    cache.offer("anonymous", "/c", { ...page("x"), headers: [["cache-control", "private"]] });
    expect([
      await cache.get("anonymous", "/a", "n"),
      await cache.get("anonymous", "/b", "n"),
      await cache.get("anonymous", "/c", "n"),
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
    expect(await cache.get("signed-in", "/", "n")).toBeUndefined();
    cache.offer("signed-in", "/", page("signed in"));
    expect((await cache.get("anonymous", "/", "n"))?.body).toBe("signed out");
    expect((await cache.get("signed-in", "/", "n"))?.body).toBe("signed in");
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
    a.offer("anonymous", "/", page('<p nonce="OLD">home</p>'));
    expect((await b.get("anonymous", "/", "B"))?.body).toBe('<p nonce="B">home</p>');
    generation++; // a catalogue edit on either instance
    expect(await b.get("anonymous", "/", "B2")).toBeUndefined();
    expect(await a.get("anonymous", "/", "A2")).toBeUndefined();
  });
});
