/**
 * Every server operation of the cart runs through one queue (VSF #5743: `cart/load` raced the
 * login merge and quantities doubled). Within a tab, operations run one after another in the order
 * they were asked for; a failed one does not stop the next. Across tabs, each operation holds a
 * Web Lock named after the store's cart, so two tabs never talk to the server about the same cart
 * at once — the second tab waits, then reads what the first one stored before it acts.
 */

/** `navigator.locks.request` in the browser; absent (null) where Web Locks are not available. */
export type LockRequest = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

export function browserLock(): LockRequest | null {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (!locks?.request) return null;
  return <T>(name: string, fn: () => Promise<T>) => locks.request(name, () => fn()) as Promise<T>;
}

export interface SerialQueue {
  /** Run `task` after everything queued before it; resolves or rejects with its own outcome. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Resolves once nothing is queued or running. */
  idle(): Promise<void>;
  /** Operations queued or running. */
  readonly size: number;
}

export function createSerialQueue(lockName: string | null = null, lock: LockRequest | null = null): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let size = 0;
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      size++;
      const guarded = () => (lock && lockName ? lock(lockName, task) : task());
      const result = tail.then(guarded, guarded);
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      void tail.then(() => size--);
      return result;
    },
    async idle() {
      // Operations queued while waiting extend the tail: wait until it stops moving.
      let seen: Promise<unknown>;
      do {
        seen = tail;
        await seen;
      } while (seen !== tail);
    },
    get size() {
      return size;
    },
  };
}
