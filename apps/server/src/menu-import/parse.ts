/**
 * Streaming reader of a menu file (CSV or JSON, format.ts). Never throws on bad input: every
 * problem becomes a `{row, column, value, reason}` entry. Memory is bounded whatever the input:
 * the bytes are decoded and parsed chunk by chunk, a row may hold at most `MAX_ROW_BYTES`, at
 * most `MAX_ROWS` rows and `MAX_KEPT_CHARS` characters of cells are kept (the rest are only
 * counted), at most `MAX_PROBLEMS` problems are listed (all are counted), and a JSON file may be
 * at most `MAX_JSON_BYTES`.
 *
 * Rows are numbered as a spreadsheet numbers them: the header is row 1, the first variant row 2.
 * In JSON the first element of the array is row 1. Problems about the whole file have row 0.
 */
import { Readable } from 'node:stream';
import { parse as csvParse } from 'csv-parse';
import { unescapeCell } from '../http/csv.ts';
import { COLUMN_BY_NAME, REQUIRED_COLUMNS, type ColumnName, type MenuRow } from './format.ts';
import type { ImportProblemView } from '@verdant/domain/console-api';

export const MAX_ROWS = 20_000;
export const MAX_ROW_BYTES = 64 * 1024;
export const MAX_PROBLEMS = 1_000;
export const MAX_JSON_BYTES = 32 * 1024 * 1024;
/** Characters of cells kept (a menu of 20,000 rows with long descriptions is far below). */
export const MAX_KEPT_CHARS = 16 * 1024 * 1024;

/** A problem of the file: the console contract's shape (the CLI and the integration API answer it too). */
export type Problem = ImportProblemView;

/** A data row's sku and name as written in the file (cut to 100 characters). */
export interface RowLabel {
  sku?: string;
  name?: string;
}

/** One variant row as read: the fields its columns gave (absent columns are not in `values`). */
export interface ParsedRow {
  row: number;
  values: Partial<MenuRow>;
  /** Columns this row has (CSV: the header's; JSON: the object's keys). */
  present: readonly ColumnName[];
}

export interface ParseResult {
  rows: ParsedRow[];
  /** Data rows seen (also those beyond MAX_ROWS). */
  rowCount: number;
  problems: Problem[];
  /** All problems found, also those beyond MAX_PROBLEMS. */
  problemCount: number;
  /** Each checked data row's sku and name as written, by row number (labelProblems). */
  labels?: Map<number, RowLabel>;
}

export type MenuFileFormat = 'csv' | 'json';

export interface ParseOptions {
  format: MenuFileFormat;
  /** Called every 1,000 rows (for a progress bar) with the rows read so far. */
  onProgress?: (rows: number) => void;
}

const clip = (v: string) => (v.length > 200 ? `${v.slice(0, 200)}…` : v);

class Collector {
  readonly result: ParseResult = { rows: [], rowCount: 0, problems: [], problemCount: 0, labels: new Map() };
  private readonly seen = { external_id: new Map<string, number>(), sku: new Map<string, number>() };
  private keptChars = 0;
  private full = false;

  problem(row: number, column: string, value: string, reason: string): void {
    this.result.problemCount++;
    if (this.result.problems.length < MAX_PROBLEMS) this.result.problems.push({ row, column, value: clip(value), reason });
  }

  /** Validate one row's cells; keep it when there is room. */
  add(row: number, cells: Iterable<[ColumnName, string]>, present: readonly ColumnName[]): void {
    this.result.rowCount++;
    if (this.result.rowCount === MAX_ROWS + 1)
      this.problem(row, '', '', `the file has more than ${MAX_ROWS} rows; split it (rows after this one are not checked)`);
    if (this.result.rowCount > MAX_ROWS || this.full) return;
    const list = [...cells];
    this.keptChars += list.reduce((n, [, v]) => n + v.length, 0);
    if (this.keptChars > MAX_KEPT_CHARS) {
      this.full = true;
      this.problem(
        row,
        '',
        '',
        `the file holds more than ${MAX_KEPT_CHARS / 1024 / 1024} MB of text; split it (rows after this one are not checked)`,
      );
      return;
    }
    const label: RowLabel = {};
    for (const [name, raw] of list)
      if (name === 'sku' || name === 'name') {
        const v = unescapeCell(raw).trim();
        if (v) label[name] = v.length > 100 ? `${v.slice(0, 100)}…` : v;
      }
    if (label.sku || label.name) this.result.labels!.set(row, label);
    const values: Partial<MenuRow> = {};
    for (const [name, raw] of list) {
      const spec = COLUMN_BY_NAME.get(name)!;
      const cell = unescapeCell(raw);
      const parsed = spec.parse(cell);
      if ('error' in parsed) this.problem(row, name, cell, `${name} ${parsed.error}`);
      else (values as Record<string, unknown>)[name] = parsed.value;
    }
    for (const key of ['external_id', 'sku'] as const) {
      const v = values[key];
      if (!v) continue;
      const k = v.toLowerCase();
      const first = this.seen[key].get(k);
      if (first !== undefined) this.problem(row, key, v, `duplicate ${key}: also on row ${first}`);
      else this.seen[key].set(k, row);
    }
    this.result.rows.push({ row, values, present });
  }
}

/** Unknown and missing columns of a header; returns the known columns by position. */
function readHeader(c: Collector, header: string[], row: number): { byIndex: (ColumnName | null)[]; ok: boolean } {
  const byIndex: (ColumnName | null)[] = [];
  let ok = true;
  const seen = new Set<string>();
  header.forEach((raw, i) => {
    const name = unescapeCell(raw).trim().toLowerCase();
    if (!name && header.length > 1 && i === header.length - 1) return void byIndex.push(null); // trailing comma
    if (!COLUMN_BY_NAME.has(name)) {
      c.problem(row, raw, raw, `unknown column "${clip(raw)}"; the columns are listed in FORMAT.md`);
      ok = false;
      return void byIndex.push(null);
    }
    if (seen.has(name)) {
      c.problem(row, name, raw, `column ${name} appears twice`);
      ok = false;
      return void byIndex.push(null);
    }
    seen.add(name);
    byIndex.push(name as ColumnName);
  });
  for (const req of REQUIRED_COLUMNS)
    if (!seen.has(req)) {
      c.problem(row, req, '', `missing column ${req}`);
      ok = false;
    }
  return { byIndex, ok };
}

type Source = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/** Offset of the first byte of `b` that is not valid UTF-8 (b.length when none; a sequence cut at the end is valid). */
export function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const x = b[i];
    const n = x < 0x80 ? 0 : x >= 0xc2 && x <= 0xdf ? 1 : x >= 0xe0 && x <= 0xef ? 2 : x >= 0xf0 && x <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (i + k < b.length && (b[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return b.length;
}

/**
 * UTF-8 decoding that stops at the first invalid byte, reporting it (also a UTF-16 file). A UTF-8
 * byte-order mark is dropped. `state.error` is set when decoding stopped.
 */
async function* decodeUtf8(source: Source, c: Collector, state: { stopped: boolean; lines: number }): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let first = true;
  for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
    if (state.stopped) return;
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else {
      if (first && chunk.length >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff))) {
        c.problem(0, '', '', 'the file is UTF-16; save it as "CSV UTF-8" (or JSON in UTF-8)');
        state.stopped = true;
        return;
      }
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        const bad = firstInvalidUtf8(chunk);
        let lines = state.lines;
        for (let i = 0; i < bad; i++) if (chunk[i] === 0x0a) lines++;
        c.problem(
          lines + 1,
          '',
          '',
          `the file is not UTF-8 text (byte 0x${(chunk[bad] ?? 0).toString(16)} on this line); save it as "CSV UTF-8"`,
        );
        state.stopped = true;
        return;
      }
    }
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) state.lines++;
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    c.problem(state.lines + 1, '', '', 'the file is not UTF-8 text (it ends inside a character); save it as "CSV UTF-8"');
    state.stopped = true;
  }
}

async function parseCsv(source: Source, c: Collector, opts: ParseOptions): Promise<void> {
  const state = { stopped: false, lines: 0 };
  const parser = csvParse({ relax_column_count: true, max_record_size: MAX_ROW_BYTES });
  const input = Readable.from(decodeUtf8(source, c, state), { objectMode: false });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let header: { byIndex: (ColumnName | null)[]; ok: boolean } | null = null;
  let present: ColumnName[] = [];
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (record.length === 1 && record[0].trim() === '') continue; // an empty line (still counted as a row)
      if (!header) {
        header = readHeader(c, record, row);
        present = header.byIndex.filter((n): n is ColumnName => n !== null);
        if (!header.ok) break; // the rows cannot be read against a wrong header
        continue;
      }
      if (
        (record.length > header.byIndex.length && record.slice(header.byIndex.length).some((v) => v.trim() !== '')) ||
        record.length < header.byIndex.length
      ) {
        c.problem(row, '', '', `the row has ${record.length} cells, the header ${header.byIndex.length}`);
        c.result.rowCount++;
        continue;
      }
      const cells: [ColumnName, string][] = [];
      header.byIndex.forEach((name, i) => {
        if (name) cells.push([name, record[i] ?? '']);
      });
      c.add(row, cells, present);
      if (row % 1000 === 0) opts.onProgress?.(c.result.rowCount);
    }
  } catch (error) {
    const e = error as { code?: string; message?: string };
    const reason =
      e.code === 'CSV_MAX_RECORD_SIZE'
        ? `a row is longer than ${MAX_ROW_BYTES / 1024} KB`
        : e.code === 'CSV_QUOTE_NOT_CLOSED'
          ? 'a quoted cell is never closed (a " is missing)'
          : e.code?.startsWith('CSV_')
            ? `the file is not valid CSV here (${clip(e.message ?? e.code)})`
            : `the file could not be read (${clip(e.message ?? String(error))})`;
    const records = (error as { records?: unknown }).records;
    c.problem(typeof records === 'number' ? records + 1 : row + 1, '', '', reason);
  } finally {
    input.destroy();
    parser.destroy();
  }
  if (!header && !state.stopped && c.result.problemCount === 0) c.problem(0, '', '', 'the file is empty (no header row)');
}

/** A JSON value as the cell text the CSV would hold. */
function toCell(name: ColumnName, v: unknown): string | null {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'))
    return v.join(name === 'images' || name === 'weight_discounts' ? ';' : ',');
  return null;
}

async function parseJson(source: Source, c: Collector, opts: ParseOptions): Promise<void> {
  const state = { stopped: false, lines: 0 };
  const parts: string[] = [];
  let size = 0;
  for await (const text of decodeUtf8(source, c, state)) {
    size += text.length;
    if (size > MAX_JSON_BYTES) {
      c.problem(0, '', '', `the JSON file is larger than ${MAX_JSON_BYTES / 1024 / 1024} MB; split it or use CSV`);
      return;
    }
    parts.push(text);
  }
  if (state.stopped) return;
  let data: unknown;
  try {
    data = JSON.parse(parts.join(''));
  } catch (error) {
    c.problem(0, '', '', `the file is not valid JSON (${clip((error as Error).message)})`);
    return;
  }
  if (!Array.isArray(data)) return void c.problem(0, '', '', 'the JSON file must be an array of rows');
  data.forEach((item, i) => {
    const row = i + 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return void c.problem(row, '', '', 'a row must be an object');
    const cells: [ColumnName, string][] = [];
    let bad = false;
    for (const [key, v] of Object.entries(item)) {
      if (!COLUMN_BY_NAME.has(key)) {
        c.problem(row, key, '', `unknown field "${clip(key)}"; the fields are listed in FORMAT.md`);
        bad = true;
        continue;
      }
      const cell = toCell(key as ColumnName, v);
      if (cell === null) {
        c.problem(row, key, clip(JSON.stringify(v) ?? ''), `${key} must be a string, number, yes/no or a list`);
        bad = true;
      } else if (cell.length > MAX_ROW_BYTES) {
        c.problem(row, key, cell, `${key} is longer than ${MAX_ROW_BYTES / 1024} KB`);
        bad = true;
      } else cells.push([key as ColumnName, cell]);
    }
    for (const req of REQUIRED_COLUMNS) if (!(req in item)) c.problem(row, req, '', `missing field ${req}`);
    if (!bad)
      c.add(
        row,
        cells,
        cells.map(([n]) => n),
      );
    else c.result.rowCount++;
    if (row % 1000 === 0) opts.onProgress?.(c.result.rowCount);
  });
}

/** Read a whole menu file. Resolves (never rejects) with the rows and every problem found. */
/** The problems, each about a data row named by that row's sku and name as the file writes them. */
export function labelProblems(problems: Problem[], labels: ReadonlyMap<number, RowLabel> | undefined): Problem[] {
  if (!labels?.size) return problems;
  return problems.map((p) => {
    const label = p.row > 0 ? labels.get(p.row) : undefined;
    return label ? { ...p, ...label } : p;
  });
}

export async function parseMenuFile(source: Source, opts: ParseOptions): Promise<ParseResult> {
  const c = new Collector();
  try {
    if (opts.format === 'json') await parseJson(source, c, opts);
    else await parseCsv(source, c, opts);
  } catch (error) {
    c.problem(0, '', '', `the file could not be read (${clip((error as Error)?.message ?? String(error))})`);
  }
  opts.onProgress?.(c.result.rowCount);
  return c.result;
}
