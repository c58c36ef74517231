import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MESSAGES, type Store } from '@verdant/domain';
import { ok, sendError } from '../http/envelope.ts';
import type { StoreRegistry } from './registry.ts';

/**
 * The public view of a store (spec §7 storeview): its settings plus specials, best_sellers,
 * compliance_settings and place_info lifted to the top level where the original client reads them.
 */
export function storeView(store: Store) {
  const ds = store.dispensarySettings;
  return {
    storeCode: store.storeCode,
    storeId: store.storeId,
    name: store.name,
    url: store.url,
    logo: store.logo,
    appendStoreCode: store.appendStoreCode,
    themeColor: store.themeColor,
    dispensarySettings: {
      license_recreational: ds.license_recreational,
      license_medical: ds.license_medical,
    },
    seo: store.seo,
    i18n: store.i18n,
    tax: store.tax,
    specials: ds.specials,
    best_sellers: ds.best_sellers,
    compliance_settings: ds.compliance_settings ?? null,
    place_info: ds.place_info,
  };
}

const querySchema = z.object({
  storeCode: z
    .string()
    .trim()
    .min(1, 'storeCode must not be empty')
    .max(64, 'storeCode is too long')
    .optional(),
});

export function registerStoreviewRoutes(app: FastifyInstance, registry: StoreRegistry): void {
  // The payloads never change while the process runs, so serialise each once.
  const bodies = new Map(registry.stores.map((s) => [s.storeCode, JSON.stringify(ok(storeView(s)))]));

  app.get(
    '/api/storeview',
    { config: { docs: { summary: 'The store: settings, specials, best sellers, compliance settings, place info', tags: ['Store'], query: querySchema, security: 'none', errors: { 404: 'No such store' } } } },
    async (request, reply) => {
    const parsed = querySchema.safeParse(request.query);
    if (!parsed.success) return sendError(reply, 400, parsed.error.issues[0].message);
    // Without a storeCode the store is the one the request's host (or path prefix) resolves to.
    const code = parsed.data.storeCode?.toLowerCase() ?? request.store.storeCode;
    const body = bodies.get(code);
    if (!body) return sendError(reply, 404, MESSAGES.storeNotFound(parsed.data.storeCode ?? code));
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=60').send(body);
  });
}
