/**
 * SQLite WAL checkpoints off the event loop. In WAL mode a commit only appends to the WAL (no
 * fsync with synchronous = NORMAL); copying the WAL back into the database file — a checkpoint,
 * which syncs the file — happens inside whichever commit crosses `wal_autocheckpoint` pages. With
 * better-sqlite3 that commit blocks the event loop, and every request waits behind the fsync
 * (tens of milliseconds on a busy disk, a few times a second under steady cart updates).
 *
 * A worker thread with its own connection runs PASSIVE checkpoints (they never wait for readers
 * or writers, and never make them wait) every `intervalMs` instead. The serving connection keeps a
 * much higher `wal_autocheckpoint` as a fallback, so the WAL stays bounded even if the worker is
 * gone or falls behind.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Plain CommonJS evaluated in the worker (no TypeScript loader there).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stop checkpointing and close the worker's connection (before the main connection closes). */
  close(): Promise<void>;
}

/** Checkpoint `file` (a WAL-mode SQLite database that exists) from a worker thread. */
export function startCheckpointer(file: string, options: { intervalMs?: number; onError?: (message: string) => void } = {}): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // Not the parent's flags: --input-type=module would make this source ESM, --import tsx is not needed.
    execArgv: [],
    workerData: { file, module: createRequire(import.meta.url).resolve('better-sqlite3'), intervalMs: options.intervalMs ?? 250 },
  });
  // Never what keeps a process alive (a CLI that forgot destroy() still exits).
  worker.unref();
  worker.on('message', (m: { error?: string }) => m.error && options.onError?.(m.error));
  worker.on('error', (error) => options.onError?.(error.message));
  let running = true;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  return {
    async close() {
      if (running) {
        // Keep the process alive until the worker has closed its connection and exited.
        worker.ref();
        worker.postMessage('close');
      }
      await exited;
    },
  };
}
