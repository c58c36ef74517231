/**
 * The shared CSV writer: no text cell a spreadsheet would run survives unescaped, numbers stay
 * numbers (a negative amount too), quoting reads back with a real CSV parser, and the escape is
 * undone exactly by `unescapeCell` (what keeps the menu export re-importable).
 */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvNumber, escapeCell, toCsv, unescapeCell } from './csv.ts';

const FORMULA = /^[=+\-@\t\r]/;

describe('shared CSV writer', () => {
  it('escapes text cells that start like a formula, and nothing else', () => {
    expect(csvCell('=HYPERLINK("http://evil.example/t","tax")')).toBe(`"'=HYPERLINK(""http://evil.example/t"",""tax"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-5.00')).toBe("'-5.00"); // text that looks numeric is still text
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell("'=x")).toBe("''=x"); // already quoted once: escaped again, so unescaping is exact
    expect(csvCell('Blue Dream')).toBe('Blue Dream');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('writes numbers as plain numbers, never escaped (a negative amount stays a number)', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(csvNumber('-5.00'))).toBe('-5.00');
    expect(csvCell(csvNumber('143.00'))).toBe('143.00');
    expect(csvCell(csvNumber('-0.00'))).toBe('0.00');
    expect(csvCell(-0)).toBe('0');
    expect(csvCell(1e21)).toBe('1000000000000000000000');
    expect(csvCell(1e-7)).toBe('0.0000001');
    // Only a plain decimal literal may pass as a number.
    for (const bad of ['=1+1', '-1+1', '1e5', '-', '', ' 1', '1,5', '@1']) expect(() => csvNumber(bad)).toThrow(TypeError);
    expect(() => csvCell(Number.NaN)).toThrow(TypeError);
    expect(() => csvCell(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });

  it('reads back (csv-parse) as the cells written, once unescaped; no text cell starts like a formula', () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom('=1+1', '+1', '-1', '@x', '\t=1', '\r\n', "'=1", "''@", '"', ',', 'a"b,c\nd'),
    );
    fc.assert(
      fc.property(fc.array(fc.array(text, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }), (rows) => {
        const csv = toCsv(rows);
        const back = parse(csv, { relax_column_count: true }) as string[][];
        expect(back.length).toBe(rows.length);
        back.forEach((cells, i) => {
          expect(cells.map(unescapeCell)).toEqual(rows[i]);
          for (const c of cells) expect(FORMULA.test(c)).toBe(false);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('unescapes exactly what it escaped', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const e = escapeCell(s);
        expect(FORMULA.test(e)).toBe(false);
        expect(unescapeCell(e)).toBe(s);
      }),
    );
  });
});
