/**
 * Server synchronisation of the cart (spec §4 Cart connection, Sync need), as operation bodies the
 * cart store runs inside its queue (never concurrently). The rules are @verdant/domain's
 * (planCartSync, rollbackFailedUpdate, cartItemsHash, isSyncNeeded); this file executes them:
 *
 *  - a server cart is created when lines exist and no token does; a non-200 token, pull or
 *    "cart not found" starts a new guest cart, at most MAX_CART_BYPASS_ATTEMPTS times, then cart
 *    sync is disabled (the cart keeps working on this device);
 *  - no answer at all (offline) is "unreachable": nothing is rolled back, re-created or dropped;
 *  - the plan's actions run in order against the current lines (the shopper may act meanwhile);
 *  - a refused push is rolled back (previous quantity, or the line removed) and reported, so
 *    the shopper sees the store's reason — no line ever disappears silently (VSF #2044).
 */
import { cartItemsHash, isSyncNeeded, planCartSync, rollbackFailedUpdate, type LicenseType, type SyncAction } from '@verdant/domain';
import type { CartTransport, ServerItem, ServerTotals } from '../api/cart.ts';
import { ApiError, NetworkError, isRefusal } from '../api/envelope.ts';
import { CART_SYNC_FLAGS, MAX_CART_BYPASS_ATTEMPTS } from '../lib/cart-config.ts';
import { CART_MESSAGES } from '../lib/cart-messages.ts';
import { confirmLine, lineFromServer, lineKey, unlinkLines, type CartItem } from './cart-items.ts';

export type SyncStatus = 'idle' | 'unreachable' | 'disabled';

/** The part of the cart state sync reads and writes. */
export interface SyncState {
  items: CartItem[];
  token: string | null;
  licenseType: LicenseType | null;
  lastSyncedHash: string | null;
  lastSyncAt: number | null;
  totals: ServerTotals | null;
  totalsHash: string | null;
  lastTotalsSyncAt: number | null;
  sync: SyncStatus;
  bypassCounter: number;
}

export interface SyncContext {
  get(): SyncState;
  set(patch: Partial<SyncState>): void;
  transport: CartTransport;
  /** The licence a new server cart is created for (the shopper's). */
  licenseType(): LicenseType;
  /** Changes the shopper made since the page loaded; a sync that saw them all may record its hash. */
  localRev(): number;
  now(): number;
}

export interface Refusal {
  key: string;
  name: string;
  message: string;
}

/** A line whose price the store changed since this browser last heard it (a menu change). */
export interface Repricing {
  key: string;
  name: string;
  /** Cents, as the line had it and as the server prices it now. */
  before: number;
  after: number;
}

export interface SyncReport {
  refused: Refusal[];
  repriced: Repricing[];
}

/** A report with nothing in it. */
export const emptyReport = (): SyncReport => ({ refused: [], repriced: [] });

/** The server cart is gone or not ours (400/401/404 on token, pull or update). */
class CartLost extends Error {}

const isNoAnswer = (e: unknown) => e instanceof NetworkError || (e instanceof ApiError && e.status >= 500);

export function createCartSync(ctx: SyncContext) {
  const hashNow = () => cartItemsHash(ctx.get().items, ctx.get().token);
  const patchLine = (key: string, change: (i: CartItem) => CartItem | null) =>
    ctx.set({ items: ctx.get().items.flatMap((i) => (lineKey(i) !== key ? [i] : ((x) => (x ? [x] : []))(change(i)))) });

  /** Spec §4: a token is made only when lines exist. False when there is none to use. */
  async function ensureToken(): Promise<boolean> {
    const s = ctx.get();
    if (s.sync === 'disabled') return false;
    if (s.token) return true;
    if (s.items.length === 0) return false;
    for (;;) {
      try {
        const licenseType = ctx.licenseType();
        const token = await ctx.transport.create(licenseType);
        ctx.set({ token, licenseType, sync: 'idle', items: unlinkLines(ctx.get().items) });
        return true;
      } catch (e) {
        if (e instanceof NetworkError) {
          ctx.set({ sync: 'unreachable' });
          return false;
        }
        if (!bypass()) return false;
      }
    }
  }

  /** Count one bypass attempt; false (and sync disabled) once the maximum is passed. */
  function bypass(): boolean {
    const bypassCounter = ctx.get().bypassCounter + 1;
    if (bypassCounter > MAX_CART_BYPASS_ATTEMPTS) {
      ctx.set({ bypassCounter, sync: 'disabled', token: null, totals: null, totalsHash: null });
      return false;
    }
    ctx.set({ bypassCounter, token: null, totals: null, totalsHash: null, items: unlinkLines(ctx.get().items) });
    return true;
  }

  /**
   * A line the server already confirmed takes the price the server gives it now, and the shopper
   * is told when it differs from the one the line showed (the store changed its menu meanwhile).
   * A line's first confirmation is not a change: the product page may have shown a guest price.
   */
  function takeNewPrices(serverItems: readonly ServerItem[], report: SyncReport): void {
    const byId = new Map(serverItems.map((s) => [s.item_id, s]));
    for (const item of ctx.get().items) {
      const server = item.server_item_id != null && item.server_cart_id === ctx.get().token ? byId.get(item.server_item_id) : undefined;
      if (server?.price == null || server.price === item.price) continue;
      if (item.price > 0) report.repriced.push({ key: lineKey(item), name: item.name, before: item.price, after: server.price });
      patchLine(lineKey(item), (i) => ({ ...i, price: server.price! }));
    }
  }

  async function execute(action: SyncAction, token: string, report: SyncReport): Promise<void> {
    const items = ctx.get().items;
    switch (action.kind) {
      case 'push': {
        const item = items.find((i) => i.sku === action.sku);
        if (!item) return;
        try {
          const server = await ctx.transport.update(token, {
            sku: item.sku,
            qty: action.qty,
            quoteId: token,
            size: item.size,
            ...(item.product_option ? { product_option: item.product_option } : {}),
            ...(action.serverItemId != null ? { item_id: action.serverItemId } : {}),
          });
          patchLine(lineKey(item), (i) => confirmLine(i, server, token));
        } catch (e) {
          if (isNoAnswer(e)) throw e;
          if (e instanceof ApiError && e.status === 404 && /cart/i.test(e.message)) throw new CartLost();
          const message = e instanceof ApiError ? e.message : String(e);
          const rollback = rollbackFailedUpdate(item);
          patchLine(lineKey(item), (i) => (rollback.kind === 'restore' ? { ...i, qty: rollback.qty } : null));
          report.refused.push({ key: lineKey(item), name: item.name, message });
        }
        return;
      }
      case 'remove-local': {
        const item = items.find((i) => i.sku === action.sku);
        if (item) report.refused.push({ key: lineKey(item), name: item.name, message: CART_MESSAGES.outOfStock });
        ctx.set({ items: items.filter((i) => i.sku !== action.sku) });
        return;
      }
      case 'take-server':
        ctx.set({ items: items.map((i) => (i.sku === action.sku ? { ...confirmLine(i, action.server as ServerItem, token), qty: action.server.qty } : i)) });
        return;
      case 'link':
        ctx.set({ items: items.map((i) => (i.sku === action.sku ? withServerErrors(confirmLine(i, action.server as ServerItem, token), action.server as ServerItem) : i)) });
        return;
      case 'delete-server':
        await ctx.transport.remove(token, { item_id: action.server.item_id, quoteId: token });
        return;
      case 'add-local':
        ctx.set({ items: [...items, lineFromServer(action.server as ServerItem, token)] });
        return;
    }
  }

  /**
   * Pull, plan, execute, then totals. `force`: sync even when the hash says nothing changed;
   * `forceClientState`: the client is authoritative (the shopper's own change, or in checkout).
   * `takeServer`: the server is, for quantities too (after the server itself changed the cart, as
   * Buy again does: its lines come in, and a line it grew keeps the server's quantity).
   */
  async function sync({ force = false, forceClientState = false, takeServer = false }: { force?: boolean; forceClientState?: boolean; takeServer?: boolean } = {}): Promise<SyncReport> {
    const report = emptyReport();
    for (let attempt = 0; attempt <= MAX_CART_BYPASS_ATTEMPTS; attempt++) {
      if (!(await ensureToken())) return report;
      const token = ctx.get().token!;
      const seen = ctx.localRev();
      const s = ctx.get();
      if (!force && !isSyncNeeded({ lastSyncedHash: s.lastSyncedHash, lastSyncAt: s.lastSyncAt }, hashNow())) {
        await refreshTotals();
        return report;
      }
      try {
        const serverItems = await ctx.transport.pull(token);
        takeNewPrices(serverItems, report);
        const plan = planCartSync(ctx.get().items, serverItems, { ...CART_SYNC_FLAGS, forceClientState, ...(takeServer ? { serverSyncCanModifyLocalItems: true } : {}) });
        for (const action of plan.actions) await execute(action, token, report);
      } catch (e) {
        if (isNoAnswer(e)) {
          ctx.set({ sync: 'unreachable' });
          return report;
        }
        if (e instanceof CartLost || isRefusal(e)) {
          if (!bypass()) return report;
          continue;
        }
        throw e;
      }
      ctx.set({ sync: 'idle', bypassCounter: 0, ...(ctx.localRev() === seen ? { lastSyncedHash: hashNow(), lastSyncAt: ctx.now() } : {}) });
      await refreshTotals();
      return report;
    }
    return report;
  }

  /** Server totals (spec §4: totals sync follows the same rule as cart sync). */
  async function refreshTotals(force = false): Promise<void> {
    const { token, sync: status, totalsHash, lastTotalsSyncAt } = ctx.get();
    if (!token || status === 'disabled') return;
    const hash = hashNow();
    if (!force && !isSyncNeeded({ lastSyncedHash: totalsHash, lastSyncAt: lastTotalsSyncAt }, hash)) return;
    try {
      setTotals(await ctx.transport.totals(token), hash);
    } catch (e) {
      if (isNoAnswer(e)) ctx.set({ sync: 'unreachable' });
    }
  }

  function setTotals(totals: ServerTotals, hash = hashNow()): void {
    ctx.set({ totals, totalsHash: hash, lastTotalsSyncAt: ctx.now() });
  }

  /** Stock of every line (spec §4): 'In stock!' as info, or 'Out of stock!' as the line's error. Lines stay. */
  async function syncStock(): Promise<void> {
    const skus = [...new Set(ctx.get().items.map((i) => i.sku))];
    if (skus.length === 0) return;
    let stock;
    try {
      stock = await ctx.transport.stockList(skus);
    } catch {
      return;
    }
    const bySku = new Map(stock.map((s) => [s.sku, s]));
    ctx.set({
      items: ctx.get().items.map((i) => {
        const s = bySku.get(i.sku);
        if (!s) return i;
        const enough = s.is_in_stock && (s.available_qty == null || s.available_qty >= i.qty);
        return enough ? { ...i, info: { stock: CART_MESSAGES.inStock }, errors: {} } : { ...i, info: {}, errors: { stock: CART_MESSAGES.outOfStock } };
      }),
    });
  }

  return { ensureToken, sync, refreshTotals, setTotals, syncStock };
}

/** A line the server can no longer sell (disabled, price gone) says why on the line. */
function withServerErrors(item: CartItem, server: ServerItem): CartItem {
  return server.errors?.stock ? { ...item, errors: { stock: server.errors.stock } } : item;
}

export type CartSync = ReturnType<typeof createCartSync>;
