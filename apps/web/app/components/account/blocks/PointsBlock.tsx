import { formatDate, formatMoney, ledgerEntryLabel, pointsLabel, type LoyaltyAccountView } from '@verdant/domain';
import { accountApi } from '../../../api/account.ts';
import { useRootData } from '../../../lib/root-data.ts';
import { StoreLink } from '../../store/StoreLink.tsx';
import { useAccountQuery } from '../use-account-query.ts';
import { Block, FormError } from '../ui.tsx';

/** "1.25 points per dollar" */
function rateText(rate: number): string {
  return `${rate} ${rate === 1 ? 'point' : 'points'} per dollar`;
}

/**
 * /my-account/points (issue 30 "Loyalty"): the balance, the tier and what the next one needs, the
 * points about to expire with the date, the store's multipliers and the history, newest first.
 * A list rather than a table, so nothing scrolls sideways on a phone.
 */
export function PointsBlock() {
  const { store } = useRootData();
  const q = useAccountQuery('loyalty', (t) => accountApi.loyalty(t));
  const zone = store.placeInfo.timezone;
  const money = (cents: number) => formatMoney(cents, store.money);
  const v: LoyaltyAccountView | null = q.data;
  return (
    <Block id="points" title="Points">
      <FormError message={q.error} />
      {q.status === 'loading' ? <p className="text-stone-600">Loading your points…</p> : null}
      {v ? (
        <div className="space-y-5">
          <dl className="grid gap-3 sm:grid-cols-2">
            <div className="rounded-xl bg-brand/10 p-4">
              <dt className="text-sm font-semibold text-brand-ink">Balance</dt>
              <dd data-testid="points-balance" className="mt-1 font-display text-3xl font-bold text-stone-900">
                {pointsLabel(v.balance)}
              </dd>
              <dd className="text-sm text-stone-700">Worth {money(v.balance)} off an order (1 point = 1¢).</dd>
            </div>
            <div className="rounded-xl bg-stone-50 p-4">
              <dt className="text-sm font-semibold text-stone-700">Tier</dt>
              <dd data-testid="points-tier" className="mt-1 font-display text-2xl font-bold text-stone-900">
                {v.tier.name}
              </dd>
              <dd className="text-sm text-stone-700">{v.earns ? `You earn ${rateText(v.tier.earn_rate)}.` : 'Your orders do not earn points here.'}</dd>
            </div>
          </dl>
          {!v.enabled ? <p className="text-stone-800">This store is not giving points at the moment. Points you have can still be redeemed.</p> : null}
          {v.enabled && !v.earns && v.eligibility === 'medical' ? (
            <p className="text-stone-800">At this store only medical customers earn points, as the state’s rules require.</p>
          ) : null}
          {v.earns && v.next_tier ? (
            <p data-testid="points-next-tier" className="text-stone-800">
              Spend {money(v.next_tier.needed_cents)} more within {v.tier_window_days} days to reach {v.next_tier.name} ({rateText(v.next_tier.earn_rate)}).
            </p>
          ) : null}
          {v.expiry ? (
            <p data-testid="points-expiry" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
              {pointsLabel(v.expiry.points)} expire on {formatDate(v.expiry.expires_at, zone)} unless you complete an order before then.
            </p>
          ) : null}
          {v.earns && v.multipliers.length ? (
            <section aria-labelledby="points-offers-title">
              <h3 id="points-offers-title" className="text-lg font-semibold text-stone-900">
                Extra points
              </h3>
              <ul className="mt-2 flex flex-wrap gap-2">
                {v.multipliers.map((m) => (
                  <li key={m.label} className="rounded-full border border-brand/40 px-3 py-1 text-sm font-medium text-brand-ink">
                    {m.label}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section aria-labelledby="points-history-title">
            <h3 id="points-history-title" className="text-lg font-semibold text-stone-900">
              History
            </h3>
            {v.history.length === 0 ? (
              <p className="mt-2 text-stone-700">
                No points yet. Points are added when an order is completed. <StoreLink to="/menu" className="font-medium text-brand-ink underline">Browse the menu</StoreLink>
              </p>
            ) : (
              <ol aria-label="Points history, newest first" className="mt-2 divide-y divide-stone-200 rounded-xl border border-stone-200">
                {v.history.map((e) => (
                  <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3">
                    <div className="min-w-0">
                      <p className="font-medium text-stone-900">{ledgerEntryLabel(e)}</p>
                      <p className="text-sm text-stone-600">
                        {formatDate(e.at, zone)}
                        {e.note ? ` · ${e.note}` : ''}
                      </p>
                    </div>
                    <p className="text-right">
                      <span className={`font-semibold ${e.points < 0 ? 'text-red-800' : 'text-brand-ink'}`}>
                        {e.points > 0 ? '+' : '−'}
                        {pointsLabel(e.points)}
                      </span>
                      <span className="block text-sm text-stone-600">Balance {Math.max(0, e.balance_after)}</span>
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      ) : null}
    </Block>
  );
}
