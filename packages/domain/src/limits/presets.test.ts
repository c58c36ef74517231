import { describe, expect, it } from 'vitest';
import { LICENSE_TYPES, type LicenseType } from '../license.ts';
import { evaluateLimits, formatLimitAmount, type LimitCartLine } from './evaluate.ts';
import { LIMIT_MEASURES, modelNeedsResidency, RESIDENCIES, type LimitBucket, type LimitMeasure, type Residency } from './model.ts';
import type { LimitProductFacts } from './amounts.ts';
import { LIMIT_PRESETS, limitPreset, type LimitPresetId } from './presets.ts';

/** A package carrying `grams`/`mg` (thousandths) of exactly one measure. */
function packageOf(measure: LimitMeasure, milli: number): LimitProductFacts {
  const x = milli / 1000;
  if (measure === 'flower_g') return { unit: 'ea', weight_g: x };
  if (measure === 'concentrate_g') return { unit: 'ea', weight_g: x, concentrate_g: x };
  return { unit: 'ea', weight_g: 50, thc_mg: x };
}

/** The measure a bucket's table test fills it with, and how much of it makes exactly `cap`. */
function fill(bucket: LimitBucket, cap: number): { measure: LimitMeasure; milli: number } {
  const measure = LIMIT_MEASURES.find((m) => bucket.counts[m])!;
  const f = bucket.counts[measure]!;
  const milli = (cap * f.amount) / f.countsAs;
  expect(Number.isInteger(milli), `${bucket.id}: the cap is a whole number of ${measure} thousandths`).toBe(true);
  return { measure, milli };
}

const now = new Date('2026-11-25T20:00:00Z');
const rows: Array<[LimitPresetId, string, LicenseType, Residency]> = [];
for (const id of Object.keys(LIMIT_PRESETS) as LimitPresetId[]) {
  for (const b of limitPreset(id).buckets) {
    for (const type of LICENSE_TYPES) for (const res of RESIDENCIES) if (b.caps[type][res].kind === 'cap') rows.push([id, b.id, type, res]);
  }
}

describe('presets: every bucket, exactly at the cap accepted, one unit over refused', () => {
  it('covers every capped bucket of the six states', () => {
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(['CA', 'CO', 'MI', 'IL', 'MA', 'NV']));
    expect(rows.length).toBeGreaterThanOrEqual(20);
  });

  it.each(rows)('%s %s, %s %s', (presetId, bucketId, customerType, residency) => {
    const model = limitPreset(presetId);
    const bucket = model.buckets.find((b) => b.id === bucketId)!;
    const cap = bucket.caps[customerType][residency];
    if (cap.kind !== 'cap') throw new Error('row without a cap');
    const { measure, milli } = fill(bucket, cap.max);
    const base = { customerType, residency, now, timezone: 'America/Los_Angeles', earlierOrders: [] };
    const atCap: LimitCartLine[] = [{ id: 'a', qty: 1, facts: packageOf(measure, milli) }];

    const at = evaluateLimits(model, { ...base, cartLines: atCap });
    expect(at.ok, at.message ?? '').toBe(true);
    const meter = at.meters.find((m) => m.bucketId === bucketId)!;
    expect(meter).toMatchObject({ inCart: cap.max, remaining: 0, over: false });

    // One thousandth of the measure more (0.001 g, or 1 µg of THC).
    const over = evaluateLimits(model, { ...base, cartLines: [...atCap, { id: 'b', qty: 1, facts: packageOf(measure, 1) }] });
    expect(over.ok).toBe(false);
    const v = over.violations.find((x) => x.bucketId === bucketId)!;
    expect(v.excess).toBeGreaterThan(0);
    // The equivalence rounds a part-unit up; one measure unit is at most a few bucket units.
    expect(v.excess).toBe(Math.ceil(bucket.counts[measure]!.countsAs / bucket.counts[measure]!.amount));
    expect(v.message.toLowerCase()).toContain(bucket.label.toLowerCase());
    expect(v.message).toContain(formatLimitAmount(v.excess, bucket.unit));
    // The fix: take the 0.001 line off.
    expect(v.remove).toEqual([{ lineId: 'b', qty: 1 }]);
  });
});

describe('preset specifics', () => {
  it('California: 28.5 g of flower and 8 g of concentrate, per day, counted separately', () => {
    const ca = limitPreset('CA');
    const r = evaluateLimits(ca, {
      customerType: 'recreational',
      residency: null,
      now,
      timezone: 'America/Los_Angeles',
      cartLines: [
        { id: 'flower', qty: 2, facts: { unit: 'g', weight_g: 14 } },
        { id: 'flower-half', qty: 1, facts: { unit: 'ea', weight_g: 0.5 } },
        { id: 'cart', qty: 8, facts: { unit: 'ea', weight_g: 1, concentrate_g: 1 } },
      ],
    });
    expect(r.ok).toBe(true);
    expect(r.meters.filter((m) => m.cap.kind === 'cap').map((m) => m.text)).toEqual(['28.5 g of 28.5 g per day', '8 g of 8 g per day']);
  });

  it('California: an edible counts its mg of THC toward concentrate (1000 mg = 1 g)', () => {
    const r = evaluateLimits(limitPreset('CA'), {
      customerType: 'recreational',
      residency: 'resident',
      now,
      timezone: 'America/Los_Angeles',
      cartLines: [
        { id: 'vape', qty: 7, facts: { unit: 'ea', weight_g: 1, concentrate_g: 1 } },
        { id: 'gummies', qty: 11, facts: { unit: 'ea', weight_g: 60, thc_mg: 100 } },
      ],
    });
    expect(r.violations.map((v) => [v.bucketId, v.excess])).toEqual([['concentrate', 100]]);
    expect(r.message).toBe(
      'Your cart contains 0.1 g more concentrate than the concentrate limit of 8 g per day allows. Please remove 0.1 g from your cart.',
    );
    expect(r.remove).toEqual([{ lineId: 'gummies', qty: 1 }]);
  });

  it('Colorado: 1 oz of flower = 8 g of concentrate = 800 mg of THC, mixed in one bucket per order', () => {
    const co = limitPreset('CO');
    const input = (lines: LimitCartLine[]) => ({
      customerType: 'recreational' as const,
      residency: 'non_resident' as const,
      now,
      timezone: 'America/Denver',
      cartLines: lines,
    });
    const half = [
      { id: 'flower', qty: 1, facts: { unit: 'ea' as const, weight_g: 14.1745 } },
      { id: 'wax', qty: 2, facts: { unit: 'ea' as const, weight_g: 2, concentrate_g: 2 } },
    ];
    // 14.175 g flower (the menu's grams, to the mg) + 4 g concentrate (= 14.1745 g) = 28.3495 g: half a
    // milligram over 28.349 g — refused; the amounts shown are rounded up to the mg.
    const r = evaluateLimits(co, input(half));
    expect(r.meters[0].inCart).toBe(28_350);
    expect(r.ok).toBe(false);
    expect(r.message).toBe(
      'Your cart contains 0.001 g more flower equivalent than can be in a single order. Please remove 0.001 g from your cart.',
    );
    // The same with 400 mg of edibles instead of the wax.
    const edibles = evaluateLimits(co, input([half[0], { id: 'gummies', qty: 4, facts: { unit: 'ea', weight_g: 40, thc_mg: 100 } }]));
    expect(edibles.meters[0].inCart).toBe(28_350);
    expect(edibles.ok).toBe(false);
    // Exactly 1 oz as 800 mg of THC, or as eight 1 g carts, is accepted: nothing is rounded before the
    // comparison (a per-package round-up would make each cart 3.544 g and refuse the eighth).
    expect(evaluateLimits(co, input([{ id: 'g', qty: 8, facts: { unit: 'ea', weight_g: 40, thc_mg: 100 } }])).ok).toBe(true);
    const carts = evaluateLimits(co, input([{ id: 'c', qty: 8, facts: { unit: 'ea', weight_g: 1, concentrate_g: 1 } }]));
    expect(carts.ok).toBe(true);
    expect(carts.meters[0]).toMatchObject({ inCart: 28_349, remaining: 0 });
    // 7 g of flower, four 1 g carts and 200 mg of gummies.
    const mixed = [
      { id: 'f', qty: 1, facts: { unit: 'ea' as const, weight_g: 7, flower_equivalent_g: null } },
      { id: 'c', qty: 4, facts: { unit: 'ea' as const, weight_g: 1, concentrate_g: 1 } },
      { id: 'g', qty: 2, facts: { unit: 'ea' as const, weight_g: 40, thc_mg: 100 } },
    ];
    // 7 g + 14.1745 g + 7.08725 g = 28.26175 g: within; one more gummy (3.543625 g) is over.
    expect(evaluateLimits(co, input(mixed)).ok).toBe(true);
    expect(evaluateLimits(co, input([...mixed.slice(0, 2), { ...mixed[2], qty: 3 }])).ok).toBe(false);
  });

  it('Illinois: non-residents are held to half the caps; the model asks for residency', () => {
    const il = limitPreset('IL');
    expect(modelNeedsResidency(il)).toBe(true);
    expect(modelNeedsResidency(limitPreset('CA'))).toBe(false);
    const cart = [{ id: 'flower', qty: 1, facts: { unit: 'g' as const, weight_g: 28 } }];
    const base = { customerType: 'recreational' as const, now, timezone: 'America/Chicago', cartLines: cart };
    expect(evaluateLimits(il, { ...base, residency: 'resident' }).ok).toBe(true);
    const nr = evaluateLimits(il, { ...base, residency: 'non_resident' });
    expect(nr.violations.map((v) => [v.bucketId, formatLimitAmount(v.excess, v.unit)])).toEqual([['flower', '13 g']]);
    // Residency not asked yet: the stricter (non-resident) cap.
    expect(evaluateLimits(il, { ...base, residency: null }).ok).toBe(false);
  });

  it('every preset validates, and its raw input is not changed by parsing', () => {
    for (const id of Object.keys(LIMIT_PRESETS) as LimitPresetId[]) {
      const before = JSON.stringify(LIMIT_PRESETS[id].model);
      expect(limitPreset(id).buckets.length).toBeGreaterThan(0);
      expect(JSON.stringify(LIMIT_PRESETS[id].model)).toBe(before);
    }
  });
});
