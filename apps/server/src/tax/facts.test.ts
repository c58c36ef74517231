/** TaxFactsMemo: what a cart read keeps of its products' tax facts, and what a change drops. */
import { expect, it } from 'vitest';
import { TaxFactsMemo, type ProductTaxFacts } from './facts.ts';

const facts = (thcPercent: number): ProductTaxFacts => ({ kind: 'flower', thcPercent });

it('reads only the products it does not hold, and keeps what it read', async () => {
  const memo = new TaxFactsMemo();
  const asked: number[][] = [];
  const load = async (ids: readonly number[]) => {
    asked.push([...ids]);
    return new Map(ids.map((id) => [id, facts(id)]));
  };
  expect([...(await memo.read([1, 2], load))]).toEqual([
    [1, facts(1)],
    [2, facts(2)],
  ]);
  expect([...(await memo.read([2, 3], load)).keys()].sort()).toEqual([2, 3]);
  expect(await memo.read([1, 2, 3], load)).toEqual(
    new Map([
      [1, facts(1)],
      [2, facts(2)],
      [3, facts(3)],
    ]),
  );
  expect(asked).toEqual([[1, 2], [3]]);
  // A product with no row is answered without facts, and asked again next time.
  const none = async (ids: readonly number[]) => (asked.push([...ids]), new Map<number, ProductTaxFacts>());
  expect((await memo.read([9], none)).size).toBe(0);
  await memo.read([9], none);
  expect(asked.slice(2)).toEqual([[9], [9]]);
});

it('keeps nothing read before a change that came while it was read', async () => {
  const memo = new TaxFactsMemo();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slow = memo.read([1], async (ids) => {
    await gate;
    return new Map(ids.map((id) => [id, facts(10)]));
  });
  memo.clear(); // the catalogue changed while the rows were read
  release();
  expect((await slow).get(1)).toEqual(facts(10)); // the caller still gets its answer
  expect(memo.size).toBe(0);
  const fresh = await memo.read([1], async (ids) => new Map(ids.map((id) => [id, facts(20)])));
  expect(fresh.get(1)).toEqual(facts(20));
  expect(memo.size).toBe(1);
  memo.clear();
  expect(memo.size).toBe(0);
});
