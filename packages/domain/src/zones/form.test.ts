import { describe, expect, it } from 'vitest';
import { amountProblem, readDollars, readZipList, zipListProblem } from './form.ts';

describe('zone form: amounts typed in dollars', () => {
  it('reads dollars into cents', () => {
    expect(readDollars('5')).toEqual({ ok: true, cents: 500 });
    expect(readDollars(' 4.5 ')).toEqual({ ok: true, cents: 450 });
    expect(readDollars('4.05')).toEqual({ ok: true, cents: 405 });
    expect(readDollars('.50')).toEqual({ ok: true, cents: 50 });
    expect(readDollars('0')).toEqual({ ok: true, cents: 0 });
    expect(readDollars('99999.99')).toEqual({ ok: true, cents: 99_999_99 });
    expect(readDollars('')).toEqual({ ok: true, cents: null });
  });

  it('names what is wrong with a typo, never reading it as another amount', () => {
    expect(readDollars('5,00')).toEqual({ ok: false, problem: 'use a point for cents: 5.00, not 5,00' });
    expect(readDollars('$5')).toEqual({ ok: false, problem: 'type the number without “$”, e.g. 5' });
    expect(readDollars('-5')).toEqual({ ok: false, problem: 'cannot be negative' });
    expect(readDollars('1,500.00')).toEqual({ ok: false, problem: 'type the amount without commas, e.g. 1500.00' });
    expect(readDollars('5.123')).toEqual({ ok: false, problem: 'at most 2 decimals (cents), e.g. 5.25' });
    expect(readDollars('five')).toEqual({ ok: false, problem: 'enter an amount in dollars, e.g. 5.00' });
    expect(readDollars('5.')).toEqual({ ok: false, problem: 'enter an amount in dollars, e.g. 5.00' });
    expect(readDollars('100000')).toEqual({ ok: false, problem: 'at most $99,999.99' });
  });

  it('judges an amount as the document holds it: cents, or the text that could not be read', () => {
    expect(amountProblem(500, true)).toBeNull();
    expect(amountProblem('5,00', true)).toBe('use a point for cents: 5.00, not 5,00');
    expect(amountProblem(null, true)).toBe('enter an amount in dollars, e.g. 5.00');
    expect(amountProblem(null, false)).toBeNull();
    expect(amountProblem(-500, true)).toBe('cannot be negative');
    expect(amountProblem(4.5, true)).toBe('whole cents in the JSON (e.g. 500 for $5.00)');
    expect(amountProblem(100_000_00, true)).toBe('at most $99,999.99');
  });
});

describe('zone form: ZIP lists', () => {
  it('reads codes separated by commas, spaces or semicolons, and names the first that is not 5 digits', () => {
    expect(readZipList('94607, 94608;94609  94610,')).toEqual(['94607', '94608', '94609', '94610']);
    expect(zipListProblem(readZipList('94607, 9460'))).toBe('“9460” is not a 5-digit ZIP code');
    expect(zipListProblem(readZipList(' , '))).toBe('list at least one 5-digit ZIP code, separated by commas');
    expect(zipListProblem(['94607'])).toBeNull();
  });
});
