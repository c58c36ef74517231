/**
 * The one CSV writer of the product (the daily report, the menu export): every CSV a person may
 * open in a spreadsheet goes through `toCsv`, so no cell can run as a formula (OWASP "CSV
 * injection").
 *
 * The rule:
 * - A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`
 *   (so does a cell that already starts with quotes before such a character, which keeps the escape
 *   reversible: `unescapeCell(escapeCell(x)) === x` for every x, and an export re-imports as is).
 * - A number is written as a plain number and never escaped: a negative amount (a discount of
 *   `-5.00`) must stay a number the spreadsheet can add up. Only a JS `number` or a `csvNumber(...)`
 *   (a decimal literal checked against `-?digits[.digits]`, e.g. money with two decimals) counts
 *   as a number; any other text, however numeric it looks, is escaped as text. A literal of that
 *   shape can never be a formula.
 * - Cells holding `"`, `,`, CR or LF are quoted (RFC 4180, `"` doubled); records end in `\n`.
 */

/** A numeric cell written as is (see `csvNumber`). */
export class CsvNumber {
  readonly text: string;
  private constructor(text: string) {
    this.text = text;
  }
  /** @internal Use `csvNumber`. */
  static of(text: string): CsvNumber {
    return new CsvNumber(text);
  }
}

/** Plain decimal digits, never an exponent or a grouping comma (1e21 → 1000000000000000000000). */
const PLAIN_NUMBER = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 20 });
const NUMERAL = /^-?\d+(\.\d+)?$/;

/** A decimal literal (`"-5.00"`, `"143.00"`, `12`) as a numeric cell; throws on anything else. */
export function csvNumber(value: string | number): CsvNumber {
  const text = typeof value === 'number' ? numberText(value) : value;
  if (!NUMERAL.test(text)) throw new TypeError(`not a plain number for a CSV cell: ${JSON.stringify(text).slice(0, 40)}`);
  return CsvNumber.of(text === '-0' || /^-0\.0+$/.test(text) ? text.slice(1) : text);
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`not a finite number for a CSV cell: ${n}`);
  // A safe integer's String() is already plain digits (and the common case: cents, counts, ids).
  if (Number.isSafeInteger(n)) return String(n === 0 ? 0 : n);
  // Fixed-point, never the exponent form String() gives 1e21 or 1e-7; -0 as 0.
  return PLAIN_NUMBER.format(Object.is(n, -0) ? 0 : n);
}

export type CsvCell = string | number | CsvNumber | null | undefined;

/** Characters that make a spreadsheet read a cell as a formula, after any quotes already added. */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** A text cell a spreadsheet would run gets a leading `'`; others are unchanged. */
export function escapeCell(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** Undo `escapeCell` when reading a CSV we (or a spreadsheet) wrote: `'=x` → `=x`. Other cells are unchanged. */
export function unescapeCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One cell's text in the file: numbers as they are, text escaped and quoted as needed; null/undefined empty. */
export function csvCell(cell: CsvCell): string {
  if (cell == null) return '';
  if (cell instanceof CsvNumber) return cell.text;
  if (typeof cell === 'number') return numberText(cell);
  return quote(escapeCell(cell));
}

/** The whole file: one record per row, each ending in `\n`. */
export function toCsv(rows: Iterable<readonly CsvCell[]>): string {
  let out = '';
  for (const row of rows) out += `${row.map(csvCell).join(',')}\n`;
  return out;
}
