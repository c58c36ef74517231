/**
 * The OpenAPI document and the served routes agree (issue 13): every /api route is documented or
 * excluded on purpose, every documented operation is served, the document is valid OpenAPI 3.1,
 * and every operation's declared schemas are what its handler validates with (requests the document
 * calls invalid are answered 400 in the declared schema's words, parsed by that very schema object).
 * The same checks run on a tiny app whose declaration is wrong on purpose, and must catch it.
 * On SQLite and PostgreSQL (the routes run for real on a seeded demo catalogue).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REFERENCE_DATE, commerceApp, loginCustomer, registry } from '../../test-support/cart/testing.ts';
import { API_SCOPES, createApiKey } from '../integration/index.ts';
import { installBodyPolicy } from '../http/body-policy.ts';
import { ApiError, sendError } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { invalidRequests, routeAgreement } from '../../test-support/openapi/agreement.ts';
import { buildOpenApiDocument, collectedRoutesOf, installOpenApiCollector, isDocumentable } from './document.ts';
import { operationAnchor } from './page.ts';

const HOST = 'downtown.localhost';
type Json = Record<string, any>;

function operationsOf(doc: Json): { method: string; path: string }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => Object.keys(item).map((method) => ({ method, path })));
}

describeEachDatabase('OpenAPI document and served routes agree', (getDb) => {
  let app: FastifyInstance;
  let doc: Json;
  let customerToken: string;
  let apiKey: string;
  let writes = 0;

  beforeAll(async () => {
    app = await commerceApp(getDb());
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
    customerToken = (await loginCustomer(app, '9165551313', HOST)).token;
    const store = registry.stores.find((s) => `${s.storeCode}.localhost` === HOST) ?? registry.stores[0];
    apiKey = (
      await createApiKey(
        getDb().db,
        store.storeId,
        { name: 'openapi test', scopes: [...API_SCOPES], createdBy: 'document.test' },
        REFERENCE_DATE,
      )
    ).key;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('documents every served /api route outside the exclusions, and serves every documented operation', () => {
    const agreement = routeAgreement(app, doc);
    expect(agreement).toEqual({ undocumented: [], unserved: [] });
    // The storefront API of spec §7 is in it (a sample of each area), and the console's API is not.
    const ops = operationsOf(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    for (const op of [
      'POST /api/user/login',
      'GET /api/user/me',
      'POST /api/cart/update',
      'POST /api/order/save',
      'GET /api/stock/check',
      'GET /api/products/render-list',
      'GET /api/storeview',
      'POST /api/newsletter',
      'GET /api/catalog/products',
      'POST /api/url/map',
      'GET /api/cms/page/{id}',
      'POST /api/order-tracking',
      'GET /api/health',
    ]) {
      expect(ops).toContain(op);
    }
    expect(ops.filter((o) => o.includes('/api/console/'))).toEqual([]);
    expect(doc.info.description).toContain('/api/console/');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // Every security requirement names a declared scheme.
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const { method, path } of operationsOf(doc)) {
      for (const requirement of doc.paths[path][method].security ?? [])
        for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
    }
  });

  it('answers 400, in the declared schema’s words and parsed by that schema, every request the document calls invalid', async () => {
    const report = await invalidRequests(app, doc, {
      host: HOST,
      // The credentials the operation declares, so its validation is reached (the cart routes validate before they look the cart up).
      headersFor: (docs): Record<string, string> =>
        docs.security === 'customer'
          ? { authorization: `Bearer ${customerToken}` }
          : typeof docs.security === 'object'
            ? { authorization: `Bearer ${apiKey}`, 'idempotency-key': `openapi-test-${++writes}` }
            : {},
    });
    if (process.env.OPENAPI_DEBUG) console.log(JSON.stringify({ checked: [...report.checked], unbreakable: report.unbreakable }));
    expect(report.problems).toEqual([]);
    // The check is generic over the document: every operation with an input schema was checked.
    const withInput = collectedRoutesOf(app).filter(
      (r) => r.docs && (r.docs.body || r.docs.query || r.docs.params) && isDocumentable(r.method, r.url),
    );
    expect([...report.checked.keys()].sort()).toEqual(
      [...new Set(withInput.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`))].sort(),
    );
    const sent = [...report.checked.values()].reduce((a, b) => a + b, 0);
    expect(sent).toBeGreaterThan(40);
  });

  it('documents the cart quantity as what a client sends (preprocessed numeric strings: an integer ≥ 1)', () => {
    const body = doc.paths['/api/cart/update'].post.requestBody;
    expect(body.required).toBe(true);
    const oneItem = body.content['application/json'].schema.anyOf.find((b: Json) => b.properties?.cartItem);
    expect(oneItem.properties.cartItem.properties.qty).toMatchObject({ type: 'integer', exclusiveMinimum: 0 });
    expect(oneItem.required).toContain('cartItem');
  });

  it('serves a readable docs page listing every operation, without scripts', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs', headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/https?:\/\/(?!json-schema)/); // nothing from another origin
    for (const { method, path } of operationsOf(doc)) {
      expect(html, `${method} ${path}`).toContain(`id="${operationAnchor(method, path)}"`);
      expect(html).toContain(`href="#${operationAnchor(method, path)}"`);
    }
    expect(html).toContain('<h2 id="tag-cart">Cart</h2>');
  });
});

describe('the agreement checks catch a route whose declaration differs from what it validates', () => {
  // What the route really takes: a quantity of 1 to 10.
  const served = z.object({ qty: z.number().int().min(1, 'qty must be at least 1').max(10, 'qty must be at most 10') });

  async function tinyApp(declared: z.ZodType, path = '/api/thing'): Promise<FastifyInstance> {
    const app = Fastify({ logger: false });
    installBodyPolicy(app);
    installOpenApiCollector(app);
    app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) =>
      error instanceof ApiError
        ? sendError(reply, error.statusCode, error.message)
        : sendError(reply, error.statusCode ?? 500, error.message),
    );
    app.post(path, { config: { docs: { summary: 'Take a thing', tags: ['Thing'], body: declared } } }, async (request) => {
      const body = parseOr400(served, request.body);
      return { code: 200, result: body.qty };
    });
    await app.ready();
    return app;
  }

  it('passes when the declaration is the schema the handler validates with', async () => {
    const app = await tinyApp(served);
    const doc = buildOpenApiDocument(collectedRoutesOf(app));
    const report = await invalidRequests(app, doc);
    expect(report.problems).toEqual([]);
    expect(report.checked.get('POST /api/thing')).toBeGreaterThan(0);
    await app.close();
  });

  it('fails when the declared schema differs (a field the handler does not take)', async () => {
    const app = await tinyApp(z.object({ quantity: z.number().int().min(1) }));
    const report = await invalidRequests(app, buildOpenApiDocument(collectedRoutesOf(app)));
    expect(report.problems.length).toBeGreaterThan(0);
    expect(report.problems.map((p) => p.operation)).toContain('POST /api/thing');
    await app.close();
  });

  it('fails when the declared schema looks the same but is another object (a copy can drift)', async () => {
    const copy = z.object({ qty: z.number().int().min(1, 'qty must be at least 1').max(10, 'qty must be at most 10') });
    const app = await tinyApp(copy);
    const report = await invalidRequests(app, buildOpenApiDocument(collectedRoutesOf(app)));
    expect(report.problems.map((p) => p.problem)).toContain('the handler did not parse the request with the declared schema object');
    await app.close();
  });

  it('fails when the declared schema is looser than the route (the document calls valid what the route refuses)', async () => {
    const app = await tinyApp(z.object({ qty: z.number().optional() }));
    const report = await invalidRequests(app, buildOpenApiDocument(collectedRoutesOf(app)));
    expect(report.problems.length).toBeGreaterThan(0);
    await app.close();
  });

  it('fails when a served route is missing from the document, or a documented one is not served', async () => {
    const app = Fastify({ logger: false });
    installBodyPolicy(app);
    installOpenApiCollector(app);
    app.get('/api/documented', { config: { docs: { summary: 'Documented', tags: ['T'] } } }, async () => ({ code: 200, result: 1 }));
    app.get('/api/forgotten', async () => ({ code: 200, result: 2 }));
    await app.ready();
    const doc = buildOpenApiDocument(collectedRoutesOf(app));
    (doc.paths as Json)['/api/ghost'] = { get: { summary: 'Not served', responses: { 200: { description: 'x' } } } };
    expect(routeAgreement(app, doc)).toEqual({ undocumented: ['GET /api/forgotten'], unserved: ['GET /api/ghost'] });
    await app.close();
  });
});
