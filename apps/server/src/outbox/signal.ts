/**
 * "Something was written to the outbox": lets the consumers (console push, messages, webhooks)
 * start at once after a commit instead of at their next poll. `kick()` wakes this node's
 * consumers and, once the dispatcher set a relay, the other nodes' too (Redis publish);
 * `kickLocal()` is what a kick heard from another node does here (no echo). A missed kick only
 * delays: every consumer also polls.
 */
export interface OutboxSignal {
  /** Call after committing a transaction that wrote outbox events. */
  kick(): void;
  kickLocal(): void;
  onKick(listener: () => void): () => void;
  /** How a kick reaches the other nodes (set by the dispatcher when REDIS_URL is set). */
  setRelay(relay: (() => void) | null): void;
}

export function createOutboxSignal(onError?: (err: unknown) => void): OutboxSignal {
  const listeners = new Set<() => void>();
  let relay: (() => void) | null = null;
  const signal: OutboxSignal = {
    kickLocal() {
      for (const l of listeners) {
        try {
          l();
        } catch (err) {
          // One consumer's failure must not stop the others.
          onError?.(err);
        }
      }
    },
    kick() {
      signal.kickLocal();
      relay?.();
    },
    onKick(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setRelay(next) {
      relay = next;
    },
  };
  return signal;
}
