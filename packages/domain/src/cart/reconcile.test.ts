import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_SYNC_FLAGS,
  cartItemsHash,
  isSyncNeeded,
  itemsMatch,
  planCartSync,
  rollbackFailedUpdate,
  type ClientCartItem,
  type ServerCartItem,
} from './reconcile.ts';

const client = (over: Partial<ClientCartItem> = {}): ClientCartItem => ({ sku: 'PR-1', qty: 2, type_id: 'simple', ...over });
const server = (over: Partial<ServerCartItem> = {}): ServerCartItem => ({ item_id: 11, sku: 'PR-1', qty: 2, quote_id: 'cart-a', product_type: 'simple', ...over });
const flags = (over = {}) => ({ ...DEFAULT_SYNC_FLAGS, ...over });

// The merge cases of VSF 1.12's mergeActions.spec, re-expressed as rules of our planner.
describe('cart merge (VSF mergeActions cases)', () => {
  it('updates the client item with the server ids when the server confirms it', () => {
    expect(planCartSync([client()], [server()]).actions).toEqual([{ kind: 'link', sku: 'PR-1', server: server() }]);
  });
  it('removes a new item when the server refuses it (it never had it)', () => {
    expect(rollbackFailedUpdate(client({ server_item_id: null, prev_qty: null }))).toEqual({ kind: 'remove' });
  });
  it('restores the quantity of a confirmed item when the server refuses an update', () => {
    expect(rollbackFailedUpdate(client({ server_item_id: 11, qty: 5, prev_qty: 2 }))).toEqual({ kind: 'restore', qty: 2 });
  });
  it('deletes a non-confirmed item when the update fails', () => {
    expect(rollbackFailedUpdate(client({ server_item_id: 11, prev_qty: 0 }))).toEqual({ kind: 'remove' });
  });
  it('applies the server line to the client after a successful update (link, no quantity change)', () => {
    const plan = planCartSync([client({ server_item_id: 11, server_cart_id: 'cart-a' })], [server()]);
    expect(plan).toEqual({ outcomes: [{ sku: 'PR-1', outcome: 'no-changes' }], actions: [] });
  });
  it('pushes a client item the server does not have', () => {
    expect(planCartSync([client()], [])).toEqual({
      outcomes: [{ sku: 'PR-1', outcome: 'no-item' }],
      actions: [{ kind: 'push', sku: 'PR-1', qty: 2, serverItemId: null }],
    });
  });
  it('pushes the client quantity when quantities differ', () => {
    expect(planCartSync([client({ qty: 2 })], [server({ qty: 1 })])).toEqual({
      outcomes: [{ sku: 'PR-1', outcome: 'wrong-qty' }],
      actions: [{ kind: 'push', sku: 'PR-1', qty: 2, serverItemId: 11 }],
    });
  });
  it('adds a server item missing on the client locally', () => {
    const extra = server({ item_id: 12, sku: 'FL-2' });
    expect(planCartSync([], [extra]).actions).toEqual([{ kind: 'add-local', server: extra }]);
  });
  it('deletes a server item missing on the client when client state is forced (checkout)', () => {
    const extra = server({ item_id: 12, sku: 'FL-2' });
    expect(planCartSync([], [extra], flags({ forceClientState: true })).actions).toEqual([{ kind: 'delete-server', server: extra }]);
  });
  it('plans client items first, then server items', () => {
    const plan = planCartSync([client({ sku: 'A' })], [server({ sku: 'B', item_id: 2 })]);
    expect(plan.actions.map((a) => a.kind)).toEqual(['push', 'add-local']);
  });
  it('needs no sync after the merged state was hashed', () => {
    const hash = cartItemsHash([client()], 'cart-a');
    expect(isSyncNeeded({ lastSyncedHash: hash, lastSyncAt: 1 }, hash)).toBe(false);
    expect(isSyncNeeded({ lastSyncedHash: hash, lastSyncAt: 1 }, cartItemsHash([client({ qty: 3 })], 'cart-a'))).toBe(true);
    expect(isSyncNeeded({ lastSyncedHash: null, lastSyncAt: 1 }, hash)).toBe(true);
    expect(isSyncNeeded({ lastSyncedHash: hash, lastSyncAt: null }, hash)).toBe(true);
  });
});

describe('cart sync flags (spec §4)', () => {
  it('removes local items missing on the server only when configured to', () => {
    expect(planCartSync([client()], [], flags({ serverSyncCanRemoveLocalItems: true })).actions).toEqual([{ kind: 'remove-local', sku: 'PR-1' }]);
  });
  it('takes the server quantity only when configured to', () => {
    const s = server({ qty: 1 });
    expect(planCartSync([client()], [s], flags({ serverSyncCanModifyLocalItems: true })).actions).toEqual([{ kind: 'take-server', sku: 'PR-1', server: s }]);
  });
});

describe('matching (spec §4 reconciliation)', () => {
  it('matches configurable lines by sku and size', () => {
    const flower = client({ sku: 'FL-BD', type_id: 'configurable', size: 92 });
    expect(itemsMatch(flower, server({ sku: 'FL-BD', product_type: 'configurable', size: 92 }))).toBe(true);
    expect(itemsMatch(flower, server({ sku: 'FL-BD', product_type: 'configurable', size: 93 }))).toBe(false);
  });
  it('matches by server item id whatever else changed', () => {
    expect(itemsMatch(client({ server_item_id: 7, size: 93, type_id: 'configurable' }), server({ item_id: 7, size: 92 }))).toBe(true);
  });
  it('matches bundles by checksum, not by sku alone', () => {
    const bundle = client({ sku: 'KIT', type_id: 'bundle', checksum: 'abc' });
    expect(itemsMatch(bundle, server({ sku: 'KIT', product_type: 'bundle', checksum: 'abc' }))).toBe(true);
    expect(itemsMatch(bundle, server({ sku: 'KIT', product_type: 'bundle', checksum: 'xyz' }))).toBe(false);
  });
  it('never pairs two client lines with one server line', () => {
    const plan = planCartSync([client({ size: 92, type_id: 'configurable' }), client({ size: 92, type_id: 'configurable' })], [server({ size: 92, product_type: 'configurable' })]);
    expect(plan.outcomes.map((o) => o.outcome)).toEqual(['no-changes', 'no-item']);
  });
});

describe('reported VSF bugs do not happen here', () => {
  it('sums a guest line into the customer cart once on login (#3995), never again (#5743, #4387)', () => {
    const guest = client({ qty: 2, server_item_id: 3, server_cart_id: 'guest-cart' });
    const customer = server({ item_id: 40, qty: 1, quote_id: 'customer-cart' });
    const login = planCartSync([guest], [customer], flags({ mergeQty: true }));
    expect(login.actions).toEqual([{ kind: 'push', sku: 'PR-1', qty: 3, serverItemId: 40 }]);
    // The client executes the push and links the line to the customer cart:
    const linked = { ...guest, qty: 3, server_item_id: 40, server_cart_id: 'customer-cart' };
    const confirmed = { ...customer, qty: 3 };
    // login again, refresh, or a racing second merge: nothing to add up.
    for (const f of [flags({ mergeQty: true }), flags(), flags({ forceClientState: true })]) {
      expect(planCartSync([linked], [confirmed], f).actions).toEqual([]);
    }
  });
  it('logout, login and refresh keep quantities (property: a linked cart is a fixed point)', () => {
    const line = fc.record({ sku: fc.constantFrom('A', 'B', 'C', 'D'), qty: fc.integer({ min: 1, max: 9 }) });
    fc.assert(
      fc.property(fc.uniqueArray(line, { selector: (l) => l.sku, maxLength: 4 }), fc.boolean(), (lines, mergeQty) => {
        const servers = lines.map((l, i) => server({ item_id: i + 1, sku: l.sku, qty: l.qty, quote_id: 'c' }));
        const clients = lines.map((l, i) => client({ sku: l.sku, qty: l.qty, server_item_id: i + 1, server_cart_id: 'c' }));
        return planCartSync(clients, servers, flags({ mergeQty })).actions.length === 0;
      }),
    );
  });
  it('keeps an item just added even before the server has it (#2044): it is pushed, not removed', () => {
    const justAdded = client({ sku: 'NEW', qty: 1 });
    const plan = planCartSync([justAdded], [server()]);
    expect(plan.actions).toContainEqual({ kind: 'push', sku: 'NEW', qty: 1, serverItemId: null });
    expect(plan.actions.some((a) => a.kind === 'remove-local')).toBe(false);
  });
});
