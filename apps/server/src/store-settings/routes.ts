/**
 * The console's settings sections (issue 14), for every section of registry.ts:
 *   GET  /api/console/stores/:storeId/settings/sections/:section           orders:read
 *        → { section, title, value, version, source, updatedAt }
 *   PUT  /api/console/stores/:storeId/settings/sections/:section           settings:write
 *        { value, version } → the saved section; 400 invalid_settings; 409 stale_settings (meta.current)
 *   GET  /api/console/stores/:storeId/settings/sections/:section/history   settings:write
 *        ?before=&limit= → [{ id, at, actor, before, after }]
 * (`/settings/orders` is the older order-settings form, orders/console-routes.ts.)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sectionHistoryQuery, sectionParams, sectionSaveBody, type SectionAnswer } from '@verdant/domain/console-api';
import { ApiError, ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { staffOf } from '../staff/guard.ts';
import { sectionNamed } from './registry.ts';
import type { StoreSettings } from './service.ts';

const PREFIX = '/api/console/stores/:storeId/settings/sections/:section';

export function registerStoreSettingsRoutes(app: FastifyInstance, settings: StoreSettings): void {
  const target = (request: FastifyRequest) => {
    const p = parseOr400(sectionParams, request.params);
    const section = sectionNamed(p.section);
    if (!section) throw new ApiError(404, `No settings section ${p.section}.`, { errorCode: 'no_such_section' });
    return { storeId: p.storeId, section };
  };

  app.get(PREFIX, { config: { console: { permission: 'orders:read' } } }, async (request) => {
    const { storeId, section } = target(request);
    return ok({ section: section.name, title: section.title, ...(await settings.get(storeId, section)) } satisfies SectionAnswer<unknown>);
  });

  app.put(PREFIX, { config: { console: { permission: 'settings:write' } } }, async (request) => {
    const { storeId, section } = target(request);
    const body = parseOr400(sectionSaveBody, request.body);
    const staff = staffOf(request);
    const saved = await settings.save(storeId, section, body.value, body.version, { type: 'staff', id: staff.id, name: staff.name });
    return ok({ section: section.name, title: section.title, ...saved } satisfies SectionAnswer<unknown>);
  });

  app.get(`${PREFIX}/history`, { config: { console: { permission: 'settings:write' } } }, async (request) => {
    const { storeId, section } = target(request);
    const q = parseOr400(sectionHistoryQuery, request.query);
    return ok(await settings.history(storeId, section, { beforeId: q.before, limit: q.limit }));
  });
}
