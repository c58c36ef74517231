/**
 * "Why didn't I get the deal?" on the order page (issue 28 trace): the deals that applied, per line
 * as the order charged them, and for every other deal the store ran when the order was placed, the
 * reason it did not apply (the server runs the engine again at the order's moment:
 * apps/server/src/deals/trace.ts). Read by everyone who reads orders.
 */
import { ErrorNote, Loading } from '../components/ui.tsx';
import { api } from '../lib/api.ts';
import { money } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { DealTrace } from '../lib/types.ts';

export function OrderDeals({ storeId, orderId }: { storeId: number; orderId: string | number }) {
  const trace = useResource(`${storeId}/${orderId}`, () => api<DealTrace>('GET', `/stores/${storeId}/orders/${orderId}/deals-trace`));
  if (!trace.data) return trace.error ? <ErrorNote>{trace.error}</ErrorNote> : <Loading label="Checking the deals…" />;
  const t = trace.data;
  const touched = t.lines.filter((l) => l.deals.length > 0);
  return (
    <div className="grid gap-3" data-testid="deals-trace">
      {t.applied.length === 0 ? (
        <p>No deal applied to this order.</p>
      ) : (
        <div>
          <h3 className="font-semibold">Applied</h3>
          <ul className="list-disc pl-5">
            {touched.map((l) =>
              l.deals.map((d) => (
                <li key={`${l.sku}-${d.code}`}>
                  <span className="font-medium">{d.title}</span>: {money(d.discount_cents)} off {l.name} ({l.qty} ×{' '}
                  {money(l.unit_price_cents)})
                </li>
              )),
            )}
          </ul>
        </div>
      )}
      {t.not_applied.length > 0 && (
        <div>
          <h3 className="font-semibold">Did not apply</h3>
          <ul className="list-disc pl-5">
            {t.not_applied.map((n) => (
              <li key={n.code}>
                <span className="font-medium">{n.title}</span>: {n.text}
              </li>
            ))}
          </ul>
        </div>
      )}
      {!t.consistent && (
        <p className="rounded border border-amber-400 bg-amber-50 px-3 py-2">
          Checked again today, the deals come out differently from what the order charged (a product or a deal may have changed since).
          The order keeps what it charged.
        </p>
      )}
    </div>
  );
}
