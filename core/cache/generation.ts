// The catalogue's generation: a number bumped by every catalogue edit. Cached
// answers are keyed by it and its listeners forget what they hold, so no copy
// made before an edit is given after it. Per process here; with REDIS_URL one
// number for every instance (core/cache/redis.ts).
export type Generation = {
  current(): number;
  /** A catalogue edit here: a new generation, the listeners run. */
  bump(): void;
  /** A newer generation learnt from elsewhere (another instance's edit): the listeners run. */
  advanceTo(n: number): void;
  /** Runs `listener` on every new generation. */
  onChange(listener: () => void): void;
};

export function localGeneration(): Generation {
  let value = 0;
  const listeners: (() => void)[] = [];
  const advanceTo = (n: number) => {
    if (n <= value) return;
    value = n;
    for (const listener of listeners) listener();
  };
  return {
    current: () => value,
    bump: () => advanceTo(value + 1),
    advanceTo,
    onChange: (listener) => void listeners.push(listener),
  };
}
