/**
 * The seed tool's random numbers: a small deterministic generator (the same seed gives the same
 * installation) with the skewed and weighted picks real trackers' data needs.
 */

/** mulberry32: small, fast, deterministic. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    /** Zipf-like: low indexes much more often. */
    skewed: <T>(items: readonly T[], power = 1.6) =>
      items[Math.min(items.length - 1, Math.floor(items.length * next() ** power))],
    weighted: <T>(entries: ReadonlyArray<[T, number]>) => {
      let roll = next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return entries[entries.length - 1][0];
    },
  };
}

export type Random = ReturnType<typeof random>;
