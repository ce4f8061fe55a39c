import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { cachedValue, createCache, type SharedStore } from "./cache.ts";

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

  it("past its time to live gives the previous answer while one background load replaces it", async () => {
    const cache = createCache<number>({ ttlMs: 40, staleMs: 5000, max: 10 });
    expect(await cache.get("a", async () => 1)).toBe(1);
    await sleep(60);
    let loads = 0;
    let finish: (v: number) => void = () => {};
    const reload = () => (loads++, new Promise<number>((resolve) => (finish = resolve)));
    // Nobody waits for the reload: both get the stale answer at once, and only one reload runs.
    expect(await Promise.all([cache.get("a", reload), cache.get("a", reload)])).toEqual([1, 1]);
    expect(loads).toBe(1);
    finish(2);
    await sleep(1);
    expect(await cache.get("a", reload)).toBe(2);
    expect(loads).toBe(1);
  });

  it("waits for a new answer once the old one is too stale to give", async () => {
    const cache = createCache<number>({ ttlMs: 20, staleMs: 20, max: 10 });
    await cache.get("a", async () => 1);
    await sleep(60);
    expect(await cache.get("a", async () => 2)).toBe(2);
  });

  it("keeps giving the stale answer when its reload fails, and tries again on the next call", async () => {
    const cache = createCache<number>({ ttlMs: 20, staleMs: 5000, max: 10 });
    await cache.get("a", async () => 1);
    await sleep(40);
    expect(await cache.get("a", async () => Promise.reject(new Error("db down")))).toBe(1);
    await sleep(1);
    let loads = 0;
    expect(await cache.get("a", async () => ++loads + 1)).toBe(1); // still stale: one more reload started
    await sleep(1);
    expect([await cache.get("a", async () => 99), loads]).toEqual([2, 1]);
  });

  describe("with a shared store", () => {
    const memoryStore = () => {
      const copies = new Map<string, { value: unknown; storedAt: number }>();
      const store: SharedStore = {
        get: async (key) => copies.get(key),
        set: (key, value) => void copies.set(key, { value: JSON.parse(JSON.stringify(value)), storedAt: Date.now() }),
      };
      return { store, copies };
    };

    it("answers from another instance's copy instead of loading again", async () => {
      const { store } = memoryStore();
      const [a, b] = [1, 2].map(() =>
        createCache<{ n: number }>({ ttlMs: 1000, max: 10, shared: { store, name: "s" } }),
      );
      let loads = 0;
      const load = async () => ({ n: ++loads });
      expect(await a.get("k", load)).toEqual({ n: 1 });
      expect(await b.get("k", load)).toEqual({ n: 1 });
      expect(loads).toBe(1);
    });

    it("gives a stale shared copy at once and replaces it in the background", async () => {
      const { store, copies } = memoryStore();
      copies.set("s:k", { value: "old", storedAt: Date.now() - 1500 });
      const cache = createCache<string>({ ttlMs: 1000, staleMs: 5000, max: 10, shared: { store, name: "s" } });
      let loads = 0;
      expect(await cache.get("k", async () => (loads++, "new"))).toBe("old");
      expect(loads).toBe(0);
      expect(await cache.get("k", async () => (loads++, "new"))).toBe("old"); // stale here too: reloads now
      await sleep(1);
      expect([await cache.get("k", async () => "later"), loads, copies.get("s:k")?.value]).toEqual(["new", 1, "new"]);
    });

    it("loads when the store has nothing to give (away, or the copy is too old)", async () => {
      const away: SharedStore = { get: async () => undefined, set: () => {} };
      const cache = createCache<string>({ ttlMs: 1000, max: 10, shared: { store: away, name: "s" } });
      expect(await cache.get("k", async () => "computed")).toBe("computed");
      const { store, copies } = memoryStore();
      copies.set("s:k", { value: "ancient", storedAt: Date.now() - 10_000 });
      const fresh = createCache<string>({ ttlMs: 1000, staleMs: 1000, max: 10, shared: { store, name: "s" } });
      expect(await fresh.get("k", async () => "computed")).toBe("computed");
    });
  });
});
