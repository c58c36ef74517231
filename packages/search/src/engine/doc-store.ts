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
  private bySlotId = new Map<Id, number>();
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
    const slot = this.bySlotId.get(id);
    if (slot !== undefined) return slot;
    if (typeof id === 'number') return this.bySlotId.get(String(id));
    return /^-?\d+(\.\d+)?$/.test(id) ? this.bySlotId.get(Number(id)) : undefined;
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
    this.bySlotId.delete(this.ids[slot]);
    this.docs[slot] = undefined;
    clearBit(this.live, slot);
    this.free.push(slot);
    this.size--;
  }
}
