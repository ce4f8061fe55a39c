import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { cachedValue, createCache } from "./cache.ts";

describe("cache", () => {
  it("answers repeated keys from memory until the entry ages out", async () => {
    const cache = createCache<number>({ ttlMs: 50, max: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("a", load)).toBe(1);
    expect(await cache.get("a", load)).toBe(1);
    await sleep(80);
    expect(await cache.get("a", load)).toBe(2);
  });

  it("shares one load between concurrent callers and forgets failures", async () => {
    const cache = createCache<number>({ ttlMs: 1000, max: 10 });
    let loads = 0;
    const [a, b] = await Promise.all([cache.get("k", async () => ++loads), cache.get("k", async () => ++loads)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    await expect(cache.get("bad", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await cache.get("bad", async () => 7)).toBe(7);
  });

  it("drops the least recently used entry beyond its size", async () => {
    const cache = createCache<string>({ ttlMs: 60_000, max: 2 });
    await cache.get("a", async () => "a");
    await cache.get("b", async () => "b");
    await cache.get("a", async () => "a2"); // touch a
    await cache.get("c", async () => "c"); // evicts b
    expect(cache.size).toBe(2);
    expect(await cache.get("b", async () => "b2")).toBe("b2");
    expect(await cache.get("c", async () => "c2")).toBe("c");
  });

  it("answers the callers of a load whose entry was evicted or cleared meanwhile", async () => {
    const cache = createCache<string>({ ttlMs: 60_000, max: 1 });
    let finish: (v: string) => void = () => {};
    const slow = cache.get("a", () => new Promise<string>((resolve) => (finish = resolve)));
    await cache.get("b", async () => "b"); // evicts a while it loads
    cache.clear();
    finish("a");
    expect(await slow).toBe("a");
  });

  it("with a time to live of 0 loads every time", async () => {
    const cache = createCache<number>({ ttlMs: 0, max: 10 });
    let loads = 0;
    await cache.get("a", async () => ++loads);
    expect(await cache.get("a", async () => ++loads)).toBe(2);
  });

  it("holds one value until cleared", async () => {
    let loads = 0;
    const value = cachedValue(60_000, async () => ++loads);
    expect([await value(), await value()]).toEqual([1, 1]);
    value.clear();
    expect(await value()).toBe(2);
  });
});
