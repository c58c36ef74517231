import { useState, type FormEvent } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { CheckboxGroup } from '../components/forms.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText, query } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import type { WebhookCreateRequest, WebhookDeliveryPage, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventType, WebhookPatchRequest } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

const EVENTS = ['order.created', 'order.status_changed'] as const;

export function WebhooksPage() {
  useTitle('Webhooks');
  const { store } = useStore();
  const endpoints = useResource(String(store.id), () => api<WebhookEndpoint[]>('GET', `/stores/${store.id}/webhooks`));
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<WebhookEndpoint | null>(null);

  async function act(fn: () => Promise<unknown>) {
    setError(null);
    try {
      await fn();
      await endpoints.reload();
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <>
      <PageTitle
        actions={
          <button type="button" className="btn" onClick={() => setCreating(true)}>
            Add an endpoint
          </button>
        }
      >
        Webhooks
      </PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Order events are sent, signed (Standard Webhooks), to these addresses. Failed deliveries are retried; you can replay any delivery.
      </p>
      {secret && (
        <div role="alert" className="card mb-4 border-amber-500 bg-amber-50">
          <h2 className="font-semibold">Signing secret for {secret.url}</h2>
          <p>Copy it now: it is shown only once.</p>
          <code className="mt-2 block break-all rounded bg-white p-2 font-mono" data-testid="webhook-secret">
            {secret.secret}
          </code>
          <button type="button" className="btn-ghost mt-2" onClick={() => setSecret(null)}>
            I copied it
          </button>
        </div>
      )}
      <ErrorNote>{error ?? endpoints.error}</ErrorNote>
      {!endpoints.data ? (
        endpoints.loading && <Loading />
      ) : endpoints.data.length === 0 ? (
        <p>No endpoints yet.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Endpoints">
          {endpoints.data.map((endpoint) => (
            <li key={endpoint.id} className="card">
              <div className="flex flex-wrap items-center gap-2">
                <span className="break-all font-mono">{endpoint.url}</span>
                {endpoint.disabled ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Active</Badge>}
              </div>
              {endpoint.description && <p className="text-stone-700">{endpoint.description}</p>}
              <p className="text-sm">Events: {endpoint.events.join(', ')}</p>
              <div className="mt-3 flex flex-wrap gap-2">
                <button type="button" className="btn-secondary" onClick={() => setDeliveriesOf(endpoint)}>
                  Deliveries
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() =>
                    void act(async () => {
                      const answer = await api<WebhookEndpointWithSecret>('POST', `/stores/${store.id}/webhooks/${endpoint.id}/rotate-secret`);
                      setSecret({ url: endpoint.url, secret: answer.secret });
                    })
                  }
                >
                  Rotate secret
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() =>
                    void act(() => api('PATCH', `/stores/${store.id}/webhooks/${endpoint.id}`, { disabled: !endpoint.disabled } satisfies WebhookPatchRequest))
                  }
                >
                  {endpoint.disabled ? 'Enable' : 'Disable'}
                </button>
                <button
                  type="button"
                  className="btn-danger"
                  onClick={() => void act(() => api('DELETE', `/stores/${store.id}/webhooks/${endpoint.id}`))}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <CreateDialog
        open={creating}
        storeId={store.id}
        onClose={() => setCreating(false)}
        onCreated={(created) => {
          setCreating(false);
          if (created.secret) setSecret({ url: created.url, secret: created.secret });
          void endpoints.reload();
        }}
      />
      <DeliveriesDialog endpoint={deliveriesOf} storeId={store.id} timeZone={store.timezone} onClose={() => setDeliveriesOf(null)} />
    </>
  );
}

function CreateDialog({
  open,
  storeId,
  onClose,
  onCreated,
}: {
  open: boolean;
  storeId: number;
  onClose: () => void;
  onCreated: (e: WebhookEndpointWithSecret) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...EVENTS]);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const created = await api<WebhookEndpointWithSecret>('POST', `/stores/${storeId}/webhooks`, {
        url,
        events,
        ...(description ? { description } : {}),
      } satisfies WebhookCreateRequest);
      setUrl('');
      setDescription('');
      onCreated(created);
    } catch (err) {
      setError(errorText(err));
    }
  }
  return (
    <Dialog title="Add a webhook endpoint" open={open} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4">
        <ErrorNote>{error}</ErrorNote>
        <div>
          <label htmlFor="webhook-url">URL (https)</label>
          <input id="webhook-url" className="field" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
        </div>
        <div>
          <label htmlFor="webhook-description">Description</label>
          <input id="webhook-description" className="field" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <CheckboxGroup legend="Events" options={EVENTS.map((name) => ({ value: name, label: name }))} value={events} onChange={setEvents} />
        <button type="submit" className="btn" disabled={events.length === 0}>
          Add the endpoint
        </button>
      </form>
    </Dialog>
  );
}

function DeliveriesDialog({
  endpoint,
  storeId,
  timeZone,
  onClose,
}: {
  endpoint: WebhookEndpoint | null;
  storeId: number;
  timeZone: string;
  onClose: () => void;
}) {
  const [status, setStatus] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const key = endpoint ? `${endpoint.id}:${status}` : null;
  const deliveries = useResource(key, () =>
    api<WebhookDeliveryPage>(
      'GET',
      `/stores/${storeId}/webhooks/${endpoint!.id}/deliveries${query({ status })}`,
    ),
  );
  const rows = deliveries.data?.items ?? [];
  async function replay(id: number) {
    try {
      await api('POST', `/stores/${storeId}/webhook-deliveries/${id}/replay`);
      setNote('Delivery queued again.');
      await deliveries.reload();
    } catch (err) {
      setNote(errorText(err));
    }
  }
  return (
    <Dialog title={`Deliveries to ${endpoint?.url ?? ''}`} open={endpoint !== null} onClose={onClose}>
      <div className="grid gap-3">
        <div>
          <label htmlFor="delivery-status">Status</label>
          <select id="delivery-status" className="field" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All</option>
            <option value="pending">Pending</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
            <option value="disabled">Endpoint disabled</option>
          </select>
        </div>
        <div role="status">{note}</div>
        <ErrorNote>{deliveries.error}</ErrorNote>
        {rows.length === 0 ? (
          <p>No deliveries.</p>
        ) : (
          <ul className="grid max-h-96 gap-2 overflow-y-auto" aria-label="Deliveries">
            {rows.map((d) => (
              <li key={d.id} className="rounded border border-stone-300 p-2">
                <p>
                  <span className="font-mono">{d.event_type ?? d.event_id}</span> ·{' '}
                  <Badge tone={d.status === 'succeeded' ? 'green' : d.status === 'pending' ? 'amber' : 'red'}>{d.status}</Badge> ·{' '}
                  {dateTime(d.created_at, timeZone)}
                  {d.status === 'pending' && d.next_attempt_at ? ` · next try ${dateTime(d.next_attempt_at, timeZone)}` : ''}
                </p>
                {d.attempt_log.length > 0 && (
                  <ol className="ml-5 list-decimal text-sm" aria-label={`Attempts of delivery ${d.id}`}>
                    {d.attempt_log.map((a) => (
                      <li key={a.attempt}>
                        {dateTime(a.started_at, timeZone)}: {a.status_code === null ? 'no answer' : `HTTP ${a.status_code}`},{' '}
                        {a.duration_ms} ms
                        {a.error ? ` (${a.error})` : ''}
                      </li>
                    ))}
                  </ol>
                )}
                <button type="button" className="btn-ghost" onClick={() => void replay(d.id)}>
                  Replay
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
