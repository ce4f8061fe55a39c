// The one cache: lru-cache with a time to live and a size bound. Concurrent
// callers of one key share one load, and a failed load is not remembered. With
// `staleMs`, an answer past its time to live is still given for that long while
// one background load replaces it, so expiry never makes a caller wait for a
// full recompute. With a shared store (Redis), every instance reads the copies
// the others made; without one, each keeps its own. It holds copies of public
// answers only (docs/decisions/0002-lru-cache-for-in-process-caches.md, 0028).
import { LRUCache } from "lru-cache";

export type Cache<V> = {
  /** The cached answer for `key`, or the result of `load` (concurrent callers share one load). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** The answer cached here under `key`, fresh or stale, without loading (undefined: none yet). */
  peek(key: string): V | undefined;
  clear(): void;
  readonly size: number;
};

/** Copies every instance reads and writes, as JSON with the time they were made. Never throws. */
export type SharedStore = {
  /** The copy under `key`, or undefined (none, or the store is away). */
  get(key: string): Promise<{ value: unknown; storedAt: number } | undefined>;
  /** Keeps `value` for `ttlMs`; a write that fails is dropped (the next miss loads again). */
  set(key: string, value: unknown, ttlMs: number): void;
};

export type CacheOptions = {
  ttlMs: number;
  max: number;
  /** How long past `ttlMs` an answer is still given while it is reloaded (0: never). */
  staleMs?: number;
  /** Copies shared with the other instances, under `name`. */
  shared?: { store: SharedStore; name: string };
};

/** A cache of `max` entries for `ttlMs` each; a TTL of 0 turns it off (every call loads). */
export function createCache<V extends NonNullable<unknown>>(options: CacheOptions): Cache<V> {
  const { ttlMs, staleMs = 0, shared } = options;
  if (ttlMs <= 0) return { get: (_key, load) => load(), peek: () => undefined, clear() {}, size: 0 };
  const lifeMs = ttlMs + staleMs;
  const entries = new LRUCache<string, V, () => Promise<V>>({
    max: options.max,
    // lru-cache forgets an entry once even a stale answer would be too old; which
    // entries are stale (reloaded in the background) is judged in get() below.
    ttl: lifeMs,
    fetchMethod: async (key, stale, { options: entry, context: load }) => {
      if (!shared) return load();
      const sharedKey = `${shared.name}:${key}`;
      const copy = await shared.store.get(sharedKey);
      const age = copy ? Date.now() - copy.storedAt : Infinity;
      // Another instance's copy, fresh, or stale but better than waiting (not when replacing a stale one).
      if (age < ttlMs || (age < lifeMs && stale === undefined)) {
        entry.ttl = Math.max(1, lifeMs - age); // it ages here as it ages there
        return copy!.value as V;
      }
      const value = await load();
      shared.store.set(sharedKey, value, lifeMs);
      return value;
    },
    // A load whose entry is evicted (or cleared) meanwhile still answers its callers.
    ignoreFetchAbort: true,
    // A stale answer whose background load fails stays (until lifeMs); the next caller tries again.
    noDeleteOnFetchRejection: true,
  });
  return {
    get(key, load) {
      const remaining = entries.getRemainingTTL(key);
      const stale = remaining > 0 && remaining <= staleMs;
      // forceRefresh with allowStale: the old answer now, one load in the background.
      return entries.fetch(key, { context: load, forceRefresh: stale, allowStale: stale }) as Promise<V>;
    },
    peek: (key) => entries.peek(key),
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}

/** One cached value (a list that changes only when data is imported). */
export function cachedValue<V extends NonNullable<unknown>>(ttlMs: number, load: () => Promise<V>) {
  const cache = createCache<V>({ ttlMs, max: 1 });
  const value = () => cache.get("", load);
  value.clear = () => cache.clear();
  return value;
}
