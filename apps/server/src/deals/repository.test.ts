import { beforeAll, expect, it } from 'vitest';
import { DEMO_DEAL_INPUTS } from '@verdant/domain';
import { DEMO_STORES_FILE } from '../config.ts';
import { syncStores } from '../db/index.ts';
import { readStoresFile } from '../seed/stores-file.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { ApiError } from '../http/envelope.ts';
import { DealsRepository } from './repository.ts';

const manager = { type: 'staff' as const, id: 7, name: 'Mia Manager' };
const wax = DEMO_DEAL_INPUTS.find((d) => d.id === 'wax-wednesday')!;

async function refused(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describeEachDatabase('deals repository', (getDb) => {
  let repo: DealsRepository;
  beforeAll(async () => {
    await syncStores(getDb().db, readStoresFile(DEMO_STORES_FILE), new Date('2026-06-15T12:00:00Z'));
    repo = new DealsRepository({ db: getDb().db, ttlMs: 60_000 });
  });

  it('creates a deal with a history row, and refuses a second deal with the same id', async () => {
    const deal = await repo.create(1, wax, manager, { source: 'console' });
    expect(deal).toMatchObject({ storeId: 1, code: 'wax-wednesday', kind: 'set_discount', status: 'active', version: 1, redeemed: 0, createdBy: 'Mia Manager' });
    expect(deal.record.kind === 'set_discount' && deal.record.reward).toEqual({ type: 'percent', percent: 20 });
    const history = await repo.history(1, deal.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: 'create', before: null, source: 'console', actor: { type: 'staff', id: 7, name: 'Mia Manager' } });
    expect(history[0]!.after.id).toBe('wax-wednesday');
    const again = await refused(repo.create(1, wax, manager, { source: 'console' }));
    expect(again.statusCode).toBe(409);
    expect(again.extra?.errorCode).toBe('deal_exists');
    // Another store may use the same id.
    expect((await repo.create(2, wax, manager, { source: 'console' })).code).toBe('wax-wednesday');
  });

  it('validates the record with the model schema and names the field', async () => {
    const bad = await refused(repo.create(1, { ...wax, id: 'bad-percent', reward: { type: 'percent', percent: 120 } }, manager, { source: 'console' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.extra?.errorCode).toBe('invalid_deal');
    expect(bad.message).toMatch(/percent/);
    expect(await repo.getByCode(1, 'bad-percent')).toBeUndefined();
  });

  it('makes an id from the title when none is given, unique in the store', async () => {
    const { id: _id, ...noId } = DEMO_DEAL_INPUTS.find((d) => d.id === 'any-3-eighths-90')!;
    const a = await repo.create(3, noId, manager, { source: 'console' });
    const b = await repo.create(3, noId, manager, { source: 'console' });
    expect(a.code).toBe('any-3-eighths-for-90');
    expect(b.code).toBe('any-3-eighths-for-90-2');
  });

  it('updates over the version read, keeps the id and the status, and writes before/after', async () => {
    const deal = await repo.create(1, { ...wax, id: 'wax-thursday', schedule: { days: [4] } }, manager, { source: 'console' });
    const updated = await repo.update(1, deal.id, { ...deal.record, title: 'Wax Thursday: 25% off', reward: { type: 'percent', percent: 25 } }, 1, manager, { source: 'console' });
    expect(updated).toMatchObject({ version: 2, title: 'Wax Thursday: 25% off', code: 'wax-thursday', status: 'active' });
    const stale = await refused(repo.update(1, deal.id, deal.record, 1, manager, { source: 'console' }));
    expect(stale.statusCode).toBe(409);
    expect(stale.extra?.errorCode).toBe('stale_deal');
    expect((stale.extra?.meta?.current as { version: number }).version).toBe(2);
    const rename = await refused(repo.update(1, deal.id, { ...deal.record, id: 'other' }, 2, manager, { source: 'console' }));
    expect(rename.statusCode).toBe(400);
    const [last] = await repo.history(1, deal.id);
    expect(last).toMatchObject({ action: 'update' });
    expect(last!.before?.kind === 'set_discount' && last!.before.reward).toEqual({ type: 'percent', percent: 20 });
    expect(last!.after.kind === 'set_discount' && last!.after.reward).toEqual({ type: 'percent', percent: 25 });
  });

  it('pauses, resumes and ends; an ended deal stays ended and cannot be edited', async () => {
    const deal = await repo.create(1, { ...wax, id: 'wax-friday' }, manager, { source: 'api' }).then((d) => d);
    const paused = await repo.setStatus(1, deal.id, 'pause', 1, manager, { source: 'console' });
    expect(paused).toMatchObject({ status: 'paused', version: 2 });
    expect(paused.record.status).toBe('paused');
    expect((await repo.setStatus(1, deal.id, 'resume', 2, manager, { source: 'console' })).status).toBe('active');
    const ended = await repo.setStatus(1, deal.id, 'end', null, manager, { source: 'console' });
    expect(ended).toMatchObject({ status: 'ended', version: 4 });
    // Ending twice is the same answer (a retried DELETE), without a new history row.
    expect((await repo.setStatus(1, deal.id, 'end', null, manager, { source: 'console' })).version).toBe(4);
    expect((await refused(repo.setStatus(1, deal.id, 'resume', null, manager, { source: 'console' }))).extra?.errorCode).toBe('deal_status');
    expect((await refused(repo.update(1, deal.id, ended.record, 4, manager, { source: 'console' }))).extra?.errorCode).toBe('deal_ended');
    expect((await repo.history(1, deal.id)).map((h) => h.action)).toEqual(['end', 'resume', 'pause', 'create']);
  });

  it('keeps another store out: 404 on a deal of another store', async () => {
    const deal = await repo.getByCode(1, 'wax-wednesday');
    const e = await refused(repo.setStatus(2, deal!.id, 'pause', null, manager, { source: 'console' }));
    expect(e.statusCode).toBe(404);
  });

  it('finds a deal by its external id, unique per store', async () => {
    const d = await repo.create(4, { ...wax, id: 'pos-1' }, { type: 'api_key', id: 3, name: 'POS' }, { source: 'api', externalId: 'POS-DEAL-1' });
    expect((await repo.getByExternalId(4, 'POS-DEAL-1'))?.id).toBe(d.id);
    const clash = await refused(repo.create(4, { ...wax, id: 'pos-2' }, manager, { source: 'api', externalId: 'POS-DEAL-1' }));
    expect(clash.extra?.errorCode).toBe('deal_exists');
  });

  it('caches the active deals per store and drops the cache on a change', async () => {
    const before = await repo.active(1);
    const codes = before.map((d) => d.code);
    expect(codes).toContain('wax-wednesday');
    expect(codes).not.toContain('wax-friday');
    // A write behind the repository's back is not seen until the cache expires or is dropped…
    await getDb().db.updateTable('deals').set({ status: 'paused' }).where('store_id', '=', 1).where('code', '=', 'wax-wednesday').execute();
    expect((await repo.active(1)).map((d) => d.code)).toEqual(codes);
    // …a change through the repository drops it.
    const thursday = await repo.getByCode(1, 'wax-thursday');
    await repo.setStatus(1, thursday!.id, 'pause', null, manager, { source: 'console' });
    const after = (await repo.active(1)).map((d) => d.code);
    expect(after).not.toContain('wax-thursday');
    expect(after).not.toContain('wax-wednesday');
  });

  it('lets exactly one of 20 parallel edits over the same version through', async () => {
    const deal = await repo.create(1, { ...wax, id: 'race' }, manager, { source: 'console' });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => repo.update(1, deal.id, { ...deal.record, title: `Race ${i}` }, 1, manager, { source: 'console' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r.reason as ApiError).extra?.errorCode === 'stale_deal')).toBe(true);
    expect((await repo.history(1, deal.id)).map((h) => h.action)).toEqual(['update', 'create']);
  });
});
