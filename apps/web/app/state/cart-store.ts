/**
 * The cart (spec §3 Cart state, §4 Adding, Removing, Configuring, Clearing, Coupon, Cart edit
 * mode): a Zustand store persisted to IndexedDB per store code and mirrored across tabs. Every
 * change shows at once; everything that talks to the server runs in one queue (./cart-queue.ts)
 * under a cross-tab lock, and first adopts what another tab may have stored meanwhile. A change
 * heard from another tab is only shown, never pushed again: the tab where the shopper acted is
 * the one that tells the server.
 */
import { cartItemsHash, checkTransactionLimit, CATALOG_MESSAGES, type LicenseType, type Store } from '@verdant/domain';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BuyAgainAnswer, CartLimits, CartTransport, Residency, ShippingAddressInput, ShippingInformation } from '../api/cart.ts';
import { ApiError, NetworkError } from '../api/envelope.ts';
import { ALLOW_OUT_OF_STOCK_IN_CART, CART_SYNCHRONIZE } from '../lib/cart-config.ts';
import { CART_MESSAGES } from '../lib/cart-messages.ts';
import { isOwnLimitModel } from '../lib/cart-view.ts';
import { EMPTY_CART, sanitizeCartData, type CartData } from './cart-data.ts';
import { addToLines, findLine, fitsLicense, limitItems, lineKey, replaceLine, unlinkLines, type CartItem, type NewCartItem } from './cart-items.ts';
import { createSerialQueue, type LockRequest } from './cart-queue.ts';
import { createCartSync, emptyReport, type Refusal, type Repricing, type SyncReport, type SyncStatus } from './cart-sync.ts';
import { createMirror, stateKey, type ListChannel, type ListStorage } from './persisted.ts';

export type { CartData };

/** Spec §3 Cart edit mode: null is not editing. */
export interface CartEditMode {
  /** The line being edited (its key; the server item id rides on the line). */
  key: string;
  qty: number;
  selectedOptions: { size?: number };
}

/** What a cart change came to, for the notice the page shows. */
export type CartOutcome =
  | { kind: 'added' | 'updated'; warning: string | null }
  | { kind: 'refused'; message: string }
  | { kind: 'done' };

/** What Buy again came to (issue 30): the server's account of each line, or why nothing was asked. */
export type BuyAgainOutcome = { kind: 'done'; answer: BuyAgainAnswer } | { kind: 'offline'; message: string } | { kind: 'refused'; message: string };

export interface CartState extends CartData {
  loaded: boolean;
  sync: SyncStatus;
  bypassCounter: number;
  isAdding: boolean;
  microcartOpen: boolean;
  editMode: CartEditMode | null;
  /**
   * Purchase-limit buckets (issue 14): the server's meters for the cart as it was when asked
   * (`limitsHash`: cartItemsHash of those lines), asked again after every cart change; null
   * before the first answer and for an empty cart.
   */
  limits: CartLimits | null;
  limitsHash: string | null;
  /** The shopper's residency statement for this session (null: not said; the stricter caps apply). */
  residency: Residency | null;
  setResidency(residency: Residency | null): Promise<void>;
  refreshLimits(): Promise<void>;
  load(): Promise<void>;
  addItem(item: NewCartItem): Promise<CartOutcome>;
  setQty(key: string, qty: number): Promise<CartOutcome>;
  removeItem(key: string): Promise<CartOutcome>;
  configureItem(key: string, child: Pick<CartItem, 'sku' | 'size' | 'price' | 'name' | 'image'>): Promise<CartOutcome>;
  clear(): Promise<void>;
  applyCoupon(code: string): Promise<CartOutcome>;
  removeCoupon(): Promise<CartOutcome>;
  setShipping(method: 'pickup' | 'delivery', address?: ShippingAddressInput): Promise<ShippingInformation | null>;
  /**
   * The reward points a logged-in customer redeems (0: none), kept on the server cart so the
   * server's totals — what the checkout review shows — count them exactly as the order will.
   * Resolves with the server's refusal (e.g. not enough points), else null.
   */
  setCredits(points: number): Promise<string | null>;
  /**
   * Issue 30: a past order's lines into this cart, by the server (`POST /api/cart/buy-again`, the
   * cart's own checks), then the server's cart taken as it is. What the shopper changed here is sent
   * first. `idempotencyKey`: one per tap, so a retry adds nothing twice. Offline: nothing is asked.
   */
  buyAgain(orderId: string, idempotencyKey: string): Promise<BuyAgainOutcome>;
  /** Sync now (load, back online, entering checkout); resolves with what the server refused. */
  syncNow(opts?: { force?: boolean; forceClientState?: boolean }): Promise<SyncReport>;
  syncStock(): Promise<void>;
  /** After an order was placed: empty the cart without a sync (the server emptied its own). */
  clearAfterOrder(): void;
  /**
   * A customer logged in (spec §4): the lines move to the customer's server cart (the server
   * answers `cart/create` with the customer's open cart), merged by sku and size — never summed,
   * so logging in, out and in again cannot double a quantity (VSF #5743).
   */
  switchOwner(licenseType: LicenseType): Promise<SyncReport>;
  /** Logout (spec §4): the cart is cleared and disconnected, without telling the server. */
  disconnect(): void;
  setMicrocart(open: boolean): void;
  openEdit(mode: CartEditMode): void;
  closeEdit(): void;
}

export interface CartStoreOptions {
  storeCode: string;
  transport: CartTransport | null;
  storage: ListStorage | null;
  channel: ListChannel | null;
  lock: LockRequest | null;
  /** The shopper's licence type now (a new server cart is created for it). */
  licenseType(): LicenseType;
  /** The store's compliance settings, for the purchase limit checked before the server does. */
  limits: Pick<Store, 'dispensarySettings'> | null;
  /** Spec §4 Checkout: while in checkout, sync keeps the client state (forceClientState). */
  inCheckout?(): boolean;
  /** Refusals nobody is waiting for (a sync at load, another line's): shown as notices. */
  onRefused?(refusals: Refusal[]): void;
  /** Lines the store re-priced since the shopper last saw them: shown as notices. */
  onRepriced?(lines: Repricing[]): void;
  /** The residency said earlier in this session, and where a new statement is kept (sessionStorage). */
  residency?: { initial: Residency | null; save(residency: Residency | null): void };
  now?(): number;
}


export function createCartStore(o: CartStoreOptions): StoreApi<CartState> {
  const now = o.now ?? (() => Date.now());
  const mirror = createMirror<CartData>({ key: stateKey(o.storeCode, 'cart'), storage: o.storage, channel: o.channel, sanitize: sanitizeCartData });
  const queue = createSerialQueue(`verdant-cart-${o.storeCode}`, o.lock);
  let localRev = 0;
  let loading: Promise<void> | null = null;

  const store = createStore<CartState>()((set, get) => {
    const dataOf = (s: CartState): CartData => ({
      rev: s.rev, items: s.items, token: s.token, licenseType: s.licenseType, lastSyncedHash: s.lastSyncedHash,
      lastSyncAt: s.lastSyncAt, totals: s.totals, totalsHash: s.totalsHash, lastTotalsSyncAt: s.lastTotalsSyncAt,
    });
    const save = () => {
      set({ rev: get().rev + 1 });
      return mirror.write(dataOf(get()));
    };
    /** A change the shopper made: shown now, stored, heard by the other tabs. */
    const localChange = (items: CartItem[]) => {
      localRev++;
      set({ items });
      void save();
    };
    /** Adopt a copy another tab stored while this one waited for the lock. */
    const adopt = async () => {
      const stored = await mirror.read();
      if (stored && stored.rev > get().rev) set(stored);
    };
    const sync = o.transport
      ? createCartSync({ get, set, transport: o.transport, licenseType: () => cartLicense(), localRev: () => localRev, now })
      : null;
    /** A server operation: queued, under the cross-tab lock, on the freshest state, stored after. */
    const op = <T>(fallback: T, body: (s: NonNullable<typeof sync>) => Promise<T>): Promise<T> => {
      if (!sync || !CART_SYNCHRONIZE) return Promise.resolve(fallback);
      // Spec §5: sync only while the browser is online; the cart keeps working meanwhile.
      if (typeof navigator !== 'undefined' && navigator.onLine === false) {
        if (get().sync === 'idle') set({ sync: 'unreachable' });
        return Promise.resolve(fallback);
      }
      return queue.run(async () => {
        await adopt();
        try {
          return await body(sync);
        } finally {
          await save();
        }
      });
    };
    const cartLicense = (): LicenseType => (get().items.length > 0 && get().licenseType) || o.licenseType();
    // The instant check is today's per-order limit; a store with its own limit model (known from the
    // server's limits answer) is checked by the server alone, whose buckets this check can't know.
    const limitMessage = (items: CartItem[]) =>
      isOwnLimitModel(get().limits) ? null : checkTransactionLimit(limitItems(items), o.limits, cartLicense()).message;
    let limitsAsked = 0;
    /** Ask the server for the cart's limit meters (after every change); the latest question's answer wins. */
    const refreshLimits = async (): Promise<void> => {
      const s = get();
      const ask = ++limitsAsked;
      if (!o.transport?.limits) return;
      if (!s.token || s.items.length === 0 || s.sync === 'disabled') {
        set({ limits: null, limitsHash: null });
        return;
      }
      const hash = cartItemsHash(s.items, s.token);
      try {
        const limits = await o.transport.limits(s.token, s.residency);
        if (ask === limitsAsked) set({ limits, limitsHash: hash });
      } catch {
        // No answer (offline, a lost cart): the last answer stays, shown as stale by its hash.
      }
    };
    /** After a sync: the meters follow the cart (not awaited: the change's own notice doesn't wait for them). */
    const thenLimits = <T>(p: Promise<T>): Promise<T> =>
      p.finally(() => {
        void refreshLimits();
      });
    /** The shopper's own change: the client state is authoritative. Refusals of other lines are reported aside. */
    const syncChange = (key: string | null): Promise<CartOutcome> =>
      thenLimits(op<SyncReport>(emptyReport(), (s) => s.sync({ forceClientState: true }))).then((report) => {
        if (report.repriced.length) o.onRepriced?.(report.repriced);
        const mine = report.refused.find((r) => r.key === key);
        const others = report.refused.filter((r) => r !== mine);
        if (others.length) o.onRefused?.(others);
        return mine ? { kind: 'refused', message: mine.message } : { kind: 'done' };
      });

    return {
      ...EMPTY_CART,
      loaded: false,
      sync: 'idle',
      bypassCounter: 0,
      isAdding: false,
      microcartOpen: false,
      editMode: null,
      limits: null,
      limitsHash: null,
      residency: o.residency?.initial ?? null,

      setResidency: async (residency) => {
        set({ residency });
        o.residency?.save(residency);
        await refreshLimits();
      },
      refreshLimits,

      load: () => {
        loading ??= (async () => {
          const stored = await mirror.read();
          set({ ...(stored ?? {}), loaded: true });
          // Spec §4: a stored token triggers a sync, which merges (serverMergeByDefault; no dry run);
          // lines without a token get a server cart. Forced: the server may have changed the cart
          // since (another device, a product no longer sold), which the local hash cannot know.
          if (get().token || get().items.length) {
            await get().syncNow({ force: true });
            await get().syncStock();
          }
        })();
        return loading;
      },

      addItem: async (item) => {
        set({ isAdding: true });
        try {
          if (!(Number.isInteger(item.price) && item.price >= 0)) return { kind: 'refused', message: CATALOG_MESSAGES.priceUnknown };
          if (get().items.length === 0 && get().licenseType && get().licenseType !== o.licenseType()) {
            // An empty cart of the other licence type: the next line starts a new server cart.
            set({ token: null, licenseType: null, totals: null, totalsHash: null });
          }
          if (!fitsLicense(item.license_type, cartLicense())) return { kind: 'refused', message: CART_MESSAGES.licenseMix };
          const over = limitMessage(addToLines(get().items, item).items);
          if (over) return { kind: 'refused', message: over };
          const status = await stockStatus(item.sku, (findLine(get().items, lineKey(item))?.qty ?? 0) + item.qty);
          if (status === 'out_of_stock' && !ALLOW_OUT_OF_STOCK_IN_CART) return { kind: 'refused', message: CATALOG_MESSAGES.outOfStock };
          const { items, merged } = addToLines(get().items, item);
          const recheck = limitMessage(items);
          if (recheck) return { kind: 'refused', message: recheck };
          localChange(items);
          const outcome = await syncChange(lineKey(item));
          if (outcome.kind === 'refused') return outcome;
          return { kind: merged ? 'updated' : 'added', warning: status === 'volatile' ? CATALOG_MESSAGES.unsafeQuantity : null };
        } finally {
          set({ isAdding: false });
        }
      },

      setQty: async (key, qty) => {
        const line = findLine(get().items, key);
        if (!line || !Number.isInteger(qty) || qty < 1 || qty === line.qty) return { kind: 'done' };
        const items = replaceLine(get().items, key, (i) => ({ ...i, qty }));
        if (qty > line.qty) {
          const over = limitMessage(items);
          if (over) return { kind: 'refused', message: over };
        }
        localChange(items);
        return syncChange(key);
      },

      removeItem: async (key) => {
        if (!findLine(get().items, key)) return { kind: 'done' };
        localChange(get().items.filter((i) => lineKey(i) !== key));
        if (get().editMode?.key === key) set({ editMode: null });
        return syncChange(key);
      },

      configureItem: async (key, child) => {
        const line = findLine(get().items, key);
        const newKey = lineKey(child);
        if (!line || newKey === key) return { kind: 'done' };
        const target = findLine(get().items, newKey);
        // Spec §4 Configuring: a line of the resolved sku already in the cart takes the quantity.
        const items = target
          ? get().items.flatMap((i) => (i === line ? [] : i === target ? [{ ...i, qty: i.qty + line.qty }] : [i]))
          : replaceLine(get().items, key, (i) => ({ ...i, ...child, server_item_id: null, server_cart_id: null, prev_qty: null, info: {}, errors: {} }));
        const over = limitMessage(items);
        if (over) return { kind: 'refused', message: over };
        localChange(items);
        set({ editMode: null });
        if (line.server_item_id == null) return syncChange(newKey);
        // The server re-configures the line in one step (and merges it into a line of that size).
        const refusal = await op<string | null>(null, async (s) => {
          const token = get().token;
          if (!token || line.server_cart_id !== token) return (await s.sync({ forceClientState: true })).refused[0]?.message ?? null;
          try {
            await o.transport!.update(token, { item_id: line.server_item_id!, sku: child.sku, size: child.size, qty: line.qty, quoteId: token });
          } catch (e) {
            if (e instanceof NetworkError || (e instanceof ApiError && e.status >= 500)) return null;
            const message = e instanceof ApiError ? e.message : String(e);
            // Put both lines back as they were, visibly, with the store's reason.
            set({ items: [...get().items.filter((i) => lineKey(i) !== newKey), ...(target ? [target] : []), line] });
            return message;
          }
          await s.sync({ forceClientState: true, force: true });
          return null;
        });
        void refreshLimits();
        return refusal ? { kind: 'refused', message: refusal } : { kind: 'done' };
      },

      clear: async () => {
        localChange([]);
        set({ editMode: null });
        await syncChange(null);
      },

      applyCoupon: (code) => couponOp((s, token) => o.transport!.applyCoupon(token, code.trim()).then(() => s.refreshTotals(true))),
      removeCoupon: () => couponOp((s, token) => o.transport!.deleteCoupon(token).then(() => s.refreshTotals(true))),

      setShipping: (method, address) =>
        op<ShippingInformation | null>(null, async (s) => {
          if (!(await s.ensureToken())) return null;
          const info = await o.transport!.shippingInformation(get().token!, method, address);
          s.setTotals(info.totals);
          return info;
        }),

      setCredits: (points) =>
        op<string | null>(null, async (s) => {
          if (!(await s.ensureToken())) return null;
          // cart/update carries burnCredits with a line: the first synced line, at the quantity it has.
          const line = get().items.find((i) => i.server_item_id != null);
          const token = get().token!;
          if (!line) return null;
          try {
            await o.transport!.update(token, { item_id: line.server_item_id!, qty: line.qty, quoteId: token }, { burnCredits: points });
          } catch (e) {
            return e instanceof Error ? e.message : String(e);
          }
          await s.refreshTotals(true);
          return null;
        }),

      buyAgain: async (orderId, idempotencyKey) => {
        const offline: BuyAgainOutcome = { kind: 'offline', message: CART_MESSAGES.buyAgainOffline };
        const transport = o.transport;
        if (!sync || !transport?.buyAgain || !CART_SYNCHRONIZE) return offline;
        if (typeof navigator !== 'undefined' && navigator.onLine === false) return offline;
        const outcome = await queue.run(async (): Promise<BuyAgainOutcome> => {
          await adopt();
          try {
            // The shopper's own changes reach the server first, so its cart is this one.
            await sync.sync();
            if (get().sync === 'unreachable') return offline;
            if (get().sync === 'disabled') return offline;
            let token = get().token;
            if (!token) {
              const licenseType = cartLicense();
              try {
                token = await transport.create(licenseType);
              } catch (e) {
                return e instanceof ApiError && e.status < 500 ? { kind: 'refused', message: e.message } : offline;
              }
              set({ token, licenseType, sync: 'idle', items: unlinkLines(get().items) });
            }
            let answer: BuyAgainAnswer;
            try {
              answer = await transport.buyAgain!(token, orderId, idempotencyKey, get().residency);
            } catch (e) {
              if (e instanceof ApiError && e.status < 500) return { kind: 'refused', message: e.message };
              return offline;
            }
            const report = await sync.sync({ force: true, takeServer: true });
            if (report.refused.length) o.onRefused?.(report.refused);
            return { kind: 'done', answer };
          } finally {
            await save();
          }
        });
        void refreshLimits();
        return outcome;
      },

      syncNow: (opts = {}) =>
        thenLimits(op<SyncReport>(emptyReport(), (s) => s.sync({ forceClientState: o.inCheckout?.() ?? false, ...opts }))).then((report) => {
          if (report.refused.length) o.onRefused?.(report.refused);
          if (report.repriced.length) o.onRepriced?.(report.repriced);
          return report;
        }),
      syncStock: () => op(undefined, (s) => s.syncStock()),

      clearAfterOrder: () => {
        localRev++;
        // Spec §4 Place order: cleared without a sync — the server emptied its cart with the order.
        const synced = { lastSyncedHash: cartItemsHash([], get().token), lastSyncAt: now() };
        set({ items: [], totals: null, totalsHash: null, lastTotalsSyncAt: null, editMode: null, microcartOpen: false, limits: null, limitsHash: null, ...synced });
        void save();
      },

      switchOwner: (licenseType) =>
        thenLimits(op<SyncReport>(emptyReport(), async (s) => {
          let token: string;
          try {
            token = await o.transport!.create(licenseType);
          } catch {
            // No new cart now: drop the guest cart's link; the next sync creates the customer's.
            set({ token: null, totals: null, totalsHash: null, lastSyncedHash: null, items: unlinkLines(get().items) });
            return emptyReport();
          }
          set({ token, licenseType, sync: 'idle', bypassCounter: 0, totals: null, totalsHash: null, lastSyncedHash: null, items: unlinkLines(get().items) });
          return s.sync({ force: true });
        })).then((report) => {
          if (report.refused.length) o.onRefused?.(report.refused);
          if (report.repriced.length) o.onRepriced?.(report.repriced);
          return report;
        }),

      disconnect: () => {
        localRev++;
        set({ ...EMPTY_CART, rev: get().rev, editMode: null, microcartOpen: false, sync: 'idle', bypassCounter: 0, limits: null, limitsHash: null });
        void save();
      },

      setMicrocart: (open) => set({ microcartOpen: open }),
      openEdit: (mode) => set({ editMode: mode }),
      closeEdit: () => set({ editMode: null }),
    };

    /** Spec §4 Coupon: only when totals can sync, then a forced totals sync. */
    function couponOp(body: (s: NonNullable<typeof sync>, token: string) => Promise<void>): Promise<CartOutcome> {
      return op<CartOutcome>({ kind: 'refused', message: CART_MESSAGES.couponNeedsSync }, async (s) => {
        const token = get().token;
        if (!token || get().sync !== 'idle') return { kind: 'refused', message: CART_MESSAGES.couponNeedsSync };
        try {
          await body(s, token);
          return { kind: 'done' };
        } catch (e) {
          if (e instanceof ApiError && e.status < 500) return { kind: 'refused', message: e.message };
          return { kind: 'refused', message: CART_MESSAGES.couponNeedsSync };
        }
      });
    }

    /** Spec §4 Adding: ok / volatile / out_of_stock; no answer counts as volatile (pre-reservation). */
    async function stockStatus(sku: string, qty: number) {
      if (!o.transport) return 'ok' as const;
      try {
        return (await o.transport.stockCheck(sku, qty)).status;
      } catch (e) {
        return e instanceof ApiError && e.status === 404 ? ('out_of_stock' as const) : ('volatile' as const);
      }
    }
  });

  mirror.subscribe((data) => {
    // Another tab changed the cart and stored it: show it here, without telling the server again.
    if (data.rev > store.getState().rev) store.setState(data);
  });
  return store;
}
