import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@verdant/domain';
import { SearchTermTooShortError } from '../errors.ts';
import { createIndex } from './create-index.ts';
import type { IndexSchema } from './schema.ts';

interface Doc {
  id: number;
  name?: string;
  description?: string;
  sku?: string;
  tags?: string[];
  variants?: { sku: string }[];
}

// The engine's rules one at a time: the relative minimum score (which drops weak matches beside a
// strong one) is off here and has its own tests at the end.
const schema: IndexSchema<Doc> = {
  name: 'doc',
  text: { name: 5, tags: 4, description: 3, sku: 1, 'variants.sku': 1 },
  textOptions: { minRelativeScore: 0 },
};

function index(docs: Doc[], overrides: Partial<IndexSchema<Doc>> = {}) {
  const idx = createIndex<Doc>({ ...schema, ...overrides, textOptions: { ...schema.textOptions, ...overrides.textOptions } });
  idx.replaceAll(docs);
  return idx;
}

const ids = (r: { items: Doc[] }) => r.items.map((d) => d.id);

describe('text search: boosts', () => {
  it('ranks a name match above a description match above a sku match', () => {
    const idx = index([
      { id: 1, sku: 'kush' },
      { id: 2, description: 'kush' },
      { id: 3, name: 'kush' },
    ]);
    expect(ids(idx.search({ text: 'kush' }))).toEqual([3, 2, 1]);
  });

  it('ranks a tag match between name and description', () => {
    const idx = index([
      { id: 1, description: 'sleepy' },
      { id: 2, tags: ['sleepy'] },
      { id: 3, name: 'sleepy' },
    ]);
    expect(ids(idx.search({ text: 'sleepy' }))).toEqual([3, 2, 1]);
  });

  it('finds a parent by a child sku through a dotted array path', () => {
    const idx = index([
      { id: 1, name: 'Blue Dream', variants: [{ sku: 'BD-8TH' }, { sku: 'BD-OZ' }] },
      { id: 2, name: 'OG Kush', variants: [{ sku: 'OG-8TH' }] },
    ]);
    expect(ids(idx.search({ text: 'BD-OZ' }))).toEqual([1]);
  });
});

describe('text search: typo tolerance', () => {
  const idx = index([
    { id: 1, name: 'Blue Dream', description: 'A sativa-dominant hybrid from California' },
    { id: 2, name: 'Sour Diesel', description: 'Pungent fuel aroma' },
    { id: 3, name: 'Blueberry Muffin', description: 'Sweet dessert strain' },
    { id: 4, name: 'OG Kush', description: 'Classic earthy pine' },
  ]);

  it('"blu drem" finds Blue Dream first and suggests "blue dream"', () => {
    const r = idx.search({ text: 'blu drem' });
    expect(ids(r)[0]).toBe(1);
    expect(r.suggestions).toEqual(['blue dream']);
  });

  it('"sour deisel" finds Sour Diesel first and suggests the spelling', () => {
    const r = idx.search({ text: 'sour deisel' });
    expect(ids(r)[0]).toBe(2);
    expect(r.suggestions).toEqual(['sour diesel']);
  });

  it('makes no suggestion when every term matched exactly', () => {
    expect(idx.search({ text: 'blue dream' }).suggestions).toEqual([]);
  });

  it('keeps 1-2 letter terms exact', () => {
    // "og" matches OG Kush only; "ob" is not corrected to "og".
    expect(ids(idx.search({ text: 'og kush' }))).toEqual([4]);
    expect(idx.search({ text: 'ob xyzzy' }).total).toBe(0);
  });

  it('tolerates two edits but not three', () => {
    expect(ids(idx.search({ text: 'deesl' }))).toEqual([2]); // two edits from "diesel"
    expect(idx.search({ text: 'dxxxel' }).total).toBe(0); // three
  });

  it('matches the last term as a prefix while typing, but not once a space follows it', () => {
    // "blueb" is also one edit from "blue": Blueberry (prefix) first, Blue Dream (fuzzy) after.
    expect(ids(idx.search({ text: 'blueb' }))).toEqual([3, 1]);
    expect(ids(idx.search({ text: 'sativa-dom' }))).toEqual([1]);
    expect(idx.search({ text: 'califo ' }).total).toBe(0);
    expect(ids(idx.search({ text: 'califo' }))).toEqual([1]);
  });

  it('folds case and accents', () => {
    const accents = index([{ id: 1, name: 'Crème Brûlée Gummies' }]);
    expect(ids(accents.search({ text: 'CREME brulee' }))).toEqual([1]);
  });

  it('answers no results for text that has no terms', () => {
    expect(idx.search({ text: '!!! ---' }).total).toBe(0);
  });
});

describe('text search: minimum_should_match 75%', () => {
  const idx = index([
    { id: 1, name: 'alpha bravo charlie delta' },
    { id: 2, name: 'alpha bravo charlie' },
    { id: 3, name: 'alpha bravo' },
    { id: 4, name: 'alpha' },
  ]);

  it('4 terms need 3', () => {
    expect(ids(idx.search({ text: 'alpha bravo charlie delta' })).sort()).toEqual([1, 2]);
  });

  it('3 terms need 2', () => {
    expect(ids(idx.search({ text: 'alpha bravo charlie' })).sort()).toEqual([1, 2, 3]);
  });

  it('2 terms need 1, and documents matching both rank first', () => {
    const r = idx.search({ text: 'charlie delta' });
    expect(ids(r)).toEqual([1, 2]);
  });

  it('counts a term matched in any field', () => {
    const cross = index([{ id: 1, name: 'alpha', description: 'bravo charlie' }]);
    expect(cross.search({ text: 'alpha bravo charlie zulu' }).total).toBe(1);
  });
});

describe('text search: minimum score and the 3-character rule', () => {
  it('drops matches scoring below the minimum score', () => {
    const docs = [{ id: 1, name: 'kush' }, { id: 2, sku: 'kush' }];
    expect(index(docs).search({ text: 'kush' }).total).toBe(2);
    // A sku-only match scores far below a name match; raise the floor between them.
    const name = index(docs).search({ text: 'kush', sort: [{ field: '_score', order: 'desc' }] });
    expect(name.items[0].id).toBe(1);
    expect(index(docs, { textOptions: { minScore: 1.5 } }).search({ text: 'kush' }).total).toBe(1);
  });

  it('refuses text shorter than 3 characters after trimming', () => {
    const idx = index([{ id: 1, name: 'og' }]);
    for (const text of ['', ' ', 'og', '  og  ', 'a']) {
      expect(() => idx.search({ text })).toThrow(SearchTermTooShortError);
    }
    expect(() => idx.search({ text: 'og' })).toThrow(MESSAGES.searchTermTooShort);
    expect(() => idx.search({ text: ' og ' })).toThrow(SearchTermTooShortError);
    expect(idx.search({ text: 'og ' + 'k' }).total).toBeGreaterThanOrEqual(0);
  });
});

describe('text search: incremental updates', () => {
  const WORDS = ['blue', 'dream', 'sour', 'diesel', 'kush', 'gelato', 'runtz', 'haze'];
  it('after upserts and removes, ranks exactly as an index built from the final documents', () => {
    const name = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    const op = fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 30 }), name);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.constantFrom('blu drem', 'kush', 'sour deisel haze', 'gel'), (ops, text) => {
        const live = createIndex<Doc>(schema);
        const model = new Map<number, Doc>();
        for (const [remove, id, n] of ops) {
          if (remove) {
            live.remove(id);
            model.delete(id);
          } else {
            live.upsert({ id, name: n });
            model.set(id, { id, name: n });
          }
        }
        const fresh = index([...model.values()]);
        const a = live.search({ text });
        const b = fresh.search({ text });
        expect(ids(a)).toEqual(ids(b));
        expect(a.suggestions).toEqual(b.suggestions);
      }),
      { numRuns: 200 },
    );
  });
});

describe('text search: far-fetched corrections onto common words', () => {
  // 300 products; 60% of the descriptions say "and", half say "sativa"; one product is ACDC.
  const docs: Doc[] = Array.from({ length: 300 }, (_, i) => ({
    id: i + 1,
    name: i === 0 ? 'ACDC' : `Strain ${i}`,
    description: `${i % 2 ? 'sativa' : 'indica'} ${i % 5 < 3 ? 'and citrus' : 'pine'}`,
  }));

  it('ignores a two-edit correction onto a word most documents contain', () => {
    // "acdc" is two edits from "and".
    expect(ids(index(docs).search({ text: 'acdc' }))).toEqual([1]);
    // (Two edits on a 4-letter word only where the length rule below allows them.)
    expect(index(docs, { textOptions: { commonTermCutoff: 1, fullFuzzinessMinLength: 0 } }).search({ text: 'acdc' }).total).toBe(180);
  });

  it('still corrects one-edit typos of common words', () => {
    const r = index(docs).search({ text: 'sativs' });
    expect(r.total).toBe(150);
    expect(r.suggestions).toEqual(['sativa']);
  });
});

describe('text search: relative minimum score', () => {
  const docs: Doc[] = [
    { id: 1, name: 'Blue Dream' },
    { id: 2, name: 'Blue Dream Disposable Vape' },
    { id: 3, name: 'Smell-Proof Stash Bag', description: 'keeps it fresh' },
    { id: 4, name: 'Rose Relief Balm', description: 'made from roses' },
    { id: 5, name: 'Dark Chocolate Bar', description: 'rich cocoa' },
  ];
  const relative = (minRelativeScore: number, fullFuzzinessMinLength = 0) => index(docs, { textOptions: { minRelativeScore, fullFuzzinessMinLength } });

  it('answers a typo search with what was meant, not every far-fetched correction', () => {
    expect(ids(relative(0).search({ text: 'blu drem' })).length).toBeGreaterThan(2);
    expect(ids(relative(0.4).search({ text: 'blu drem' })).sort()).toEqual([1, 2]);
  });

  it('gives words under 5 letters one edit: "blu" is not "bag" nor "balm", "drem" is "dream"', () => {
    expect(ids(relative(0, 5).search({ text: 'blu drem' })).sort()).toEqual([1, 2]);
    expect(ids(relative(0, 5).search({ text: 'blu' })).sort()).toEqual([1, 2]);
    // From 5 letters on, two edits as the spec says ("deesl" → "diesel" above).
    expect(ids(relative(0, 5).search({ text: 'cokoaa' }))).toEqual([5]);
  });

  it('keeps the nearest products of a query with no close match', () => {
    // Only weak matches exist: the best of them stays.
    expect(relative(0.4).search({ text: 'cocoa' }).total).toBe(1);
    expect(relative(0.4).search({ text: 'blalm' }).items.map((d) => d.id)).toEqual([4]);
  });

  it('cuts relative to the best match, whatever the scale of the scores', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.95, noNaN: true }), (cut) => {
        const all = relative(0).search({ text: 'blue dream vape', sort: [{ field: '_score', order: 'desc' }] });
        const kept = relative(cut).search({ text: 'blue dream vape' });
        // Never more than without the cut, never nothing when something matched, best match kept.
        expect(kept.total).toBeLessThanOrEqual(all.total);
        expect(kept.total).toBeGreaterThan(0);
        expect(ids(kept)).toContain(all.items[0].id);
      }),
      { seed: 11, numRuns: 40 },
    );
  });
});
