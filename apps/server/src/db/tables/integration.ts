/**
 * Tables of the integration API (migration 0014, apps/server/src/integration/). Conventions are in ../schema.ts.
 */
import type { Generated } from 'kysely';
import type { Timestamp } from './common.ts';

export type ApiScope = 'menu:write' | 'orders:read' | 'orders:write';

export interface ApiKeysTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  /** The public part of the key (`vdk_<prefix>_…`), unique; shown in lists. */
  prefix: string;
  /** SHA-256 (hex) of the whole key. */
  secret_hash: string;
  /** Comma-separated ApiScope list. */
  scopes: string;
  /** Who made it: a staff member's name, or "command line". */
  created_by: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface ApiIdempotencyTable {
  id: Generated<number>;
  api_key_id: number;
  key: string;
  request_hash: string;
  /** pending while the first request runs; completed with its answer. */
  status: 'pending' | 'completed';
  http_status: number | null;
  response: string | null;
  created_at: Timestamp;
}

export interface IntegrationStockSequencesTable {
  product_id: number;
  /** The POS's sequence (or timestamp in ms) of the last stock update applied to this variant. */
  sequence: number;
  updated_at: Timestamp;
}
