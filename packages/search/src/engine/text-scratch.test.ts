/**
 * Issue 15 (memory per product): every text index shares one set of search scratch (scores,
 * matched-term masks, stamps) and keeps field lengths in 16-bit arrays, widened when a field is
 * longer. Searches that alternate between indices of different sizes must answer exactly as each
 * index searched alone, and a field of more than 65,535 tokens must keep its true length.
 */
import { describe, expect, it } from 'vitest';
import { productSearchQuery } from '../catalog/product-query.ts';
import { createProductIndex } from '../catalog/schemas.ts';
import { GENERATOR_NOW, generateProducts, STRAIN_NAMES } from '../../test-support/generator.ts';
import { DEFAULT_TEXT_OPTIONS } from './create-index.ts';
import { TextIndex, textTerms } from './text-index.ts';

const QUERIES = STRAIN_NAMES.slice(0, 40).flatMap((name, i) => {
  const lower = name.toLowerCase();
  const typo = lower.length > 4 ? lower.slice(0, 2) + lower.slice(3) : lower;
  return [lower, typo, lower.slice(0, 3 + (i % 3))];
});

function answers(index: ReturnType<typeof createProductIndex>, storeId: number) {
  return QUERIES.map((text) => {
    const r = index.search(productSearchQuery({ storeId, text, size: 50 }), { now: GENERATOR_NOW });
    return { text, total: r.total, ids: r.items.map((p) => p.id), suggestions: r.suggestions };
  });
}

describe('text indices sharing search scratch', () => {
  it('answer alternating searches over a small and a large index as each alone', () => {
    const small = generateProducts({ count: 150, storeId: 1, seed: 7 });
    const large = generateProducts({ count: 2500, storeId: 2, seed: 11, firstId: 100_000 });
    const alone = (docs: typeof small, storeId: number) => {
      const index = createProductIndex();
      index.replaceAll(docs);
      return answers(index, storeId);
    };
    const expectedSmall = alone(small, 1);
    const expectedLarge = alone(large, 2);
    expect(expectedSmall.some((a) => a.total > 0) && expectedLarge.some((a) => a.total > 0)).toBe(true);

    const a = createProductIndex();
    const b = createProductIndex();
    a.replaceAll(small);
    b.replaceAll(large);
    // Small first (scratch sized for it), then the large one grows the scratch, then both in turn.
    const got = QUERIES.map((text) => {
      const one = a.search(productSearchQuery({ storeId: 1, text, size: 50 }), { now: GENERATOR_NOW });
      const two = b.search(productSearchQuery({ storeId: 2, text, size: 50 }), { now: GENERATOR_NOW });
      return [
        { text, total: one.total, ids: one.items.map((p) => p.id), suggestions: one.suggestions },
        { text, total: two.total, ids: two.items.map((p) => p.id), suggestions: two.suggestions },
      ];
    });
    expect(got.map(([one]) => one)).toEqual(expectedSmall);
    expect(got.map(([, two]) => two)).toEqual(expectedLarge);
  });

  it('scores the same terms the same whichever index was searched in between', () => {
    const first = new TextIndex({ name: 5, description: 3 }, DEFAULT_TEXT_OPTIONS);
    const other = new TextIndex({ name: 1 }, DEFAULT_TEXT_OPTIONS);
    const docs = generateProducts({ count: 300, seed: 3 });
    docs.forEach((d, slot) => first.add(slot, d));
    generateProducts({ count: 900, seed: 4 }).forEach((d, slot) => other.add(slot, d));
    const scoresOf = (terms: string[]) => {
      const m = first.search(terms, true, 300);
      const out: [number, number][] = [];
      for (let slot = 0; slot < 300; slot++) if ((m.bits[slot >>> 5] >>> (slot & 31)) & 1) out.push([slot, m.scores[slot]]);
      return out;
    };
    const terms = textTerms('blue dream kush');
    const before = scoresOf(terms);
    expect(before.length).toBeGreaterThan(0);
    other.search(textTerms('gelato haze'), true, 900);
    expect(scoresOf(terms)).toEqual(before);
  });

  it('keeps the true length of a field of more than 65,535 tokens', () => {
    const text = new TextIndex({ description: 1 }, { ...DEFAULT_TEXT_OPTIONS, minRelativeScore: 0 });
    const filler = (n: number) => Array.from({ length: n }, () => 'w').join(' ');
    // 70,000 tokens and 70,000 − 65,536: the same score only if the length wrapped at 16 bits.
    text.add(0, { description: `kush ${filler(69_999)}` });
    text.add(1, { description: `kush ${filler(70_000 - 65_536 - 1)}` });
    text.add(2, { description: 'other words here' });
    const m = text.search(['kush'], false, 3);
    expect(m.scores[0]).toBeGreaterThan(0);
    expect(m.scores[0]).toBeLessThan(m.scores[1]);
  });
});
