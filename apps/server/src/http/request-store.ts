/**
 * The store a storefront read is for: the request's own (host or store-code path prefix), or the one
 * a `storeCode` query parameter names (as queued offline tasks carry it, spec §7); an unknown code is
 * a 404. Used by the catalogue, URL and CMS APIs.
 */
import type { FastifyRequest } from 'fastify';
import { MESSAGES, type Store } from '@verdant/domain';
import { ApiError } from './envelope.ts';
import type { StoreRegistry } from '../stores/registry.ts';

export function requestStore(registry: StoreRegistry, request: FastifyRequest): Store {
  const code = (request.query as Record<string, unknown> | undefined)?.storeCode;
  if (code === undefined) return request.store;
  if (typeof code !== 'string' || code.trim() === '') throw new ApiError(400, 'storeCode must not be empty');
  const store = registry.byCode(code.trim().toLowerCase());
  if (!store) throw new ApiError(404, MESSAGES.storeNotFound(code.slice(0, 64)));
  return store;
}
