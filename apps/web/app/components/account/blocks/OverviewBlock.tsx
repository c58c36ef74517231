import { useState, type FormEvent } from 'react';
import { LICENSE_LABELS, formatDate } from '@verdant/domain';
import { accountApi } from '../../../api/account.ts';
import { firstInvalid, validateEmail, validateMedcard, validatePasswordChange, type FieldErrors } from '../../../lib/account-forms.ts';
import { useRootData } from '../../../lib/root-data.ts';
import { displayName, phoneForDisplay, rewardPointsNotice } from '../../../lib/account-view.ts';
import { AUTH_COPY } from '../../../state/auth-types.ts';
import { notify } from '../../../state/notifications.ts';
import { useAuth, useAuthApi } from '../../../state/use-auth.ts';
import { Field } from '../../checkout/Field.tsx';
import { DataRights } from '../DataRights.tsx';
import { Documents } from '../Documents.tsx';
import { NameForm } from '../NameForm.tsx';
import { StockWatches } from '../StockWatches.tsx';
import { OFFLINE_WRITE_COPY } from '../../../offline/account-writes.ts';
import { useAccountSync, type WriteOutcome } from '../use-account-sync.ts';
import { Block, FormError, errorMessage, focusField, primaryButton, secondaryButton, useSubmit } from '../ui.tsx';

/** /my-account: personal details (read only but the e-mail), reward points, password, documents. */
export function OverviewBlock() {
  const user = useAuth((s) => s.user);
  if (!user) return null;
  const points = rewardPointsNotice(user);
  const rows: [string, string][] = [
    ['Name', displayName(user) ?? 'Not given yet'],
    ['Phone', phoneForDisplay(user.phone)],
    ['Birthday', user.birthday ? formatDate(`${user.birthday}T12:00:00Z`) : '—'],
    ['Licence type', LICENSE_LABELS[user.license_type]],
    ...(user.license_type === 'medical' || user.medcard_number
      ? ([
          ['Medical card number', user.medcard_number ?? '—'],
          ['Medical card expires', user.medcard_expiry ? formatDate(`${user.medcard_expiry.slice(0, 10)}T12:00:00Z`) : '—'],
        ] as [string, string][])
      : []),
  ];
  return (
    <div className="space-y-6">
      {points ? (
        <p data-testid="reward-points" className="rounded-2xl bg-brand/10 px-5 py-4 text-lg font-semibold text-brand-ink">
          {points}
        </p>
      ) : null}
      <Block id="personal" title="Personal details">
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt className="text-sm text-stone-600">{label}</dt>
              <dd className="font-medium text-stone-900">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-sm text-stone-600">{user.license_type === 'medical' ? 'Only your e-mail address, addresses and medical card can be changed here.' : 'Only your e-mail address and addresses can be changed here.'} For anything else, contact the store.</p>
        {displayName(user) == null ? (
          <div className="mt-4 border-t border-stone-200 pt-4">
            <NameForm idPrefix="account" />
          </div>
        ) : null}
      </Block>
      {user.license_type === 'medical' ? <MedcardForm /> : null}
      <EmailForm />
      <PasswordForm />
      <Block id="documents" title="Your documents">
        <Documents idPrefix="account" />
      </Block>
      <StockWatches />
      <DataRights />
    </div>
  );
}

/** The e-mail address; offline the change waits in the sync queue (shown under the form until sent). */
function EmailForm() {
  const current = useAuth((s) => s.user?.email ?? '');
  const auth = useAuthApi();
  const sync = useAccountSync();
  let waitingEmail: string | null = null;
  for (const p of sync.pending) if (p.write.kind === 'email') waitingEmail = p.write.email;
  const [email, setEmail] = useState(current);
  const [errors, setErrors] = useState<FieldErrors<'email'>>({});
  const { busy, error, run } = useSubmit();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateEmail(email);
    setErrors(found);
    if (found.email) return focusField('account-email');
    const next = email.trim();
    let outcome: WriteOutcome = 'sent';
    const ok = await run(async () => {
      outcome = await sync.write({ kind: 'email', email: next }, () => auth.getState().updateMe({ email: next }));
    });
    if (ok && outcome === 'sent') notify({ type: 'success', message: AUTH_COPY.accountUpdated });
  };
  return (
    <Block id="email" title="E-mail address">
      <form noValidate onSubmit={submit} className="flex flex-wrap items-start gap-3">
        <Field id="account-email" label="E-mail" type="email" autoComplete="email" required className="min-w-0 flex-1" value={email} onChange={setEmail} error={errors.email} />
        <button type="submit" disabled={busy} className={`${primaryButton} sm:mt-6`}>
          Save e-mail
        </button>
        <div className="w-full">
          <FormError message={error} />
          {waitingEmail ? <p className="text-sm font-medium text-amber-900">{OFFLINE_WRITE_COPY.emailPending(waitingEmail)}</p> : null}
        </div>
      </form>
    </Block>
  );
}

/**
 * A medical account's card number and expiry (issue 26: an SMS sign-up made before it asked for
 * them had no way to add them). Changing a card staff already reviewed sends it back for review.
 */
function MedcardForm() {
  const user = useAuth((s) => s.user);
  const auth = useAuthApi();
  const { store } = useRootData();
  const [number, setNumber] = useState(user?.medcard_number ?? '');
  const [expiry, setExpiry] = useState(user?.medcard_expiry?.slice(0, 10) ?? '');
  const [errors, setErrors] = useState<FieldErrors<'medcardNumber' | 'medcardExpiry'>>({});
  const { busy, error, run } = useSubmit();
  const missing = !user?.medcard_number || !user?.medcard_expiry;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateMedcard({ medcardNumber: number, medcardExpiry: expiry }, new Date(), store.placeInfo.timezone);
    setErrors(found);
    const first = firstInvalid(['medcardNumber', 'medcardExpiry'] as const, found);
    if (first) return focusField(`account-${first}`);
    const ok = await run(async () => {
      await auth.getState().authorized((t) => accountApi.saveMedcard(t, number.trim(), expiry));
      await auth.getState().refreshUser();
    });
    if (ok) notify({ type: 'success', message: 'Your medical card was saved. Staff check it against your uploaded card.' });
  };
  return (
    <Block id="medcard" title="Medical card">
      {missing ? (
        <p className="mb-3 text-sm font-medium text-amber-900">Add your medical card number and expiry date: medical-only products and verification need them.</p>
      ) : null}
      <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        <Field id="account-medcardNumber" label="Medical card number" required value={number} onChange={setNumber} error={errors.medcardNumber} />
        <Field id="account-medcardExpiry" label="Medical card expiry date" type="date" required value={expiry} onChange={setExpiry} error={errors.medcardExpiry} />
        <div className="sm:col-span-2">
          <button type="submit" disabled={busy} className={primaryButton}>
            Save medical card
          </button>
          <FormError message={error} />
        </div>
      </form>
    </Block>
  );
}

const PASSWORD_ORDER = ['current', 'password', 'confirmation'] as const;

function PasswordForm() {
  const email = useAuth((s) => s.user?.email ?? null);
  const auth = useAuthApi();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'current' | 'password' | 'confirmation'>>({});
  const [resetNote, setResetNote] = useState<string | null>(null);
  const { busy, run } = useSubmit();
  const ids = { current: 'account-current-password', password: 'account-new-password', confirmation: 'account-confirm-password' };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validatePasswordChange(current, password, confirmation);
    setErrors(found);
    const first = firstInvalid(PASSWORD_ORDER, found);
    if (first) return focusField(ids[first]);
    // Spec §5: changing the password offline is refused.
    if (navigator.onLine === false) {
      notify({ type: 'error', message: 'Changing the password does not work while offline!', action1: { label: 'OK' } });
      return;
    }
    await run(async () => {
      try {
        await auth.getState().authorized((t) => accountApi.changePassword(t, current, password));
      } catch (err) {
        // Spec §8: a password change failure shows the server's message as an error notice.
        notify({ type: 'error', message: errorMessage(err), action1: { label: 'OK' } });
        throw err;
      }
      notify({ type: 'success', message: AUTH_COPY.passwordChanged });
      setCurrent('');
      setPassword('');
      setConfirmation('');
    });
  };

  const sendLink = async () => {
    if (!email) return;
    if (navigator.onLine === false) return setResetNote(AUTH_COPY.resetOffline);
    try {
      setResetNote(await accountApi.resetPassword(email));
    } catch (err) {
      setResetNote(errorMessage(err));
    }
  };

  return (
    <Block id="password" title="Change password">
      <form noValidate onSubmit={submit} className="space-y-4">
        <Field id={ids.current} label="Current password" type="password" autoComplete="current-password" required value={current} onChange={setCurrent} error={errors.current} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={ids.password} label="New password" type="password" autoComplete="new-password" required hint="At least 8 characters." value={password} onChange={setPassword} error={errors.password} />
          <Field id={ids.confirmation} label="Repeat password" type="password" autoComplete="new-password" required value={confirmation} onChange={setConfirmation} error={errors.confirmation} />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={busy} className={primaryButton}>
            Change password
          </button>
          {email ? (
            <button type="button" className={secondaryButton} onClick={() => void sendLink()}>
              No password yet? E-mail me a link
            </button>
          ) : null}
        </div>
        {resetNote ? (
          <p role="status" className="text-sm text-stone-700">
            {resetNote}
          </p>
        ) : null}
      </form>
    </Block>
  );
}
