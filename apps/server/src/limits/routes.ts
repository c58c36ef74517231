/**
 * GET /api/cart/limits (issue 14): the cart's purchase-limit meters — one per bucket of the store's
 * model, what earlier orders in the window used, what the cart adds, the cap and what is left — and,
 * when over, which bucket, by how much and what to remove; whether the store needs the shopper's
 * residency; and, for a guest, the notice that only this order is counted. The browser shows these
 * beside the cart; the server enforces the same evaluation (./enforce.ts).
 */
import { modelNeedsResidency, RESIDENCIES } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommerceContext } from '../commerce-context.ts';
import { ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { cartTokenOf, requireCartWithLines, viewerOf } from '../cart/repository.ts';
import { readCart } from '../cart/view.ts';
import { evaluateCart, limitScope } from './enforce.ts';
import { limitsInForce } from './in-force.ts';
import { ApiError } from '../http/envelope.ts';

const consoleStoreParams = z.object({ storeId: z.coerce.number().int().positive().max(2_147_483_647) });

const limitsQuerySchema = z.object({
  cartId: z.string().max(128).optional(),
  residency: z.enum(RESIDENCIES, { error: 'residency must be resident or non_resident' }).optional(),
});

export function registerLimitRoutes(app: FastifyInstance, c: CommerceContext): void {
  // Issue 26: which model is in force at the store and why, and which products count by a
  // derivation from their kind (the menu gives no explicit concentrate grams, THC or weight).
  app.get(
    '/api/console/stores/:storeId/limits/in-force',
    {
      config: {
        console: { permission: 'orders:read' },
        docs: {
          summary: 'Which purchase-limit model is in force, why, and which products count by a derivation',
          description:
            '`model` (`per_order`: the spec’s per-order limit, `preset`, `own`), `preset`, the store’s `state` and its `state_preset`, ' +
            '`source` (saved, stores-file, default), `reason` in words, `counting` (`spec`: products count as spec §5 says; `menu`: ' +
            'the menu’s facts and the product’s kind) and `derived_products`: each product whose limit facts the menu leaves out, ' +
            'with how they were derived from its kind and net weight.',
          tags: ['Console'],
          params: consoleStoreParams,
        },
      },
    },
    async (request) => {
      const { storeId } = parseOr400(consoleStoreParams, request.params);
      const store = c.registry.stores.find((s) => s.storeId === storeId);
      if (!store) throw new ApiError(404, 'No such store.');
      return ok(await limitsInForce(c.db, store));
    },
  );

  app.get(
    '/api/cart/limits',
    {
      config: {
        docs: {
          summary: 'Read the cart’s purchase-limit meters',
          description:
            'One meter per bucket of the store’s limit model (amounts in the bucket’s unit), the buckets over their cap with what to remove, ' +
            'whether the store asks the shopper’s residency (`residency` query: the stricter cap applies until it is given), and the guest notice.',
          tags: ['Cart'],
          security: 'none',
          query: limitsQuerySchema,
        },
      },
    },
    async (request) => {
      const query = parseOr400(limitsQuerySchema, request.query);
      const viewer = await viewerOf(request);
      const { cart, rows } = await requireCartWithLines(c.db, cartTokenOf(request), request.store.storeId, viewer);
      const now = c.now();
      const entries = await readCart(c.db, c.catalog, request.store, rows, viewer.customer, now);
      const lines = entries.flatMap((e) => (e.resolved ? [e.resolved] : []));
      const scope = await limitScope(c.db, request.store);
      const e = await evaluateCart(
        c.db,
        { ...scope, customerType: cart.license_type, residency: query.residency ?? null, customerId: viewer.customer?.id ?? null, now },
        lines,
      );
      const amount = (n: number) => n / 1000;
      const lineOf = (id: string) => lines[Number(id.split(':')[0])];
      return ok({
        ok: e.ok,
        needs_residency: modelNeedsResidency(scope.limits.model),
        meters: e.meters
          .filter((m) => m.cap.kind === 'cap')
          .map((m) => ({
            bucket: m.bucketId,
            label: m.label,
            unit: m.unit,
            window: m.window,
            cap: m.cap.kind === 'cap' ? amount(m.cap.max) : null,
            used: amount(m.used),
            in_cart: amount(m.inCart),
            remaining: m.remaining == null ? null : amount(m.remaining),
            over: m.over,
            text: m.text,
          })),
        violations: e.violations.map((v) => ({
          bucket: v.bucketId,
          label: v.label,
          unit: v.unit,
          excess: amount(v.excess),
          reason: v.reason,
          message: v.message,
        })),
        remove: e.remove.map((r) => ({ sku: lineOf(r.lineId)?.sku ?? null, name: lineOf(r.lineId)?.name ?? null, qty: r.qty })),
        message: e.message,
        guest_notice: e.guestNotice,
      });
    },
  );
}
