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
  it("serves a copy with the new nonce, lets one caller refresh an expired page while others get the copy", async () => {
    vi.useFakeTimers();
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("/", page('<script nonce="OLD"></script>'));
    expect((await cache.get("/", "NEW1"))?.body).toBe('<script nonce="NEW1"></script>');
    vi.advanceTimersByTime(1500);
    expect(await cache.get("/", "A")).toBeUndefined(); // the refresher
    expect((await cache.get("/", "B"))?.body).toBe('<script nonce="B"></script>'); // others meanwhile
    cache.offer("/", page("fresh", ""));
    expect((await cache.get("/", "C"))?.body).toBe("fresh");
    vi.advanceTimersByTime(3500);
    expect(await cache.get("/", "D")).toBeUndefined(); // too old even for the grace period
  });

  it("keeps only answers that are the same for everyone", async () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("/a", { ...page("x"), headers: [["set-cookie", "s=1"]] });
    cache.offer("/b", { ...page("x"), status: 404 });
    cache.offer("/c", { ...page("x"), headers: [["cache-control", "private"]] });
    expect([await cache.get("/a", "n"), await cache.get("/b", "n"), await cache.get("/c", "n")]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(cache.eligible("GET", {})).toBe(true);
    expect(cache.eligible("POST", {})).toBe(false);
    expect(cache.eligible("GET", { cookie: "a=b" })).toBe(false);
    expect(createPageCache({ ttlMs: 0, maxEntries: 1 }).eligible("GET", {})).toBe(false);
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
    a.offer("/", page('<p nonce="OLD">home</p>'));
    expect((await b.get("/", "B"))?.body).toBe('<p nonce="B">home</p>');
    generation++; // a catalogue edit on either instance
    expect(await b.get("/", "B2")).toBeUndefined();
    expect(await a.get("/", "A2")).toBeUndefined();
  });
});
