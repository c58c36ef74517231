/**
 * One SQLite data directory = one server process (docs/developers/architecture.md, "How a request is served"): each process
 * keeps its own cart cache and group commit, so a second process on the same files would serve
 * stale carts. The lock is an exclusive SQLite transaction on a separate, empty database
 * (`server.lock`) held for the process's lifetime: the operating system drops it when the process
 * ends in any way (exit, crash, kill -9), so no stale lock file ever blocks the next start. The
 * holder's pid sits beside it (`server.pid`), only to name it in the refusal.
 *
 * The `seed` and `migrate` CLIs do not take this lock: they write through SQLite's own locking
 * while a server runs (the server sees a re-seeded catalogue after its restart).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

export const LOCK_FILE_NAME = 'server.lock';
export const PID_FILE_NAME = 'server.pid';

export interface DataDirLock {
  /** Release it (shutdown); the process ending releases it too. */
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | null,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another server process${holderPid ? ` (pid ${holderPid})` : ''}: one data directory serves one process; stop that process or give this one another DATA_DIR.`,
    );
  }
}

/** Take the data directory for this process, or throw DataDirLockedError naming the holder. */
export function lockDataDir(dataDir: string, pid = process.pid): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const db = new SqliteDatabase(join(dir, LOCK_FILE_NAME));
  try {
    // No waiting: a holder keeps it for as long as it runs.
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new DataDirLockedError(dir, readPid(dir));
  }
  const pidFile = join(dir, PID_FILE_NAME);
  writeFileSync(pidFile, `${pid}\n`);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      rmSync(pidFile, { force: true });
      db.close();
    },
  };
}

function readPid(dir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dir, PID_FILE_NAME), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
