import { useEffect, useState, type FormEvent } from 'react';
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText } from '../lib/api.ts';
import { useResource } from '../lib/use-resource.ts';
import type { NotificationTemplate, OrderSettings, OrderSettingsRequest } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

const TEMPLATES = [
  ['order_confirmed', 'Order confirmed'],
  ['order_ready_for_pickup', 'Ready for pickup'],
  ['order_out_for_delivery', 'Out for delivery'],
  ['order_cancelled', 'Order cancelled'],
] as const;

export function SettingsPage() {
  useTitle('Order settings');
  const { store } = useStore();
  const settings = useResource(String(store.id), () => api<OrderSettings>('GET', `/stores/${store.id}/settings/orders`));
  const [form, setForm] = useState<OrderSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setForm(settings.data), [settings.data]);

  if (!form) return settings.error ? <ErrorNote>{settings.error}</ErrorNote> : <Loading />;
  const set = (patch: Partial<OrderSettings>) => {
    setSaved(null);
    setForm({ ...form, ...patch });
  };
  const channel = (template: NotificationTemplate, which: 'sms' | 'email', on: boolean) =>
    set({
      notifications: {
        ...form.notifications,
        [template]: { ...(form.notifications[template] ?? { sms: false, email: false }), [which]: on },
      },
    });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api<OrderSettings>('PUT', `/stores/${store.id}/settings/orders`, {
        ...form,
        order_email: form.order_email?.trim() || null,
      } satisfies OrderSettingsRequest);
      settings.setData(answer);
      setSaved('Settings saved.');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageTitle>Order settings</PageTitle>
      <form onSubmit={submit} className="grid max-w-2xl gap-4" aria-label="Order settings">
        <ErrorNote>{error}</ErrorNote>
        <div role="status">{saved}</div>
        <fieldset className="card grid gap-3">
          <legend className="font-semibold">Confirming orders</legend>
          <label className="flex items-center gap-2 font-normal">
            <input
              type="checkbox"
              className="size-5"
              checked={form.auto_confirm}
              onChange={(e) => set({ auto_confirm: e.target.checked })}
            />
            Confirm new orders automatically
          </label>
          <div>
            <label htmlFor="auto-minutes">Ready-by for automatic confirmations (minutes after the order)</label>
            <input
              id="auto-minutes"
              className="field max-w-40"
              type="number"
              min={1}
              max={1440}
              required
              value={form.auto_confirm_minutes}
              onChange={(e) => set({ auto_confirm_minutes: Number(e.target.value) })}
            />
          </div>
          <div>
            <label htmlFor="pickup-window">Pickup window (hours after ready-by, then no-show)</label>
            <input
              id="pickup-window"
              className="field max-w-40"
              type="number"
              min={1}
              max={336}
              required
              value={form.pickup_window_hours}
              onChange={(e) => set({ pickup_window_hours: Number(e.target.value) })}
            />
          </div>
        </fieldset>
        <fieldset className="card">
          <legend className="font-semibold">Messages to shoppers</legend>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Message</th>
                <th scope="col">SMS</th>
                <th scope="col">E-mail</th>
              </tr>
            </thead>
            <tbody>
              {TEMPLATES.map(([template, label]) => (
                <tr key={template}>
                  <th scope="row" className="font-normal">
                    {label}
                  </th>
                  <td>
                    <input
                      type="checkbox"
                      className="size-5"
                      aria-label={`${label} by SMS`}
                      checked={!!form.notifications[template]?.sms}
                      onChange={(e) => channel(template, 'sms', e.target.checked)}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      className="size-5"
                      aria-label={`${label} by e-mail`}
                      checked={!!form.notifications[template]?.email}
                      onChange={(e) => channel(template, 'email', e.target.checked)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </fieldset>
        <div className="card">
          <label htmlFor="order-email">Store e-mail for new orders</label>
          <p id="order-email-help" className="text-sm text-stone-700">
            Each new order is also mailed here. Leave empty for none.
          </p>
          <input
            id="order-email"
            className="field"
            type="email"
            aria-describedby="order-email-help"
            value={form.order_email ?? ''}
            onChange={(e) => set({ order_email: e.target.value })}
          />
        </div>
        <button type="submit" className="btn justify-self-start" disabled={busy}>
          Save settings
        </button>
      </form>
    </>
  );
}
