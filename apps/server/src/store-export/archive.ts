/**
 * The store-wide export as a streamed zip (issue 31; docs/operators/export.md). fflate 0.8.3's
 * streaming `Zip` (the shopper's export, privacy/rights.ts, builds its small archive with zipSync):
 * each file is deflated as its rows arrive, a page at a time, and the zip's bytes go straight to
 * the response. Memory stays bounded by one page of rows and the deflate window: the writer waits
 * for the response to drain before it reads the next page, so a slow download slows the reads
 * instead of piling the archive up in memory. A download the client abandons stops the reads.
 *
 * The files are read one after another, not in one transaction: a row written meanwhile may be in
 * one file and not in another (an order placed during the export, its lines). manifest.json, last,
 * says when the export started and how many rows each file has.
 */
import { PassThrough } from 'node:stream';
import { Zip, ZipDeflate, strToU8 } from 'fflate';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { csvCell } from '../http/csv.ts';
import { EXPORT_FILES, csvCellOf, type ExportFile } from './files.ts';

export const STORE_EXPORT_FORMAT = 'verdant-store-export/1';
/** Rows read per query. */
export const EXPORT_PAGE_SIZE = 1000;
/** Deflate level: 1 is several times faster than 6 on CSV and JSON for a slightly larger archive (bench/store-export.ts). */
export const DEFLATE_LEVEL = Number(process.env.STORE_EXPORT_LEVEL ?? 6) as StoreExportInput['level'] & number;

export interface StoreExportInput {
  db: Kysely<Database>;
  store: { id: number; code: string; name: string };
  now: Date;
  pageSize?: number;
  /** Deflate level 0–9 (default 6). */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
}

export interface ManifestFile {
  name: string;
  rows: number;
  about: string;
}

export interface StoreExportManifest {
  format: typeof STORE_EXPORT_FORMAT;
  documentation: string;
  store: { id: number; code: string; name: string };
  exported_at: string;
  money: string;
  files: ManifestFile[];
}

export function exportFilename(storeCode: string, now: Date): string {
  return `store-data-${storeCode.replace(/[^A-Za-z0-9_-]/g, '_')}-${now.toISOString().slice(0, 10)}.zip`;
}

/** A stream of the zip. Errors while writing destroy the stream (the download ends incomplete, logged by the caller). */
export function storeExportStream(input: StoreExportInput, onError: (error: unknown) => void): PassThrough {
  const out = new PassThrough();
  void writeArchive(input, out).catch((error: unknown) => {
    onError(error);
    out.destroy(error as Error);
  });
  return out;
}

class Aborted extends Error {}

/** Until the reader took what is buffered, or went away; no listener is left behind. */
function drainOrClose(out: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

async function writeArchive(input: StoreExportInput, out: PassThrough): Promise<void> {
  const pageSize = input.pageSize ?? EXPORT_PAGE_SIZE;
  const level = input.level ?? DEFLATE_LEVEL;
  const mtime = input.now;
  let failed: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      failed = err;
      return;
    }
    if (!out.destroyed) out.write(chunk);
    if (final) out.end();
  });
  const drained = async () => {
    if (failed) throw failed;
    if (out.destroyed) throw new Aborted('the download was abandoned');
    if (out.writableNeedDrain) await drainOrClose(out);
    if (out.destroyed) throw new Aborted('the download was abandoned');
  };
  const files: ManifestFile[] = [];
  try {
    for (const file of EXPORT_FILES) {
      files.push({ name: `${file.name}.csv`, rows: await writeCsv(zip, file, input, pageSize, level, mtime, drained), about: file.about });
      files.push({ name: `${file.name}.json`, rows: await writeJson(zip, file, input, pageSize, level, mtime, drained), about: file.about });
    }
    const manifest: StoreExportManifest = {
      format: STORE_EXPORT_FORMAT,
      documentation: 'docs/operators/export.md',
      store: input.store,
      exported_at: input.now.toISOString(),
      money: 'Integer cents in *_cents columns (both formats); the CSV adds *_dollars beside each.',
      files,
    };
    const entry = new ZipDeflate('manifest.json', { level });
    entry.mtime = mtime;
    zip.add(entry);
    entry.push(strToU8(`${JSON.stringify(manifest, null, 2)}\n`), true);
    zip.end();
  } catch (error) {
    if (error instanceof Aborted) return zip.terminate();
    throw error;
  }
}

type Drain = () => Promise<void>;

async function writeCsv(zip: Zip, file: ExportFile<unknown>, input: StoreExportInput, pageSize: number, level: StoreExportInput['level'], mtime: Date, drained: Drain) {
  const entry = new ZipDeflate(`${file.name}.csv`, { level });
  entry.mtime = mtime;
  zip.add(entry);
  const columns = file.columns;
  entry.push(strToU8(`${columns.map((c) => csvCell(c.name)).join(',')}\n`));
  let rows = 0;
  for await (const page of file.pages(input.db, input.store.id, pageSize)) {
    let chunk = '';
    for (const row of page) chunk += `${columns.map((c) => csvCell(csvCellOf(c.value(row)))).join(',')}\n`;
    rows += page.length;
    entry.push(strToU8(chunk));
    await drained();
  }
  entry.push(new Uint8Array(0), true);
  return rows;
}

async function writeJson(zip: Zip, file: ExportFile<unknown>, input: StoreExportInput, pageSize: number, level: StoreExportInput['level'], mtime: Date, drained: Drain) {
  const entry = new ZipDeflate(`${file.name}.json`, { level });
  entry.mtime = mtime;
  zip.add(entry);
  const columns = file.columns.filter((c) => !c.csvOnly);
  entry.push(strToU8('['));
  let rows = 0;
  for await (const page of file.pages(input.db, input.store.id, pageSize)) {
    let chunk = '';
    for (const row of page) {
      chunk += `${rows === 0 ? '\n' : ',\n'}${JSON.stringify(Object.fromEntries(columns.map((c) => [c.name, c.value(row)])))}`;
      rows++;
    }
    entry.push(strToU8(chunk));
    await drained();
  }
  entry.push(strToU8(rows ? '\n]\n' : ']\n'), true);
  return rows;
}
