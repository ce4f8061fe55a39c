// The one in-process cache: lru-cache with a time to live and a size bound.
// Concurrent callers of one key share one load, and a failed load is not
// remembered. It holds copies of public answers only, never state: with several
// instances each keeps its own, and entries simply age out
// (docs/decisions/0002-lru-cache-for-in-process-caches.md).
import { LRUCache } from "lru-cache";

export type Cache<V> = {
  /** The cached answer for `key`, or the result of `load` (concurrent callers share one load). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  clear(): void;
  readonly size: number;
};

/** A cache of `max` entries for `ttlMs` each; a TTL of 0 turns it off (every call loads). */
export function createCache<V extends NonNullable<unknown>>(options: { ttlMs: number; max: number }): Cache<V> {
  if (options.ttlMs <= 0) return { get: (_key, load) => load(), clear() {}, size: 0 };
  const entries = new LRUCache<string, V, () => Promise<V>>({
    max: options.max,
    ttl: options.ttlMs,
    fetchMethod: (_key, _stale, { context }) => context(),
    // A load whose entry is evicted (or cleared) meanwhile still answers its callers.
    ignoreFetchAbort: true,
  });
  return {
    get: (key, load) => entries.fetch(key, { context: load }) as Promise<V>,
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
