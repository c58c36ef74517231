/**
 * The contract between an API route and the OpenAPI document (issue 13): a route declares what it
 * accepts with the same zod schemas its handler validates with, in its route options:
 *
 *   const body = z.object({ ... });
 *   app.post('/api/integration/v1/stock', { config: { docs: { summary: 'Set stock levels', tags: ['Integration'], body, security: 'apiKey' } } },
 *     async (request) => { const input = parseOr400(body, request.body); ... });
 *
 * The document at /api/openapi.json is built from these declarations (openapi/), and a test fails
 * when a documented route and the served routes disagree. Routes left out of the document on
 * purpose (the console's own API, assets) are listed there with the reason.
 */
import type { z } from 'zod';

export interface RouteDocs {
  /** One line, imperative ("Set stock levels"). */
  summary: string;
  /** Longer text (Markdown) where the summary is not enough: rules, limits, error cases. */
  description?: string;
  /** Groups in the docs page, e.g. ['Cart'], ['Integration: menu']. */
  tags: string[];
  /** Path parameters (`:id` in the Fastify path becomes `{id}` in the document). */
  params?: z.ZodType;
  query?: z.ZodType;
  /** JSON request body. */
  body?: z.ZodType;
  /** The `result` (or whole answer) of a successful response, when a schema exists for it. */
  response?: z.ZodType;
  /** Who may call it: nobody in particular, a customer token, a staff session, a store API key (with its scope). */
  security?: 'none' | 'customer' | 'staff' | { apiKey: string };
  /** Headers the route reads, e.g. { 'Idempotency-Key': 'required on every write' }. */
  headers?: Record<string, string>;
  /** Status codes besides 200 the route answers, with their meaning. */
  errors?: Record<number, string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's entry in the OpenAPI document (http/route-docs.ts). */
    docs?: RouteDocs;
  }
}
