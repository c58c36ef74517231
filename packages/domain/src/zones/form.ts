/**
 * The console's delivery-zone form (issue 26): amounts typed in dollars and ZIP lists typed as
 * text, read into the zones document (cents, a list of codes), and what is wrong with a value in
 * words a store manager reads at the field. The document is still checked by ./schema.ts (here and
 * on the server); these only say *why* in the form's terms ("5,00": a point for cents).
 */
import { ZONE_MAX_CENTS } from './schema.ts';

export type DollarsRead = { ok: true; cents: number | null } | { ok: false; problem: string };

const DOLLARS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dollarsText = (cents: number) => `$${DOLLARS.format(cents / 100)}`;

/** `5`, `5.5`, `5.50`, `.50` → cents; empty → null; `5,00`, `$5`, `-5`, `5.123`, `five` → the problem, in words. */
export function readDollars(text: string): DollarsRead {
  const t = text.trim();
  if (t === '') return { ok: true, cents: null };
  if (/^-/.test(t)) return { ok: false, problem: 'cannot be negative' };
  if (t.includes('$')) return { ok: false, problem: `type the number without “$”, e.g. ${t.replace(/\$/g, '') || '5.00'}` };
  if (/^\d+,\d{1,2}$/.test(t)) return { ok: false, problem: `use a point for cents: ${t.replace(',', '.')}, not ${t}` };
  if (t.includes(',')) return { ok: false, problem: 'type the amount without commas, e.g. 1500.00' };
  if (/^\d*\.\d{3,}$/.test(t)) return { ok: false, problem: 'at most 2 decimals (cents), e.g. 5.25' };
  if (!/^(\d+(\.\d{1,2})?|\.\d{1,2})$/.test(t)) return { ok: false, problem: 'enter an amount in dollars, e.g. 5.00' };
  const cents = Math.round(Number(t) * 100);
  if (cents > ZONE_MAX_CENTS) return { ok: false, problem: `at most ${dollarsText(ZONE_MAX_CENTS)}` };
  return { ok: true, cents };
}

/**
 * What is wrong with an amount as the zones document holds it: cents (a number), or the text typed
 * when it could not be read (the form keeps it there so the field and the JSON show it). Null: fine.
 */
export function amountProblem(value: unknown, required: boolean): string | null {
  if (value === null || value === undefined || value === '') return required ? 'enter an amount in dollars, e.g. 5.00' : null;
  if (typeof value === 'string') {
    const read = readDollars(value);
    return read.ok ? null : read.problem;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'enter an amount in dollars, e.g. 5.00';
  if (value < 0) return 'cannot be negative';
  if (!Number.isInteger(value)) return 'whole cents in the JSON (e.g. 500 for $5.00)';
  if (value > ZONE_MAX_CENTS) return `at most ${dollarsText(ZONE_MAX_CENTS)}`;
  return null;
}

/** `94607, 94608` (commas, spaces or semicolons between) → the codes as typed. */
export function readZipList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((z) => z.trim())
    .filter(Boolean);
}

/** What is wrong with a zone's ZIP list, or null. */
export function zipListProblem(zips: unknown): string | null {
  if (!Array.isArray(zips) || zips.length === 0) return 'list at least one 5-digit ZIP code, separated by commas';
  const bad = zips.find((z) => typeof z !== 'string' || !/^\d{5}$/.test(z));
  return bad === undefined ? null : `“${String(bad)}” is not a 5-digit ZIP code`;
}
