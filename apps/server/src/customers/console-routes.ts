/**
 * Customer records in the console (issue 31; contract: packages/domain/src/console-api/customers.ts),
 * under /api/console/stores/:storeId:
 *   GET  /customers                          customers:lookup  the directory (./directory.ts)
 *   GET  /customers/:customerId              customers:lookup  the profile (./profile.ts)
 *   POST /customers/:customerId/notes        customers:note    append a staff note
 *   GET  /customers/:customerId/merge-preview customers:merge  what merging `merged` into it would move (./merge.ts)
 *   POST /customers/:customerId/merge        customers:merge   merge `merged` into it
 *   POST /customers/merges/:mergeId/undo     customers:merge   undo a merge within 24 h
 * The guard has checked the session, CSRF, the store and the permission; what a lookup answer
 * carries beyond the counter view depends on `customers:read` (roleCan, here).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Store } from '@verdant/domain';
import { customerMergeBodySchema, customerNoteBodySchema, customerSearchQuerySchema, type CustomerList, type CustomerMerge, type CustomerMergePreview, type CustomerNote, type CustomerProfile } from '@verdant/domain/console-api';
import type { Database } from '../db/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';
import { dbId } from '../http/ids.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { roleCan } from '../staff/permissions.ts';
import { searchCustomers } from './directory.ts';
import { mergeCustomers, previewMerge, undoMerge } from './merge.ts';
import { addNote, customerProfile } from './profile.ts';

const PREFIX = '/api/console/stores/:storeId/customers';
const LOOKUP = { config: { console: { permission: 'customers:lookup' as const } } };
const NOTE = { config: { console: { permission: 'customers:note' as const } } };
const MERGE = { config: { console: { permission: 'customers:merge' as const } } };
const storeParams = z.object({ storeId: dbId() });
const customerParams = storeParams.extend({ customerId: dbId('customerId must be a customer id') });
const mergeParams = storeParams.extend({ mergeId: dbId('mergeId must be a merge id') });

export interface CustomerConsoleDeps {
  db: Kysely<Database>;
  stores: readonly Store[];
  now?: () => Date;
}

export function registerCustomerConsoleRoutes(app: FastifyInstance, deps: CustomerConsoleDeps): void {
  const now = deps.now ?? (() => new Date());
  const storeOf = (storeId: number): Store => {
    const store = deps.stores.find((s) => s.storeId === storeId);
    if (!store) throw new ApiError(404, 'Store not found.', { errorCode: 'store_not_found' });
    return store;
  };
  const viewerOf = (request: FastifyRequest) => {
    const { role } = staffOf(request);
    return { full: roleCan(role, 'customers:read'), canNote: roleCan(role, 'customers:note'), canMerge: roleCan(role, 'customers:merge') };
  };

  app.get(PREFIX, LOOKUP, async (request) => {
    const { storeId } = parseOr400(storeParams, request.params);
    const store = storeOf(storeId);
    const query = parseOr400(customerSearchQuerySchema, request.query);
    return ok<CustomerList>(await searchCustomers(deps.db, store.storeId, query, viewerOf(request).full));
  });

  app.get(`${PREFIX}/:customerId`, LOOKUP, async (request) => {
    const { storeId, customerId } = parseOr400(customerParams, request.params);
    return ok<CustomerProfile>(await customerProfile(deps.db, storeOf(storeId), customerId, viewerOf(request), now()));
  });

  app.post(`${PREFIX}/:customerId/notes`, NOTE, async (request) => {
    const { storeId, customerId } = parseOr400(customerParams, request.params);
    const store = storeOf(storeId);
    const body = parseOr400(customerNoteBodySchema, request.body);
    const staff = staffOf(request);
    return ok<CustomerNote>(await addNote(deps.db, store.storeId, customerId, { id: staff.id, name: staff.name }, body.text, now()));
  });

  app.get(`${PREFIX}/:customerId/merge-preview`, MERGE, async (request) => {
    const { storeId, customerId } = parseOr400(customerParams, request.params);
    const body = parseOr400(customerMergeBodySchema, request.query);
    return ok<CustomerMergePreview>(await previewMerge(deps.db, storeOf(storeId).storeId, customerId, body.merged, now()));
  });

  app.post(`${PREFIX}/:customerId/merge`, MERGE, async (request) => {
    const { storeId, customerId } = parseOr400(customerParams, request.params);
    const body = parseOr400(customerMergeBodySchema, request.body);
    const staff = staffOf(request);
    return ok<CustomerMerge>(await mergeCustomers(deps.db, storeOf(storeId).storeId, customerId, body.merged, { id: staff.id, name: staff.name }, now()));
  });

  app.post(`${PREFIX}/merges/:mergeId/undo`, MERGE, async (request) => {
    const { storeId, mergeId } = parseOr400(mergeParams, request.params);
    const staff = staffOf(request);
    return ok<CustomerMerge>(await undoMerge(deps.db, storeOf(storeId).storeId, mergeId, { id: staff.id, name: staff.name }, now()));
  });
}
