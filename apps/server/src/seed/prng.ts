/**
 * Seeded randomness for the demo generator. Every stream is derived from a string key
 * (`store:3:prices`) so that adding a draw in one concern (say, stock) never shifts the values of
 * another (prices): the demo data stays stable while the generator evolves.
 */

/** FNV-1a 32-bit hash of the parts joined by ':'. */
export function hashSeed(...parts: (string | number)[]): number {
  const text = parts.join(':');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny, fast 32-bit PRNG with good enough distribution for demo data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Float in [min, max) rounded to `decimals`. */
  float(min: number, max: number, decimals?: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct items in random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

export function createRng(...key: (string | number)[]): Rng {
  const next = mulberry32(hashSeed(...key));
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const rng: Rng = {
    next,
    int,
    float(min, max, decimals = 2) {
      const f = 10 ** decimals;
      return Math.round((min + next() * (max - min)) * f) / f;
    },
    chance: (p) => next() < p,
    pick(items) {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)];
    },
    shuffle(items) {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    sample(items, count) {
      return rng.shuffle(items).slice(0, Math.max(0, count));
    },
  };
  return rng;
}
