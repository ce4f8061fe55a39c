// A small in-process cache with a time to live and a size bound (least recently
// used entries go first). It holds copies of public answers only, never state:
// with several instances each keeps its own, and entries simply age out.
export function createTtlCache<V>(options: { ttlMs: number; maxEntries: number }) {
  const entries = new Map<string, { at: number; value: Promise<V> }>();
  return {
    /** The cached answer for `key`, or the result of `load` (concurrent callers share one load). */
    get(key: string, load: () => Promise<V>): Promise<V> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < options.ttlMs) {
        entries.delete(key);
        entries.set(key, hit); // most recently used last
        return hit.value;
      }
      const value = load();
      entries.set(key, { at: now, value });
      value.catch(() => entries.delete(key)); // failures are not remembered
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}
