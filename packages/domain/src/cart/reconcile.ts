import type { ProductType } from '../catalog.ts';

/**
 * Cart synchronisation rules (spec §4 "Cart connection", "Sync need"): which client and server
 * lines are the same, what each comparison means, and what to do about it. Pure: the browser's
 * cart store executes the plan, so the rules can be tested without a browser or a server.
 *
 * Matching: by sku; configurable items also by size or server item id; bundles and items with
 * custom options by server item id, then by option checksum.
 *
 * Doubled quantities (VSF #5743, #4387): summing client and server quantities (`mergeQty`, on
 * login) applies only to a client line that is not yet linked to that server line (its
 * server_item_id and server_cart_id differ). After the first merge every line carries the ids of
 * the customer cart, so a later login, refresh or second sync can never add them up again.
 * Lost items (VSF #2044, #5974): a client line missing on the server is pushed, never dropped,
 * unless serverSyncCanRemoveLocalItems is set.
 */
export interface ClientCartItem {
  sku: string;
  qty: number;
  /** Quantity before the last local change (restored when the server refuses it). */
  prev_qty?: number | null;
  type_id: ProductType;
  parentSku?: string | null;
  size?: number | null;
  server_item_id?: number | null;
  server_cart_id?: string | null;
  checksum?: string | null;
}

export interface ServerCartItem {
  item_id: number;
  sku: string;
  qty: number;
  /** The server cart id (spec's quote_id). */
  quote_id: string;
  product_type: ProductType;
  size?: number | null;
  checksum?: string | null;
}

export interface SyncFlags {
  /** Config: a client line missing on the server is removed locally instead of pushed. */
  serverSyncCanRemoveLocalItems: boolean;
  /** Config: on a quantity mismatch the server's quantity wins instead of the client's. */
  serverSyncCanModifyLocalItems: boolean;
  /** Client state is authoritative: server lines the client lacks are deleted (e.g. in checkout). */
  forceClientState: boolean;
  /** Sum the quantities of unlinked matching lines (guest cart merged into a customer cart). */
  mergeQty: boolean;
}

export const DEFAULT_SYNC_FLAGS: SyncFlags = {
  serverSyncCanRemoveLocalItems: false,
  serverSyncCanModifyLocalItems: false,
  forceClientState: false,
  mergeQty: false,
};

export type ItemOutcome = 'no-item' | 'wrong-qty' | 'update-required' | 'no-changes';

export type SyncAction =
  /** Write the client's line to the server with this quantity (a new line when serverItemId is null). */
  | { kind: 'push'; sku: string; qty: number; serverItemId: number | null }
  | { kind: 'remove-local'; sku: string }
  /** Take the server line's quantity and ids into the client line. */
  | { kind: 'take-server'; sku: string; server: ServerCartItem }
  /** Only record the server line's ids on the client line. */
  | { kind: 'link'; sku: string; server: ServerCartItem }
  | { kind: 'delete-server'; server: ServerCartItem }
  /** A server line the client did not have: add it locally, without a notice. */
  | { kind: 'add-local'; server: ServerCartItem };

export interface SyncPlan {
  outcomes: { sku: string; outcome: ItemOutcome }[];
  actions: SyncAction[];
}

const WITH_OPTIONS: readonly ProductType[] = ['bundle'];

export function itemsMatch(client: ClientCartItem, server: ServerCartItem): boolean {
  if (client.server_item_id != null && client.server_item_id === server.item_id) return true;
  if (WITH_OPTIONS.includes(client.type_id) || client.checksum) {
    return !!client.checksum && client.checksum === server.checksum && client.sku === server.sku;
  }
  if (client.sku !== server.sku) return false;
  if (client.type_id === 'configurable' || client.size != null || server.size != null) {
    return (client.size ?? null) === (server.size ?? null);
  }
  return true;
}

function isLinked(client: ClientCartItem, server: ServerCartItem): boolean {
  return client.server_item_id === server.item_id && client.server_cart_id === server.quote_id;
}

export function planCartSync(
  clientItems: readonly ClientCartItem[],
  serverItems: readonly ServerCartItem[],
  flags: SyncFlags = DEFAULT_SYNC_FLAGS,
): SyncPlan {
  const plan: SyncPlan = { outcomes: [], actions: [] };
  const matched = new Set<ServerCartItem>();
  for (const client of clientItems) {
    const server = serverItems.find((s) => !matched.has(s) && itemsMatch(client, s));
    if (!server) {
      plan.outcomes.push({ sku: client.sku, outcome: 'no-item' });
      plan.actions.push(
        flags.serverSyncCanRemoveLocalItems
          ? { kind: 'remove-local', sku: client.sku }
          : { kind: 'push', sku: client.sku, qty: client.qty, serverItemId: null },
      );
      continue;
    }
    matched.add(server);
    const sum = flags.mergeQty && !isLinked(client, server);
    if (sum) {
      plan.outcomes.push({ sku: client.sku, outcome: 'update-required' });
      plan.actions.push({ kind: 'push', sku: client.sku, qty: client.qty + server.qty, serverItemId: server.item_id });
    } else if (client.qty !== server.qty) {
      plan.outcomes.push({ sku: client.sku, outcome: 'wrong-qty' });
      plan.actions.push(
        flags.serverSyncCanModifyLocalItems
          ? { kind: 'take-server', sku: client.sku, server }
          : { kind: 'push', sku: client.sku, qty: client.qty, serverItemId: server.item_id },
      );
    } else {
      plan.outcomes.push({ sku: client.sku, outcome: 'no-changes' });
      if (!isLinked(client, server)) plan.actions.push({ kind: 'link', sku: client.sku, server });
    }
  }
  for (const server of serverItems) {
    if (matched.has(server)) continue;
    plan.actions.push(flags.forceClientState ? { kind: 'delete-server', server } : { kind: 'add-local', server });
  }
  return plan;
}

/**
 * After the server refused an update (spec §4): restore the previous quantity of a line the
 * server had confirmed; remove a line it never had.
 */
export function rollbackFailedUpdate(client: ClientCartItem): { kind: 'restore'; qty: number } | { kind: 'remove' } {
  const confirmed = client.server_item_id != null;
  return confirmed && client.prev_qty != null && client.prev_qty > 0 ? { kind: 'restore', qty: client.prev_qty } : { kind: 'remove' };
}

/** FNV-1a over a canonical string: fast, stable across browsers and Node, no crypto needed. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The items hash (spec §4): items without stock and totals, plus the server token. */
export function cartItemsHash(items: readonly ClientCartItem[], token: string | null): string {
  const canonical = items
    .map((i) => [i.sku, i.qty, i.size ?? '', i.parentSku ?? '', i.server_item_id ?? '', i.checksum ?? ''].join(':'))
    .sort()
    .join('|');
  return fnv1a(`${canonical}#${token ?? ''}`);
}

/** Sync is needed when there was no earlier sync, or the hash is empty or changed. */
export function isSyncNeeded(state: { lastSyncedHash: string | null; lastSyncAt: number | null }, currentHash: string): boolean {
  return state.lastSyncAt == null || !state.lastSyncedHash || state.lastSyncedHash !== currentHash;
}
