import { useEffect } from 'react';
import { Badge, ErrorNote } from '../components/ui.tsx';
import { api } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { ConsoleStore, MessageDeliveryView, MessageList, MessageState } from '../lib/types.ts';

const TEMPLATE_LABELS: Record<string, string> = {
  order_confirmed: 'Order confirmed',
  order_ready_for_pickup: 'Ready for pickup',
  order_out_for_delivery: 'Out for delivery',
  order_cancelled: 'Order cancelled',
  store_new_order: 'New order (to the store)',
};

/** The one state of a message (issue 30): what the sender did and what the provider reported. */
const STATE_LABELS: Record<MessageState, string> = {
  queued: 'Queued',
  sent: 'Sent',
  awaiting: 'Sent, awaiting receipt',
  delivered: 'Delivered',
  failed: 'Failed',
  no_receipt: 'No receipt',
  not_sent: 'Not sent',
};
const STATE_TONES: Record<MessageState, 'stone' | 'amber' | 'green' | 'red' | 'blue'> = {
  queued: 'amber',
  sent: 'blue',
  awaiting: 'blue',
  delivered: 'green',
  failed: 'red',
  no_receipt: 'amber',
  not_sent: 'red',
};
const channelName = (c: MessageDeliveryView['channel']) => (c === 'sms' ? 'SMS' : 'E-mail');
const PROVIDER_NAMES: Record<string, string> = { outbox: 'outbox (not delivered)', http: 'gateway' };

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
            <li key={m.id} className="rounded border border-stone-300 p-2" aria-label={`${TEMPLATE_LABELS[m.template] ?? m.template}, ${channelName(m.channel)}: ${STATE_LABELS[m.state]}`}>
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{TEMPLATE_LABELS[m.template] ?? m.template}</span>
                <Badge>{channelName(m.channel)}</Badge>
                <Badge tone={STATE_TONES[m.state]}>{STATE_LABELS[m.state]}</Badge>
              </p>
              <p className="break-words text-sm text-stone-700">
                to {m.recipient} · {dateTime(m.receipt_at ?? m.sent_at ?? m.created_at, store.timezone)}
                {m.provider && <> · via {PROVIDER_NAMES[m.provider] ?? m.provider}</>}
              </p>
              {m.fallback_of !== null && (
                <p className="text-sm text-stone-800">
                  Fallback for the {channelName(items.find((x) => x.id === m.fallback_of)?.channel ?? (m.channel === 'sms' ? 'email' : 'sms'))} that did not arrive
                </p>
              )}
              {m.last_error && m.state !== 'sent' && m.state !== 'delivered' && <p className="break-words text-sm text-red-800">{m.last_error}</p>}
              <details className="mt-1">
                <summary className="cursor-pointer text-sm underline">Text</summary>
                <p className="whitespace-pre-line break-words text-sm">{m.body}</p>
              </details>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
