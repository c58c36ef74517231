/**
 * The console's menu routes (apps/server/src/menu-admin/routes.ts, under /stores/:storeId/menu):
 * the list, a quick edit, bulk actions, the change history and the menu file import.
 *
 * GET /menu/export.csv and GET /menu/export.json answer the menu as a file in the import format
 * (docs/integrators/menu-file.md): the format is the contract, read back by POST /menu/import.
 */
import { z } from 'zod';
import { dbId } from './fields.ts';

const bool = z.enum(['yes', 'no']);

/** GET /menu: search, filters, sort, paging. */
export const menuListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  category: z.string().trim().max(200).optional(),
  status: z.enum(['active', 'disabled']).optional(),
  stock: z.enum(['in', 'out']).optional(),
  orderable: bool.optional(),
  license: z.enum(['recreational', 'medical', 'both']).optional(),
  sort: z.enum(['name', 'sku', 'price', 'stock', 'category']).default('name'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(50),
});
export type MenuListQuery = z.input<typeof menuListQuery>;

/** One variant as the console lists it: the menu file's cells, plus what the console needs. */
export interface MenuItem {
  productId: number;
  parentId: number | null;
  externalId: string;
  sku: string;
  name: string;
  brand: string | null;
  category: string;
  unit: string;
  weightG: number | null;
  licenseType: string;
  price: string;
  specialPrice: string;
  specialFrom: string;
  specialTo: string;
  stock: number;
  orderable: boolean;
  status: 'active' | 'disabled';
  /** stock.version: send it back with a quick edit. */
  version: number;
  /** A 150×150 thumbnail (/img/150/150/…), or null. */
  thumbnail: string | null;
  /** The sale at this moment: on now (the storefront charges it), not yet started, or over (not charged). */
  specialState: 'current' | 'scheduled' | 'expired' | null;
  /** Sold out by its last stock change: the count before it (what "Restock" puts back); else null. */
  restoreStock: number | null;
}

/** GET /menu. */
export interface MenuPage {
  items: MenuItem[];
  total: number;
  page: number;
  size: number;
  categories: string[];
}

const cell = z.string().max(100);
/** PATCH /menu/variants/:productId: the cells to change (as the menu file writes them) and the version read. */
export const menuEditBody = z
  .object({
    price: cell.optional(),
    specialPrice: cell.optional(),
    specialFrom: cell.optional(),
    specialTo: cell.optional(),
    stock: z.union([cell, z.number().int()]).optional(),
    orderable: z.union([z.boolean(), cell]).optional(),
    status: cell.optional(),
    version: z.number().int().min(0),
  })
  .strict();
export type MenuEditRequest = z.input<typeof menuEditBody>;

/** A refused edit's problem (400 `invalid_menu_edit`, meta.problems). */
export interface MenuEditProblem {
  /** Spreadsheet row (header = 1) or JSON element (first = 1); 0 for the file as a whole. */
  row: number;
  column: string;
  value: string;
  reason: string;
  productId: number;
  sku: string;
}

export const BULK_ACTIONS = ['sold_out', 'in_stock', 'orderable_on', 'orderable_off', 'enable', 'disable', 'price_percent'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** Variants per bulk action at most. */
export const MAX_BULK = 500;

/** POST /menu/bulk. */
export const menuBulkBody = z
  .object({
    productIds: z.array(dbId()).min(1, 'Select at least one item.').max(MAX_BULK, `At most ${MAX_BULK} items at once.`),
    action: z.enum(BULK_ACTIONS),
    qty: z.number().int().min(0).max(1_000_000).optional(),
    percent: z.number().min(-90).max(1000).optional(),
  })
  .strict()
  .refine((b) => b.action !== 'in_stock' || b.qty !== undefined, { message: 'Back in stock needs a quantity.', path: ['qty'] })
  .refine((b) => b.action !== 'price_percent' || (b.percent !== undefined && b.percent !== 0), {
    message: 'Price change needs a percentage other than 0.',
    path: ['percent'],
  });
export type MenuBulkRequest = z.input<typeof menuBulkBody>;

/** POST /menu/bulk. */
export interface MenuBulkAnswer {
  selected: number;
  changed: number;
  batchId: string | null;
}

/** GET /menu/history. */
export const menuHistoryQuery = z.object({
  productId: dbId().optional(),
  before: dbId().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export interface MenuHistoryEntry {
  id: number;
  productId: number | null;
  sku: string;
  externalId: string | null;
  /** A menu-file column name, e.g. `price`, `stock`, `orderable`, `status`. */
  field: string;
  before: string | null;
  after: string | null;
  source: 'console' | 'import' | 'api';
  actor: { type: 'staff' | 'api_key' | 'cli'; id: number | null; name: string };
  /** Groups the rows of one action (one edit, one bulk action, one import, one API call). */
  batchId: string;
  at: string;
}

/** GET /menu/history: newest first; `next` is the `before` of the next page. */
export interface MenuHistoryPage {
  items: MenuHistoryEntry[];
  next: number | null;
}

/** POST /menu/import (the body is the file's raw bytes). */
export const menuImportQuery = z.object({
  format: z.enum(['csv', 'json']).default('csv'),
  full: bool.default('no'),
  /** The operator insists the file is this store's although its content looks like another store's (menu-import foreignContent). */
  confirmStore: bool.default('no'),
  /** The preview's sha256: apply this (same) file. Without it: a dry run. */
  apply: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'apply must be the file hash of the preview.')
    .optional(),
});
export type MenuImportQuery = z.input<typeof menuImportQuery>;

/** A variant the import creates, updates or removes. */
export interface PlannedVariantView {
  /** File row; 0 for a removal. */
  row: number;
  external_id: string;
  sku: string;
  name: string;
  /** For updates: what changes, as cells. */
  changes?: { column: string; before: string; after: string }[];
}

/** A problem of the file (nothing is written while there is one). */
export interface ImportProblemView {
  /** Spreadsheet row (header = 1) or JSON element (first = 1); 0 for the file as a whole. */
  row: number;
  /** The column the problem is in; '' when it is about the whole row or file. */
  column: string;
  /** The offending cell (cut to 200 characters); '' when none. */
  value: string;
  reason: string;
  /** The row's sku and name as the file writes them (none for a problem about the whole file). */
  sku?: string;
  name?: string;
  /**
   * `looks_like_another_store`: the content check of the whole file (the server's menu-import/menu.ts
   * foreignContent); the one problem the operator may override (confirmStore).
   */
  code?: 'looks_like_another_store';
}

/** POST /menu/import: the preview (dry run) or what was applied; lists cut to 500, counts complete. */
export interface MenuImportAnswer {
  /** `problems`: nothing was written. `planned`: dry run. `applied`: written. `unchanged`: nothing to write. */
  outcome: 'problems' | 'planned' | 'applied' | 'unchanged';
  rows: number;
  counts: { created: number; updated: number; unchanged: number; removed: number; problems: number };
  created: PlannedVariantView[];
  updated: PlannedVariantView[];
  removed: PlannedVariantView[];
  problems: ImportProblemView[];
  /** sha256 of the file: `?apply=` it to write what was previewed. */
  fileHash: string;
  /** Set when the menu was written but search and pages could not be told (they catch up at the next resync). */
  notifyError?: string;
}
