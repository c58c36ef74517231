/**
 * Bad input gets a 4xx in the `{code, result}` envelope before any handler sees it, once for
 * every route (handlers may then read `request.body` as an object without checking):
 *  - the API takes JSON (and multipart where a route registers it): Fastify's text/plain parser is
 *    removed, so a JSON text sent as `text/plain` or any unusual type is a 415, not a string body;
 *  - an API body that parsed to anything but a JSON object (`0`, `9007199254740992`, `"x"`,
 *    `[…]`, `null`) is a 400 in preValidation;
 *  - a JSON body nested deeper than MAX_JSON_DEPTH (64) objects/arrays is a 400, judged by one
 *    iterative pass over the text before parsing: no route takes such a shape, and code that walks
 *    a body recursively (the idempotency keys' canonical JSON) would overflow the stack on it;
 *  - a NUL character (`%00` in the URL, `\u0000` in a JSON body) is a 400: no field takes one,
 *    and PostgreSQL refuses it in text (an error, a 500, deep in a handler);
 *  - a path with a broken escape (`/api/catalog/product/%ZZ`, or a page) or an overlong parameter
 *    is a 400 through Fastify's `frameworkErrors`, which answer before any hook runs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, preValidationHookHandler } from 'fastify';
import { ApiError, sendError } from './envelope.ts';
import { setBareSecurityHeaders } from './security-headers.ts';

export const BODY_MESSAGES = {
  notObject: 'The request body must be a JSON object.',
  nul: 'The request must not contain NUL characters.',
  badUrl: 'The address is malformed.',
  tooDeep: 'The request body is nested too deeply (at most 64 levels of objects and arrays).',
} as const;

/** Objects and arrays inside each other, at most (the body itself is level 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests objects/arrays deeper than `max`: one pass, no recursion, brackets
 * inside strings ignored (escapes followed). Malformed text is left to the parser.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A route's method and path as registered (for the fuzz test and the write limits). */
export interface RouteEntry {
  method: string;
  url: string;
}

const routeTables = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Every route of the app (root and child scopes), in registration order. */
export function routesOf(app: FastifyInstance): readonly RouteEntry[] {
  return routeTables.get(app) ?? [];
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const refuseBadInput: preValidationHookHandler = (request, _reply, done) => {
  if (request.url.includes('%00')) return done(new ApiError(400, BODY_MESSAGES.nul));
  // undefined: no body (or a multipart stream the route reads itself).
  if (request.body === undefined || isJsonObject(request.body)) return done();
  done(new ApiError(400, BODY_MESSAGES.notObject));
};

/** Call before any route is registered (the onRoute hook sees only later routes). */
export function installBodyPolicy(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  // Fastify's own JSON parser (prototype poisoning refused), after a look for NUL characters.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.includes('\\u0000') || text.includes('\u0000')) return done(new ApiError(400, BODY_MESSAGES.nul), undefined);
    if (jsonTooDeep(text)) return done(new ApiError(400, BODY_MESSAGES.tooDeep, { errorCode: 'body_too_deep' }), undefined);
    json(request, text, done);
  });
  const table: RouteEntry[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) table.push({ method, url: route.url });
    if (!route.url.startsWith('/api/')) return;
    const existing = route.preValidation;
    route.preValidation = [refuseBadInput, ...(existing ? (Array.isArray(existing) ? existing : [existing]) : [])];
  });
}

/** Fastify's `frameworkErrors` option: a bad URL answers the envelope (pages too) instead of Fastify's shape. */
export function frameworkErrors(error: Error & { statusCode?: number; code?: string }, _request: FastifyRequest, reply: FastifyReply): void {
  setBareSecurityHeaders(reply);
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  sendError(reply, status, status === 400 ? BODY_MESSAGES.badUrl : error.message);
}
