/**
 * Issue 32: the data-retention rules of issue 31 reach the backups (`npm run backup -- prune`, run
 * it daily after the backup): in every backup under `dir`,
 *  - each image whose store's period has passed (its `dueAt` in the manifest) is deleted from the
 *    backup — the same day the live node deletes it;
 *  - a whole backup older than `keepDays` (BACKUP_KEEP_DAYS, default 35) is deleted.
 * Idempotent: a second run finds nothing more to do. A directory without a manifest (a backup
 * being written, or not a backup) is left alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST, readManifest, writeManifest } from './backup.ts';

export const DEFAULT_KEEP_DAYS = 35;

export interface PruneResult {
  backupsDeleted: string[];
  imagesDeleted: number;
  backupsKept: number;
}

export function pruneBackups(dir: string, opts: { now?: Date; keepDays?: number } = {}): PruneResult {
  const now = opts.now ?? new Date();
  const keepDays = opts.keepDays ?? DEFAULT_KEEP_DAYS;
  const result: PruneResult = { backupsDeleted: [], imagesDeleted: 0, backupsKept: 0 };
  if (!fs.existsSync(dir)) return result;
  for (const name of fs.readdirSync(dir).sort()) {
    const backup = path.join(dir, name);
    if (!name.startsWith('verdant-backup-') || !fs.existsSync(path.join(backup, MANIFEST))) continue;
    const manifest = readManifest(backup);
    if (Date.parse(manifest.createdAt) + keepDays * 86_400_000 <= now.getTime()) {
      fs.rmSync(backup, { recursive: true, force: true });
      result.backupsDeleted.push(name);
      continue;
    }
    let changed = false;
    for (const upload of manifest.uploads) {
      if (!upload.file || !upload.dueAt || Date.parse(upload.dueAt) > now.getTime()) continue;
      fs.rmSync(path.join(backup, upload.file), { force: true });
      upload.file = null;
      upload.prunedAt = now.toISOString();
      result.imagesDeleted++;
      changed = true;
    }
    if (changed) writeManifest(backup, manifest);
    result.backupsKept++;
  }
  return result;
}
