/**
 * GET /api/openapi.json and GET /api/docs (issue 13). The document is built once, on the first
 * request after the app is ready (every route is registered by then), and kept: routes do not
 * change while the process runs. Register them after the app's error handler (errors in the
 * envelope); the collector (installOpenApiCollector) is installed before every route.
 */
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, collectedRoutesOf } from './document.ts';
import { renderDocsPage } from './page.ts';

export function registerOpenApiRoutes(app: FastifyInstance, version = '1.0.0'): void {
  let doc: Record<string, unknown> | undefined;
  let page: string | undefined;
  const documentOf = () => (doc ??= buildOpenApiDocument(collectedRoutesOf(app), { version }));

  app.get(
    '/api/openapi.json',
    { config: { docs: { summary: 'This API as an OpenAPI 3.1 document', tags: ['Documentation'], security: 'none' } } },
    // The document itself, not wrapped in the {code, result} envelope: tools read it as it is.
    async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(documentOf()),
  );
  app.get(
    '/api/docs',
    {
      config: {
        docs: {
          summary: 'This API as a page to read',
          description: 'HTML, one section per tag.',
          tags: ['Documentation'],
          security: 'none',
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send((page ??= renderDocsPage(documentOf()))),
  );
}

