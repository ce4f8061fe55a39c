import { afterEach, describe, expect, it, vi } from "vitest";
import { createTtlCache } from "./ttl-cache.ts";

afterEach(() => vi.useRealTimers());

describe("ttl cache", () => {
  it("answers repeated keys from memory until the entry ages out", async () => {
    vi.useFakeTimers();
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("a", load)).toBe(1);
    expect(await cache.get("a", load)).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(await cache.get("a", load)).toBe(2);
  });

  it("shares one load between concurrent callers and forgets failures", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 10 });
    let loads = 0;
    const [a, b] = await Promise.all([cache.get("k", async () => ++loads), cache.get("k", async () => ++loads)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    await expect(cache.get("bad", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await cache.get("bad", async () => 7)).toBe(7);
  });

  it("drops the least recently used entry beyond its size", async () => {
    const cache = createTtlCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    await cache.get("a", async () => "a");
    await cache.get("b", async () => "b");
    await cache.get("a", async () => "a2"); // touch a
    await cache.get("c", async () => "c"); // evicts b
    expect(cache.size).toBe(2);
    expect(await cache.get("b", async () => "b2")).toBe("b2");
    expect(await cache.get("c", async () => "c2")).toBe("c");
  });
});
