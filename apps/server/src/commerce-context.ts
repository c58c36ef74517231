/**
 * What the commerce routes (prices, stock, cart, limits, orders) are handed: below both commerce.ts,
 * which registers them, and the route modules, which read it.
 */
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import type { StoreRegistry } from './stores/registry.ts';
import type { CatalogSource } from './cart/catalog-source.ts';

export interface CommerceDeps {
  db: Kysely<Database>;
  registry: StoreRegistry;
  /** The clock for special-price windows, coupons and timestamps (tests pin it). */
  now?: () => Date;
  /** The in-memory catalogues the cart prices from (the app's CatalogIndexManager); absent: the database. */
  catalog?: CatalogSource;
}

export interface CommerceContext {
  db: Kysely<Database>;
  registry: StoreRegistry;
  now: () => Date;
  catalog: CatalogSource | null;
}
