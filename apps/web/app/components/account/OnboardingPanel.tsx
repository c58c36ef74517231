import { useEffect, useState } from 'react';
import { LICENSE_LABELS } from '@verdant/domain';
import { displayName, greeting } from '../../lib/account-view.ts';
import { useAuth } from '../../state/use-auth.ts';
import { StoreLink } from '../store/StoreLink.tsx';
import { Documents } from './Documents.tsx';
import { NameForm } from './NameForm.tsx';
import { ACCOUNT_DIALOG_TITLE_ID } from './LoginPanel.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';
import { panelTitle, primaryButton, secondaryButton } from './ui.tsx';

/**
 * The onboarding modal (spec §2, §4 "onboarding modal close"): shown to a customer just created,
 * by registration or by a new phone's first login. It says how they shop now and which documents
 * the store still needs. An account without a name (a phone login) is first asked for one —
 * skippable; the greeting is then "Welcome!", never the phone number (issue 11).
 */
export function OnboardingPanel({ onClose }: { onClose(): void }) {
  const user = useAuth((s) => s.user);
  // Asked once per opening: saving or skipping puts the rest of the welcome in its place.
  const [askName, setAskName] = useState(() => user != null && displayName(user) == null);
  // Once the name step is done, focus goes to the welcome's first action — in an effect, after the
  // commit that shows it (a frame scheduled after the save could run before React rendered it).
  const [nameAnswered, setNameAnswered] = useState(false);
  useEffect(() => {
    if (nameAnswered) document.getElementById('onboarding-start')?.focus();
  }, [nameAnswered]);
  const nameDone = () => {
    setAskName(false);
    setNameAnswered(true);
  };
  if (!user) return null;
  return (
    <div className="p-6">
      <div className="flex items-start justify-between gap-4">
        <h2 id={ACCOUNT_DIALOG_TITLE_ID} className={panelTitle}>
          {greeting(user)}
        </h2>
        <CloseButton onClose={onClose} />
      </div>
      <p className="mt-2 text-stone-700">
        Your account is ready. You are shopping <strong>{LICENSE_LABELS[user.license_type].toLowerCase()}</strong>: prices, deals and
        product lists follow your licence.
        {user.license_type === 'medical' ? ' Medical products need your medical card and ID on file.' : ' Bring a photo ID to pickup or delivery.'}
      </p>
      {askName ? (
        <div className="mt-5 rounded-xl border border-stone-200 p-4">
          <NameForm idPrefix="onboarding" autoFocus onDone={nameDone} onSkip={nameDone} />
        </div>
      ) : null}
      <h3 className="mt-5 text-lg font-semibold text-stone-900">Your documents</h3>
      <div className="mt-2">
        <Documents idPrefix="onboarding" />
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <StoreLink to="/my-account" onClick={onClose} className={secondaryButton}>
          Go to my account
        </StoreLink>
        <button type="button" id="onboarding-start" {...(askName ? {} : { 'data-autofocus': true })} onClick={onClose} className={primaryButton}>
          Start shopping
        </button>
      </div>
    </div>
  );
}
