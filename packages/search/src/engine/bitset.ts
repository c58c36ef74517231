/**
 * Fixed-size bitsets over document slots. Every filter, the text match and every aggregation mask
 * is one of these, so ANDing eight filters over 10,000 documents is ~2,500 word operations instead
 * of 80,000 predicate calls.
 */
export type Bits = Uint32Array;

export function wordsFor(capacity: number): number {
  return Math.max(1, Math.ceil(capacity / 32));
}

export function setBit(bits: Bits, slot: number): void {
  bits[slot >>> 5] |= 1 << (slot & 31);
}

export function clearBit(bits: Bits, slot: number): void {
  bits[slot >>> 5] &= ~(1 << (slot & 31));
}

export function hasBit(bits: Bits, slot: number): boolean {
  return (bits[slot >>> 5] & (1 << (slot & 31))) !== 0;
}

export function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function count(bits: Bits): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) n += popcount32(bits[i]);
  return n;
}

/** |a ∧ b| without allocating. */
export function andCount(a: Bits, b: Bits): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const w = a[i] & b[i];
    if (w !== 0) n += popcount32(w);
  }
  return n;
}

export function andInto(target: Bits, other: Bits): Bits {
  for (let i = 0; i < target.length; i++) target[i] &= other[i];
  return target;
}

export function orInto(target: Bits, other: Bits): Bits {
  for (let i = 0; i < target.length; i++) target[i] |= other[i];
  return target;
}

/** Calls `fn` for every set bit, in ascending slot order. */
export function forEachBit(bits: Bits, fn: (slot: number) => void): void {
  for (let i = 0; i < bits.length; i++) {
    let w = bits[i];
    while (w !== 0) {
      const low = w & -w;
      fn((i << 5) + (31 - Math.clz32(low)));
      w ^= low;
    }
  }
}

export function slotsOf(bits: Bits): number[] {
  const out: number[] = [];
  forEachBit(bits, (s) => out.push(s));
  return out;
}
