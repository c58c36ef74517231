/**
 * Documents by slot. A slot is a small dense integer, so every per-document structure (bitsets,
 * columns, score arrays) is an array indexed by it. Removed slots are reused; the capacity doubles
 * when full, and `grew` tells the caller to drop structures sized to the old capacity.
 */
import { type Bits, clearBit, setBit, wordsFor } from './bitset.ts';
import type { Id } from './values.ts';

export class DocStore<T> {
  docs: (T | undefined)[] = [];
  ids: Id[] = [];
  live: Bits;
  capacity: number;
  size = 0;
  /** Ids added since the last seal(), and every string id. */
  private bySlotId = new Map<Id, number>();
  /**
   * Numeric ids at the last seal() (after a bulk load), sorted, with their slots (-1 once
   * released): 12 bytes an id instead of a Map entry's ~48 (issue 15, memory per product).
   */
  private sealedIds = new Float64Array(0);
  private sealedSlots = new Int32Array(0);
  private free: number[] = [];
  private next = 0;

  constructor(capacity = 64) {
    this.capacity = Math.max(64, capacity);
    this.live = new Uint32Array(wordsFor(this.capacity));
  }

  get words(): number {
    return this.live.length;
  }

  /** Ids are matched loosely across number and numeric string (`'5'` finds 5): URLs carry strings. */
  slotOf(id: Id): number | undefined {
    const slot = this.exact(id);
    if (slot !== undefined) return slot;
    if (typeof id === 'number') return this.bySlotId.get(String(id));
    return /^-?\d+(\.\d+)?$/.test(id) ? this.exact(Number(id)) : undefined;
  }

  private exact(id: Id): number | undefined {
    const slot = this.bySlotId.get(id);
    if (slot !== undefined || typeof id !== 'number') return slot;
    const at = this.sealedAt(id);
    return at < 0 || this.sealedSlots[at] < 0 ? undefined : this.sealedSlots[at];
  }

  /** Index of a numeric id among the sealed ones, or -1. */
  private sealedAt(id: number): number {
    const ids = this.sealedIds;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] === id) return mid;
      if (ids[mid] < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Moves the numeric ids of the id map into the sorted arrays (after a bulk load). */
  seal(): void {
    const numeric: [number, number][] = [];
    for (let at = 0; at < this.sealedIds.length; at++) {
      if (this.sealedSlots[at] >= 0) numeric.push([this.sealedIds[at], this.sealedSlots[at]]);
    }
    for (const [id, slot] of this.bySlotId) if (typeof id === 'number') numeric.push([id, slot]);
    numeric.sort((a, b) => a[0] - b[0]);
    this.sealedIds = Float64Array.from(numeric, ([id]) => id);
    this.sealedSlots = Int32Array.from(numeric, ([, slot]) => slot);
    const strings = new Map<Id, number>();
    for (const [id, slot] of this.bySlotId) if (typeof id !== 'number') strings.set(id, slot);
    this.bySlotId = strings;
  }

  /** A slot for a new id; `grew` when the capacity had to double. */
  allocate(id: Id, doc: T): { slot: number; grew: boolean } {
    let grew = false;
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.next++;
      if (slot >= this.capacity) {
        this.capacity *= 2;
        const live = new Uint32Array(wordsFor(this.capacity));
        live.set(this.live);
        this.live = live;
        grew = true;
      }
    }
    this.docs[slot] = doc;
    this.ids[slot] = id;
    this.bySlotId.set(id, slot);
    setBit(this.live, slot);
    this.size++;
    return { slot, grew };
  }

  release(slot: number): void {
    const id = this.ids[slot];
    if (!this.bySlotId.delete(id) && typeof id === 'number') {
      const at = this.sealedAt(id);
      if (at >= 0) this.sealedSlots[at] = -1;
    }
    this.docs[slot] = undefined;
    clearBit(this.live, slot);
    this.free.push(slot);
    this.size--;
  }
}
