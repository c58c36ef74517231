/**
 * The OpenAPI 3.1 document of the HTTP API (issue 13), built from the routes' own declarations
 * (http/route-docs.ts): every route's `config.docs` names the zod schemas its handler validates
 * with, and they are turned into JSON Schema here with zod's own `z.toJSONSchema` (io: 'input', so
 * a schema is documented by what a client may send, not by what the handler gets after parsing: a
 * coerced query number is an integer parameter, which OpenAPI serialises as the string the route
 * reads). A preprocessing schema (the cart's qtySchema, which also takes "2") is documented by the
 * schema after its preprocess step (an integer ≥ 1): what the document calls valid the route takes,
 * and the extra leniency stays undocumented rather than guessed (a preprocess is a function).
 *
 * What is in the document: every /api route outside the console (the storefront API of spec §7,
 * accounts, uploads, order tracking, health, snapshots, this document itself) and the integration
 * API for POS systems (/api/integration/v1). What is left out on purpose is OUT_OF_DOCUMENT below,
 * each with its reason; the agreement test (document.test.ts) fails for any other served /api
 * route that is not documented, and for any documented operation that is not served.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { RouteDocs } from '../http/route-docs.ts';
import { STAFF_COOKIE } from '../staff/sessions.ts';

/** A served route and its declaration (undefined: the route declares nothing). */
export interface CollectedRoute {
  method: string;
  url: string;
  docs: RouteDocs | undefined;
}

/**
 * Routes left out of the document on purpose (method '*' = every method), with the reason:
 *  - the console's API is the console app's private API: it changes with the console in one
 *    commit, is called only by that app with a staff cookie session and a CSRF header, and is no
 *    contract for anybody else (a POS integrates through /api/integration/v1, which is documented);
 *  - the /api catch-all only answers 404 for paths that do not exist.
 * Routes outside /api (pages, sitemaps, robots.txt, the web manifest, /img and /media files, the
 * console's assets) are not API operations and never enter the document.
 */
export const OUT_OF_DOCUMENT: readonly { method: string; path: string; prefix?: boolean; reason: string }[] = [
  {
    method: '*',
    path: '/api/console/',
    prefix: true,
    reason: "the store console's private API (staff session + CSRF), not a public contract",
  },
  { method: '*', path: '/api/*', reason: 'catch-all: answers 404 for unknown API paths' },
];

export function isOutOfDocument(method: string, url: string): boolean {
  return OUT_OF_DOCUMENT.some((e) => (e.method === '*' || e.method === method) && (e.prefix ? url.startsWith(e.path) : url === e.path));
}

/** Whether a served route belongs in the document: an /api route, not excluded, and not Fastify's automatic HEAD twin of a GET. */
export function isDocumentable(method: string, url: string): boolean {
  return url.startsWith('/api/') && method !== 'HEAD' && !isOutOfDocument(method, url);
}

const collected = new WeakMap<FastifyInstance, CollectedRoute[]>();

/**
 * Record every route registered from now on with its `config.docs` (call in buildApp before any
 * route, next to installBodyPolicy: an onRoute hook sees only later routes, child scopes included).
 */
export function installOpenApiCollector(app: FastifyInstance): void {
  const table: CollectedRoute[] = [];
  collected.set(app, table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const docs = (route.config as { docs?: RouteDocs } | undefined)?.docs;
    for (const method of methods) table.push({ method: method.toUpperCase(), url: route.url, docs });
  });
}

export function collectedRoutesOf(app: FastifyInstance): readonly CollectedRoute[] {
  return collected.get(app) ?? [];
}

/** Fastify's `/a/:id/b` as OpenAPI's `/a/{id}/b`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

type JsonSchema = Record<string, unknown>;

/** A zod schema as the JSON Schema of what a client sends (2020-12, the dialect of OpenAPI 3.1). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    // A refine or transform has no JSON Schema: the schema says what it can, the route checks the rest.
    unrepresentable: 'any',
    // Inline everything: a `$ref: '#/$defs/…'` would resolve against the whole document, not the schema.
    reused: 'inline',
    cycles: 'throw',
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function objectProperties(json: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
}

const envelope = (result: JsonSchema, description: string): JsonSchema => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { code: { type: 'integer' }, result, meta: { type: 'object' } },
        required: ['code', 'result'],
      },
    },
  },
});

const errorEnvelope = (description: string): JsonSchema => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function securityOf(security: RouteDocs['security']): Record<string, string[]>[] | undefined {
  if (!security || security === 'none') return [];
  if (security === 'customer') return [{ customerBearer: [] }, { customerTokenQuery: [] }];
  if (security === 'staff') return [{ staffSession: [] }];
  return [{ apiKey: [security.apiKey] }];
}

export interface DocumentInfo {
  version: string;
}

/** The document for the routes collected from an app (documentable ones only). */
export function buildOpenApiDocument(
  routes: readonly CollectedRoute[],
  info: DocumentInfo = { version: '1.0.0' },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (!route.docs || !isDocumentable(route.method, route.url)) continue;
    const d = route.docs;
    const path = openApiPath(route.url);
    const parameters: JsonSchema[] = [];
    const pathNames = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const paramProps = d.params ? objectProperties(jsonSchemaOf(d.params)) : [];
    for (const name of pathNames) {
      const declared = paramProps.find((p) => p.name === name);
      parameters.push({ name, in: 'path', required: true, schema: declared?.schema ?? { type: 'string' } });
    }
    if (d.query) {
      for (const p of objectProperties(jsonSchemaOf(d.query))) {
        const { description, ...schema } = p.schema;
        parameters.push({ name: p.name, in: 'query', required: p.required, ...(description ? { description } : {}), schema });
      }
    }
    for (const [name, description] of Object.entries(d.headers ?? {})) {
      parameters.push({ name, in: 'header', required: /^required/i.test(description), description, schema: { type: 'string' } });
    }
    const responses: Record<string, unknown> = {
      '200': envelope(d.response ? jsonSchemaOf(d.response) : {}, 'Success: `{code: 200, result}`'),
    };
    if ((d.body || d.query || d.params) && !d.errors?.[400])
      responses['400'] = errorEnvelope('Invalid request: the first problem, in words');
    for (const [status, description] of Object.entries(d.errors ?? {})) responses[status] = errorEnvelope(description);
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: d.summary,
      ...(d.description ? { description: d.description } : {}),
      tags: d.tags,
      ...(parameters.length ? { parameters } : {}),
      responses,
    };
    if (d.body) {
      // parseOr400 reads a missing body as {}: the body is optional exactly when {} is valid.
      operation.requestBody = {
        required: !d.body.safeParse({}).success,
        content: { 'application/json': { schema: jsonSchemaOf(d.body) } },
      };
    }
    const security = securityOf(d.security);
    if (security) operation.security = security;
    for (const tag of d.tags) tags.add(tag);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Verdant API',
      version: info.version,
      description: [
        'The HTTP API of a Verdant deployment: the storefront API (spec §7: user, cart, order, stock, prices, storeview,',
        'newsletter, catalogue search, URL mapping, CMS), accounts, uploads, order tracking, and the integration API for',
        'point-of-sale systems (`/api/integration/v1`, store API keys with scopes).',
        '',
        'Every answer is JSON `{code, result}` (errors too: `code` is the HTTP status, `result` a sentence, `errorCode` a stable',
        'code where one exists). Amounts are integer cents. The store is the one of the request host, or `storeCode`.',
        '',
        "Not documented on purpose: the store console's own API (`/api/console/…`). It is the console app's private API,",
        'changed together with that app and called only with a staff session cookie and a CSRF header; integrations use',
        '`/api/integration/v1` instead.',
      ].join('\n'),
    },
    servers: [{ url: '/', description: 'The store host (or any host, with the storeCode query parameter)' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          properties: {
            code: { type: 'integer', description: 'The HTTP status' },
            result: { type: 'string', description: 'What went wrong, in words a person can read' },
            errorCode: { type: 'string', description: 'A stable code to branch on, where the route has one' },
            meta: { type: 'object' },
          },
          required: ['code', 'result'],
        },
      },
      securitySchemes: {
        customerBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A customer access token (POST /api/user/login) as `Authorization: Bearer …` (spec §7).',
        },
        customerTokenQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: 'The same customer access token as the `token` query parameter (spec §7).',
        },
        staffSession: {
          type: 'apiKey',
          in: 'cookie',
          name: STAFF_COOKIE,
          description: 'A staff session of the store console (with the CSRF header on writes).',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A store API key for the integration API, created in the console or CLI and shown once. Each key carries scopes (`menu:write`, `orders:read`, `orders:write`); an operation lists the scope it needs. ' +
            'A key is revoked in the console (`POST /api/console/stores/{storeId}/api-keys/{keyId}/revoke`) or with `npm run api-key -- revoke --id N`; there is no DELETE.',
        },
      },
    },
  };
}
