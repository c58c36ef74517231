import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cultivationFacts, groupDiscoveryTags, infusedPotency, mgLabel, potencyLine, potencySummary } from './product-facts.ts';

const attrs = (values: Record<string, string>) => ({ custom_attributes: Object.entries(values).map(([attribute_code, value]) => ({ attribute_code, value })) });

describe('infused potency', () => {
  it('states a divided edible per package and per piece', () => {
    const p = infusedPotency(attrs({ thc_mg: '100', cbd_mg: '0', pieces: '10' }));
    expect(p).toEqual({ thcMg: 100, cbdMg: null, pieces: 10 });
    expect(potencyLine(p!, 'package')).toBe('100 mg THC');
    expect(potencyLine(p!, 'piece')).toBe('10 mg THC');
    expect(potencySummary(p!)).toBe('100 mg THC · 10 mg per piece');
  });

  it('states both cannabinoids, and hemp CBD products by their CBD', () => {
    const balanced = infusedPotency(attrs({ thc_mg: '100', cbd_mg: '100', pieces: '20' }))!;
    expect(potencyLine(balanced, 'piece')).toBe('5 mg THC · 5 mg CBD');
    const hemp = infusedPotency(attrs({ thc_mg: '0', cbd_mg: '300', pieces: '30' }))!;
    expect(potencySummary(hemp)).toBe('300 mg CBD · 10 mg per piece');
    const tincture = infusedPotency(attrs({ thc_mg: '1000', cbd_mg: '0' }))!;
    expect(potencyLine(tincture, 'piece')).toBeNull();
    expect(potencySummary(tincture)).toBe('1000 mg THC');
  });

  it('is null for products that state no potency, and ignores nonsense', () => {
    expect(infusedPotency(attrs({ grow_type: 'Indoor' }))).toBeNull();
    expect(infusedPotency({})).toBeNull();
    expect(infusedPotency(attrs({ thc_mg: 'lots' }))).toBeNull();
    expect(infusedPotency(attrs({ thc_mg: '100', pieces: '1' }))?.pieces).toBeNull();
    expect(infusedPotency(attrs({ thc_mg: '100', pieces: '2.5' }))?.pieces).toBeNull();
  });

  it('per piece times pieces is the package, to the label’s precision', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2, max: 100 }), (thc, pieces) => {
        const p = infusedPotency(attrs({ thc_mg: String(thc), pieces: String(pieces) }))!;
        const perPiece = Number(potencyLine(p, 'piece')!.replace(' mg THC', ''));
        expect(Math.abs(perPiece * pieces - thc)).toBeLessThanOrEqual(0.05 * pieces + 1e-9);
      }),
      { seed: 3, numRuns: 200 },
    );
    expect(mgLabel(100 / 3)).toBe('33.3 mg');
  });
});

describe('cultivation facts', () => {
  it('names grow type, lineage and the dominant terpene; an unknown lineage is left out', () => {
    expect(cultivationFacts(attrs({ grow_type: 'Sun-grown', lineage: 'Blueberry × Haze', dominant_terpene: 'myrcene' }))).toEqual([
      ['Grow type', 'Sun-grown'],
      ['Lineage', 'Blueberry × Haze'],
      ['Dominant terpene', 'Myrcene'],
    ]);
    expect(cultivationFacts(attrs({ lineage: 'unknown' }))).toEqual([]);
  });
});

describe('good-to-know tags in groups', () => {
  it('sorts effects, flavours, what it may help with and when, in a fixed order', () => {
    expect(groupDiscoveryTags(['pain', 'relaxed', 'berry', 'evening', 'happy', 'gift', 'sweet'])).toEqual([
      { key: 'effects', title: 'Effects', tags: ['relaxed', 'happy'] },
      { key: 'flavours', title: 'Flavours and aromas', tags: ['berry', 'sweet'] },
      { key: 'helps', title: 'May help with', tags: ['pain'] },
      { key: 'times', title: 'Best time', tags: ['evening'] },
      { key: 'other', title: 'Also', tags: ['gift'] },
    ]);
    expect(groupDiscoveryTags([])).toEqual([]);
  });

  it('keeps every tag exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('calm', 'citrus', 'stress', 'morning', 'bundle', 'pine', 'diesel', 'sleepy')), (tags) => {
        const out = groupDiscoveryTags(tags).flatMap((g) => g.tags);
        expect(out.sort()).toEqual([...new Set(tags)].sort());
      }),
      { seed: 5 },
    );
  });
});
