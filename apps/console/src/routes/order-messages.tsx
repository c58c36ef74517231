import { useEffect } from 'react';
import { Badge, ErrorNote } from '../components/ui.tsx';
import { api } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { ConsoleStore, MessageList } from '../lib/types.ts';

const TEMPLATE_LABELS: Record<string, string> = {
  order_confirmed: 'Order confirmed',
  order_ready_for_pickup: 'Ready for pickup',
  order_out_for_delivery: 'Out for delivery',
  order_cancelled: 'Order cancelled',
  store_new_order: 'New order (to the store)',
};

/** What the store sent about this order (SMS and e-mail log), read again whenever the order changed. */
export function OrderMessages({ store, orderId, version }: { store: ConsoleStore; orderId: number; version: number }) {
  const messages = useResource(`${store.id}/${orderId}`, () =>
    api<MessageList>('GET', `/stores/${store.id}/messages?orderId=${orderId}`),
  );
  useEffect(() => {
    void messages.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);
  const items = messages.data?.items ?? [];
  return (
    <>
      <ErrorNote>{messages.error}</ErrorNote>
      {items.length === 0 ? (
        <p>No messages sent for this order yet.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Messages sent">
          {items.map((m) => (
            <li key={m.id} className="rounded border border-stone-300 p-2">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{TEMPLATE_LABELS[m.template] ?? m.template}</span>
                <Badge>{m.channel === 'sms' ? 'SMS' : 'E-mail'}</Badge>
                <Badge tone={m.status === 'sent' ? 'green' : m.status === 'failed' ? 'red' : 'amber'}>{m.status}</Badge>
                <span className="text-sm text-stone-700">
                  to {m.recipient} · {dateTime(m.sent_at ?? m.created_at, store.timezone)}
                </span>
              </p>
              {m.last_error && m.status !== 'sent' && <p className="text-sm text-red-800">{m.last_error}</p>}
              <details className="mt-1">
                <summary className="cursor-pointer text-sm underline">Text</summary>
                <p className="whitespace-pre-line text-sm">{m.body}</p>
              </details>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
