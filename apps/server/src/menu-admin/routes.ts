/**
 * The console's menu routes (issue 13 "Menu in the console"), under /api/console/stores/:storeId —
 * the staff guard has checked the session, CSRF, the store and the declared permission:
 *   GET   /menu                      menu:read   variants: search, filters, sort, paging
 *   PATCH /menu/variants/:productId  menu:stock  quick edit (price, special, status need menu:write too)
 *   POST  /menu/bulk                 menu:stock  bulk action on ≤ 500 variants (enable/disable, price ± % need menu:write)
 *   GET   /menu/history              menu:read   who, what, before, after, when, source; newest first
 *   POST  /menu/import               menu:write  a menu file: preview (dry run) or apply the previewed file
 *   GET   /menu/export.csv|.json     menu:read   the menu in the import format
 *
 * Decisions:
 *  - Budtenders mark items sold out / back in stock and orderable on or off (menu:stock); the handler
 *    refuses them any other column (403 `forbidden`, nothing written) — one route, one check.
 *  - Import apply re-uploads the file with the preview's sha256 (`?apply=<hash>`): the server holds
 *    nothing between the two calls (any node can answer the apply), and a file that is not byte for
 *    byte the previewed one is refused (409 `preview_mismatch`), so what is applied is what was shown.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  menuBulkBody,
  menuEditBody,
  menuHistoryQuery,
  menuImportQuery,
  menuListQuery,
  type MenuBulkAnswer,
  type MenuHistoryEntry,
  type MenuHistoryPage,
  type MenuImportAnswer,
  type MenuItem,
  type MenuPage,
} from '@verdant/domain/console-api';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { roleCan } from '../staff/permissions.ts';
import { exportMenuCsv, exportMenuJson, importMenu, type ImportReport } from '../menu-import/index.ts';
import { readStoreMenu } from '../menu-import/menu.ts';
import { listMenuChanges } from './audit.ts';
import {
  bulkEdits,
  EDITABLE_COLUMNS,
  editVariants,
  EditProblems,
  itemsOf,
  StaleEdit,
  STOCK_ACTIONS,
  STOCK_COLUMNS,
  UnknownVariant,
  type VariantEdit,
} from './edit.ts';

export interface MenuAdminDeps {
  db: Kysely<Database>;
  now: () => Date;
}

const PREFIX = '/api/console/stores/:storeId/menu';
/** A 2,000-line menu is ~1 MB; 10 MB leaves room for long descriptions without inviting abuse. */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
/** Per list in an import answer (the counts are always complete). */
const REPORT_LIST_LIMIT = 500;

const id = dbId();
const storeParams = z.object({ storeId: id });
// The requests' rules are the console's contract (@verdant/domain/console-api, menu.ts).
export const listQuery = menuListQuery;
export const editBody = menuEditBody;
export const bulkBody = menuBulkBody;
export const historyQuery = menuHistoryQuery;
export const importQuery = menuImportQuery;

const FIELD_TO_COLUMN = {
  price: 'price',
  specialPrice: 'special_price',
  specialFrom: 'special_from',
  specialTo: 'special_to',
  stock: 'stock',
  orderable: 'orderable',
  status: 'status',
} as const;

function actorOf(request: FastifyRequest) {
  const staff = staffOf(request);
  return { type: 'staff' as const, id: staff.id, name: staff.name };
}

function requireMenuWrite(request: FastifyRequest, what: string): void {
  if (!roleCan(staffOf(request).role, 'menu:write'))
    throw new ApiError(403, `Your role does not allow ${what}. Ask a manager.`, { errorCode: 'forbidden' });
}

function trimReport(report: ImportReport, fileHash: string): MenuImportAnswer {
  const cut = <T>(list: T[]) => list.slice(0, REPORT_LIST_LIMIT);
  return {
    outcome: report.outcome,
    rows: report.rows,
    counts: {
      created: report.created.length,
      updated: report.updated.length,
      unchanged: report.unchanged,
      removed: report.removed.length,
      problems: report.problemCount,
    },
    created: cut(report.created),
    updated: cut(report.updated),
    removed: cut(report.removed),
    problems: report.problems,
    fileHash,
    ...(report.notifyError ? { notifyError: report.notifyError } : {}),
  };
}

export function registerMenuAdminRoutes(app: FastifyInstance, deps: MenuAdminDeps): void {
  const { db, now } = deps;

  async function storeOf(request: FastifyRequest): Promise<number> {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = await db.selectFrom('stores').select('id').where('id', '=', storeId).executeTakeFirst();
    if (!store) throw new ApiError(404, 'Store not found.', { errorCode: 'store_not_found' });
    return storeId;
  }

  /** Run edits; map the engine's refusals to answers; tell the catalogue after the commit. */
  async function runEdits(request: FastifyRequest, storeId: number, edits: VariantEdit[]) {
    try {
      const result = await editVariants(db, { storeId, edits, actor: actorOf(request), at: now() });
      if (result.productIds.length)
        await app.catalog
          .catalogChanged(storeId, result.productIds)
          .catch((err) => request.log.warn({ err }, 'catalogue update after a menu edit failed'));
      return result;
    } catch (error) {
      if (error instanceof UnknownVariant)
        throw new ApiError(404, 'This item is not on the store’s menu.', {
          errorCode: 'menu_item_not_found',
          meta: { productId: error.productId },
        });
      if (error instanceof StaleEdit)
        throw new ApiError(
          409,
          'Someone else changed this item since you opened it. Its current values are shown; check them and try again.',
          {
            errorCode: 'stale_edit',
            meta: { current: error.current },
          },
        );
      if (error instanceof EditProblems)
        throw new ApiError(400, error.problems[0].reason, { errorCode: 'invalid_menu_edit', meta: { problems: error.problems } });
      throw error;
    }
  }

  app.get(PREFIX, { config: { console: { permission: 'menu:read' } } }, async (request) => {
    const storeId = await storeOf(request);
    const q = parseOr400(listQuery, request.query);
    const menu = await readStoreMenu(db, storeId);
    // Every word must match: a number a size or other number of the item exactly ("1" is 1 g, not
    // 14 g), other words anywhere in its name, size, brand, sku or POS id ("Blue Dream 1").
    const words = (q.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const category = q.category?.toLowerCase();
    let variants = menu.variants.filter((v) => {
      const r = v.row;
      if (words.length > 0) {
        const hay = [r.name, r.weight_g != null ? `${r.weight_g} g` : '', r.brand ?? '', r.sku, r.external_id].join(' ').toLowerCase();
        const numbers = new Set(hay.split(/[^\d.]+/).filter(Boolean));
        if (!words.every((w) => (/^\d+(\.\d+)?$/.test(w) ? numbers.has(w) : hay.includes(w)))) return false;
      }
      if (category && !(r.category.toLowerCase() === category || r.category.toLowerCase().startsWith(`${category} > `))) return false;
      if (q.status && r.status !== q.status) return false;
      if (q.stock && (q.stock === 'in') !== r.stock > 0) return false;
      if (q.orderable && (q.orderable === 'yes') !== r.orderable) return false;
      if (q.license && r.license_type !== q.license) return false;
      return true;
    });
    const key = {
      // Sizes in number order (1, 3.5, 7, 14, 28 g): the weight in milligrams, zero-padded.
      name: (v: (typeof variants)[number]) =>
        v.row.name.toLowerCase() + '\u0000' + String(Math.round((v.row.weight_g ?? 0) * 1000)).padStart(10, '0'),
      sku: (v: (typeof variants)[number]) => v.row.sku.toLowerCase(),
      category: (v: (typeof variants)[number]) => v.row.category.toLowerCase(),
      price: (v: (typeof variants)[number]) => v.row.price,
      stock: (v: (typeof variants)[number]) => v.row.stock,
    }[q.sort];
    const sign = q.dir === 'asc' ? 1 : -1;
    variants = [...variants].sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return (ka < kb ? -1 : ka > kb ? 1 : a.productId - b.productId) * sign;
    });
    const total = variants.length;
    const page = variants.slice((q.page - 1) * q.size, q.page * q.size);
    return ok({
      items: await itemsOf(db, page, now()),
      total,
      page: q.page,
      size: q.size,
      categories: [...new Set(menu.categoryPath.values())].sort(),
    } satisfies MenuPage);
  });

  app.patch(`${PREFIX}/variants/:productId`, { config: { console: { permission: 'menu:stock' } } }, async (request) => {
    const storeId = await storeOf(request);
    const { productId } = parseOr400(z.object({ productId: id }), request.params);
    const body = parseOr400(editBody, request.body);
    const cells: Record<string, string> = {};
    for (const [field, column] of Object.entries(FIELD_TO_COLUMN)) {
      const value = body[field as keyof typeof FIELD_TO_COLUMN];
      if (value === undefined) continue;
      cells[column] = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
    }
    if (Object.keys(cells).length === 0) throw new ApiError(400, 'Nothing to change.', { errorCode: 'invalid_request' });
    if (Object.keys(cells).some((c) => !STOCK_COLUMNS.includes(c as (typeof EDITABLE_COLUMNS)[number])))
      requireMenuWrite(request, 'changing prices or taking items off the menu');
    const result = await runEdits(request, storeId, [{ productId, cells, version: body.version }]);
    return ok<MenuItem>(result.items[0]);
  });

  app.post(`${PREFIX}/bulk`, { config: { console: { permission: 'menu:stock' } } }, async (request) => {
    const storeId = await storeOf(request);
    const body = parseOr400(bulkBody, request.body);
    if (!STOCK_ACTIONS.includes(body.action)) requireMenuWrite(request, 'changing prices or taking items off the menu');
    const result = await runEdits(request, storeId, bulkEdits(body.productIds, body.action, body));
    return ok({ selected: new Set(body.productIds).size, changed: result.changed, batchId: result.batchId } satisfies MenuBulkAnswer);
  });

  app.get(`${PREFIX}/history`, { config: { console: { permission: 'menu:read' } } }, async (request) => {
    const storeId = await storeOf(request);
    const q = parseOr400(historyQuery, request.query);
    const rows = await listMenuChanges(db, storeId, { productId: q.productId, beforeId: q.before, limit: q.limit + 1 });
    const more = rows.length > q.limit;
    const items = rows.slice(0, q.limit).map((r): MenuHistoryEntry => ({
      id: Number(r.id),
      productId: r.product_id,
      sku: r.sku,
      externalId: r.external_id,
      field: r.field,
      before: r.before,
      after: r.after,
      source: r.source,
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      batchId: r.batch_id,
      at: r.at,
    }));
    return ok({ items, next: more ? items[items.length - 1].id : null } satisfies MenuHistoryPage);
  });

  for (const format of ['csv', 'json'] as const)
    app.get(`${PREFIX}/export.${format}`, { config: { console: { permission: 'menu:read' } } }, async (request, reply) => {
      const storeId = await storeOf(request);
      const code = (await db.selectFrom('stores').select('code').where('id', '=', storeId).executeTakeFirst())?.code ?? String(storeId);
      const body = format === 'csv' ? await exportMenuCsv(db, storeId) : await exportMenuJson(db, storeId);
      return reply
        .header('cache-control', 'no-store, private')
        .header('content-disposition', `attachment; filename="${code}-menu.${format}"`)
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .send(body);
    });

  // The upload takes the file's raw bytes (text/csv or application/octet-stream), in a scope of its
  // own so these types are accepted here and nowhere else (http/body-policy.ts).
  app.register(async (scope) => {
    scope.addContentTypeParser(
      ['text/csv', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT_BYTES },
      (_req, body, done) => done(null, body),
    );
    scope.post(
      `${PREFIX}/import`,
      { bodyLimit: UPLOAD_LIMIT_BYTES, config: { console: { permission: 'menu:write' } } },
      async (request, reply) => {
        const storeId = await storeOf(request);
        const q = parseOr400(importQuery, request.query);
        if (!Buffer.isBuffer(request.body) || request.body.length === 0)
          throw new ApiError(400, 'Choose a menu file (CSV or JSON) to upload.', { errorCode: 'invalid_request' });
        const bytes = request.body;
        const fileHash = createHash('sha256').update(bytes).digest('hex');
        if (q.apply && q.apply !== fileHash)
          throw new ApiError(409, 'This file is not the one you previewed. Preview it again before applying.', {
            errorCode: 'preview_mismatch',
          });
        const staff = staffOf(request);
        const report = await importMenu(db, {
          storeId,
          source: [bytes],
          format: q.format,
          full: q.full === 'yes',
          confirmStore: q.confirmStore === 'yes',
          dryRun: !q.apply,
          clock: now,
          audit: { source: 'import', actor: { type: 'staff', id: staff.id, name: staff.name } },
          onChanged: (sid, ids) => app.catalog.catalogChanged(sid, ids),
        });
        reply.header('cache-control', 'no-store');
        return ok(trimReport(report, fileHash));
      },
    );
  });
}
