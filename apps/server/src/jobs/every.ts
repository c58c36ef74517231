/**
 * A job this node runs every `intervalMs` (the order sweep, the loyalty expiry, the delivery records'
 * retention purge): never two runs at once (a run still going when the next is due skips that turn),
 * a failed run logged and tried again at the next turn, the timer never keeping the process alive,
 * and, when the app closes, the timer stopped and a run in flight awaited (so the database does not
 * close under it). Jobs that several nodes run at once must be safe to run twice (each says how).
 */
import type { FastifyInstance } from 'fastify';

export interface RepeatingJob {
  /** Stop the timer and wait for a run in flight. */
  stop(): Promise<void>;
}

export function every<T>(app: FastifyInstance, intervalMs: number, what: string, run: () => Promise<T>, after?: (result: T) => void): RepeatingJob {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .then((result) => after?.(result))
      .catch((err) => app.log.warn({ err }, `${what} failed`))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  const job: RepeatingJob = {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
  app.addHook('onClose', () => job.stop());
  return job;
}
