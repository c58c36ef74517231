/**
 * Request helpers shared by the catalogue, URL and CMS APIs: the store a request is for, zod
 * validation with a 400 that names the bad parameter, and the engine's query errors as 400s
 * (bad input gets a clear 4xx, never a 500).
 */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MESSAGES, type Store } from '@verdant/domain';
import { InvalidQueryError, SearchTermTooShortError } from '@verdant/search';
import { ApiError } from '../http/envelope.ts';
import type { StoreRegistry } from '../stores/registry.ts';

/**
 * The store of the request (host or store-code path prefix), or the one a `storeCode` query
 * parameter names (as queued offline tasks carry it, spec §7); an unknown code is a 404.
 */
export function requestStore(registry: StoreRegistry, request: FastifyRequest): Store {
  const code = (request.query as Record<string, unknown> | undefined)?.storeCode;
  if (code === undefined) return request.store;
  if (typeof code !== 'string' || code.trim() === '') throw new ApiError(400, 'storeCode must not be empty');
  const store = registry.byCode(code.trim().toLowerCase());
  if (!store) throw new ApiError(404, MESSAGES.storeNotFound(code.slice(0, 64)));
  return store;
}

/** Parse or throw a 400 naming the first bad field. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue.path.join('.');
  // Messages written for a field already name it ("size must be at most 999").
  const named = path === '' || issue.message.startsWith(String(issue.path.at(-1)));
  throw new ApiError(400, named ? issue.message : `${path}: ${issue.message}`);
}

function toApiError(error: unknown): unknown {
  if (error instanceof SearchTermTooShortError || error instanceof InvalidQueryError)
    return new ApiError(400, error.message);
  return error;
}

/** Run an engine call (sync or async), turning its query errors into 400s with their message. */
export function searching<T>(run: () => T): T {
  try {
    const result = run();
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw toApiError(error);
      }) as T;
    }
    return result;
  } catch (error) {
    throw toApiError(error);
  }
}

/** `a,b, c` → ['a', 'b', 'c'], empty parts dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
