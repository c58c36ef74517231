/**
 * The polling loop of the workers that drain a table (the outbox consumers, the message sender, the
 * back-in-stock planner): a pass every `pollMs`, and at once when woken (this node or another wrote
 * rows). One loop, so the three cannot drift apart:
 *  - never two passes at once: a wake during a pass runs another pass right after it (the rows it
 *    announces may have been committed after the pass read its batch);
 *  - inside a pass, `turn.more(full)` after each batch says whether to read another one: the batch
 *    was full (more may wait) or a wake came meanwhile; never once stop() was called;
 *  - `drain()` awaits the pass in flight, then runs one and resolves with its count (tests, and
 *    callers that need the work done now; the loop need not be started);
 *  - a pass that throws is reported to `onError` and counts 0; the next poll tries again;
 *  - `stop()` ends the loop (no timer left behind) and awaits the pass in flight. The timer never
 *    keeps the process alive on its own.
 * Jobs on a fixed interval that skip a turn while running are ./every.ts.
 */

/** What a pass sees of its loop. */
export interface PollTurn {
  /** stop() was called: return soon (the caller awaits this pass). */
  readonly stopped: boolean;
  /** After a batch: whether to read another (a full batch, or a wake since the last batch began). */
  more(full: boolean): boolean;
}

export interface PollLoopOptions {
  /** One pass over what is due (batch after batch while `turn.more(…)`); resolves with how many rows it handled. */
  pass: (turn: PollTurn) => Promise<number>;
  pollMs: number;
  onError?: (err: unknown) => void;
  /** Wake on each kick (`app.outbox`: this node's commits and other nodes' through Redis), from start() to stop(). */
  wakeOn?: { onKick(listener: () => void): () => void } | null;
}

export interface PollLoop {
  /** Start polling and listening for kicks (idempotent). */
  start(): void;
  /** Run a pass now (after new rows were written); during a pass, one more right after it. */
  wake(): void;
  /** Await the pass in flight, then run one; resolves with how many rows this call's passes handled. */
  drain(): Promise<number>;
  /** End the loop and await the pass in flight. */
  stop(): Promise<void>;
}

export function pollLoop(options: PollLoopOptions): PollLoop {
  const { pass, pollMs } = options;
  let started = false;
  let stopped = false;
  /** A wake came during the pass in flight (since its last batch began). */
  let woken = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<number> | null = null;
  let unsubscribe: (() => void) | null = null;

  const turn: PollTurn = {
    get stopped() {
      return stopped;
    },
    more(full) {
      if (stopped) return false;
      const go = full || woken;
      woken = false;
      return go;
    },
  };

  function clearTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  /** One pass; afterwards the next is scheduled (at once when woken meanwhile). */
  function launch(): Promise<number> {
    woken = false;
    // The pass starts a microtask later, so `inFlight` is set before any of its code runs.
    const p = Promise.resolve()
      .then(() => pass(turn))
      .catch((err: unknown) => {
        options.onError?.(err);
        return 0;
      })
      .finally(() => {
        inFlight = null;
        if (stopped || !started) return;
        if (woken) return run();
        timer = setTimeout(run, pollMs);
        timer.unref();
      });
    inFlight = p;
    return p;
  }

  function run(): void {
    clearTimer();
    if (stopped) return;
    if (inFlight) {
      woken = true;
      return;
    }
    void launch();
  }

  const loop: PollLoop = {
    start() {
      if (started || stopped) return false;
      started = true;
      unsubscribe = options.wakeOn?.onKick(() => loop.wake()) ?? null;
      run();
      return true;
    },
    wake() {
      if (!started || stopped) return;
      run();
    },
    async drain() {
      let total = 0;
      while (inFlight) total += await inFlight;
      clearTimer();
      return total + (await launch());
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      unsubscribe = null;
      clearTimer();
      while (inFlight) await inFlight.catch(() => undefined);
    },
  };
  return loop;
}
