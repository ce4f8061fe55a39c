import { afterEach, describe, expect, it, vi } from "vitest";
import { createPageCache } from "./page-cache.ts";

afterEach(() => vi.useRealTimers());

const page = (body: string, nonce = "OLD") => ({
  status: 200,
  headers: [["content-type", "text/html"]] as [string, string][],
  body,
  nonce,
});

describe("page cache", () => {
  it("serves a copy with the new nonce, lets one caller refresh an expired page while others get the copy", () => {
    vi.useFakeTimers();
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("/", page('<script nonce="OLD"></script>'));
    expect(cache.get("/", "NEW1")?.body).toBe('<script nonce="NEW1"></script>');
    vi.advanceTimersByTime(1500);
    expect(cache.get("/", "A")).toBeUndefined(); // the refresher
    expect(cache.get("/", "B")?.body).toBe('<script nonce="B"></script>'); // others meanwhile
    cache.offer("/", page("fresh", ""));
    expect(cache.get("/", "C")?.body).toBe("fresh");
    vi.advanceTimersByTime(3500);
    expect(cache.get("/", "D")).toBeUndefined(); // too old even for the grace period
  });

  it("keeps only answers that are the same for everyone", () => {
    const cache = createPageCache({ ttlMs: 1000, maxEntries: 10 });
    cache.offer("/a", { ...page("x"), headers: [["set-cookie", "s=1"]] });
    cache.offer("/b", { ...page("x"), status: 404 });
    cache.offer("/c", { ...page("x"), headers: [["cache-control", "private"]] });
    expect([cache.get("/a", "n"), cache.get("/b", "n"), cache.get("/c", "n")]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(cache.eligible("GET", {})).toBe(true);
    expect(cache.eligible("POST", {})).toBe(false);
    expect(cache.eligible("GET", { cookie: "a=b" })).toBe(false);
    expect(createPageCache({ ttlMs: 0, maxEntries: 1 }).eligible("GET", {})).toBe(false);
  });
});
