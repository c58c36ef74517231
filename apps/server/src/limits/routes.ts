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
import type { CommerceContext } from '../commerce.ts';
import { ok } from '../http/envelope.ts';
import { parseOr400 } from '../http/parse.ts';
import { cartTokenOf, requireCartWithLines, viewerOf } from '../cart/repository.ts';
import { readCart } from '../cart/view.ts';
import { evaluateCart, limitScope } from './enforce.ts';

const limitsQuerySchema = z.object({
  cartId: z.string().max(128).optional(),
  residency: z.enum(RESIDENCIES, { error: 'residency must be resident or non_resident' }).optional(),
});

export function registerLimitRoutes(app: FastifyInstance, c: CommerceContext): void {
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
