import { useState } from 'react';
import type { StockWatchView } from '@verdant/domain';
import { callApi } from '../../api/envelope.ts';
import { bearer } from '../../api/user.ts';
import { useAuthApi } from '../../state/use-auth.ts';
import { StoreLink } from '../store/StoreLink.tsx';
import { useAccountQuery } from './use-account-query.ts';
import { Block, errorMessage, secondaryButton } from './ui.tsx';

/**
 * The account's back-in-stock alerts (issue 30): what the shopper asked to hear about and is still
 * waiting for (GET /api/stock-alerts), each with a remove button (DELETE /api/stock-alerts/:id).
 */
export function StockWatches() {
  const auth = useAuthApi();
  const query = useAccountQuery('stock-alerts', (token) => callApi<{ items: StockWatchView[] }>('/api/stock-alerts', { headers: bearer(token) }));
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const remove = async (w: StockWatchView) => {
    setRemoving(w.id);
    try {
      await auth.getState().authorized((token) => callApi(`/api/stock-alerts/${w.id}`, { method: 'DELETE', headers: bearer(token) }));
      setError(null);
      query.reload();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setRemoving(null);
    }
  };
  const items = query.data?.items ?? [];
  return (
    <Block id="stock-alerts" title="Back-in-stock alerts">
      {query.status === 'failed' ? <p role="alert" className="text-red-800">{query.error}</p> : null}
      {error ? <p role="alert" className="mb-3 text-red-800">{error}</p> : null}
      {query.status === 'done' && items.length === 0 ? (
        <p className="text-stone-700">When a product you want is sold out, tap "Tell me when it's back" on its page and it shows here.</p>
      ) : null}
      {items.length > 0 ? (
        <ul aria-label="Products you are waiting for" className="divide-y divide-stone-200" data-testid="stock-watches">
          {items.map((w) => (
            <li key={w.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <StoreLink to={w.path} className="font-medium text-stone-900 underline-offset-2 hover:underline">
                  {w.name}
                </StoreLink>
                <p className="text-sm text-stone-600">{w.channel === 'sms' ? 'By text message, once' : 'By e-mail, once'}</p>
              </div>
              <button type="button" className={secondaryButton} disabled={removing === w.id} onClick={() => void remove(w)} aria-label={`Remove the alert for ${w.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </Block>
  );
}
