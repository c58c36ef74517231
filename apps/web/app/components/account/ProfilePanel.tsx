import { LICENSE_LABELS } from '@verdant/domain';
import { ACCOUNT_NAV, displayName, phoneForDisplay, rewardPointsNotice } from '../../lib/account-view.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { StoreLink } from '../store/StoreLink.tsx';
import { ACCOUNT_DIALOG_TITLE_ID } from './LoginPanel.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';
import { panelTitle, secondaryButton } from './ui.tsx';

/** The profile modal (spec §2): who is logged in, their points, the account's blocks and Log out. */
export function ProfilePanel({ onClose }: { onClose(): void }) {
  const user = useAuth((s) => s.user);
  const auth = useAuthApi();
  if (!user) return null;
  const points = rewardPointsNotice(user);
  return (
    <div className="p-6">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id={ACCOUNT_DIALOG_TITLE_ID} className={panelTitle}>
            {displayName(user) ?? 'Your account'}
          </h2>
          <p className="text-sm text-stone-700">
            {LICENSE_LABELS[user.license_type]} customer · {user.email ?? phoneForDisplay(user.phone)}
          </p>
        </div>
        <CloseButton onClose={onClose} />
      </div>
      {points ? <p className="mt-4 rounded-xl bg-brand/10 px-4 py-3 font-semibold text-brand-ink">{points}</p> : null}
      <nav aria-label="Your account" className="mt-4">
        <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200">
          {ACCOUNT_NAV.map((b) => (
            <li key={b.block}>
              <StoreLink to={b.path} onClick={onClose} className="flex min-h-11 items-center px-4 font-medium text-stone-900 hover:bg-stone-50">
                {b.title}
              </StoreLink>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" className={`${secondaryButton} mt-4 w-full`} onClick={() => void auth.getState().logout()}>
        Log out
      </button>
    </div>
  );
}
