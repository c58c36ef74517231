import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { accountApi } from '../../api/account.ts';
import { firstInvalid, validateNewPassword, type FieldErrors } from '../../lib/account-forms.ts';
import { useStorePath } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { AUTH_COPY } from '../../state/auth-types.ts';
import { notify } from '../../state/notifications.ts';
import { useAuthApi } from '../../state/use-auth.ts';
import { Field } from '../checkout/Field.tsx';
import { FormError, focusField, primaryButton, secondaryButton, useSubmit } from './ui.tsx';

const ORDER = ['password', 'confirmation'] as const;

/**
 * The new password of a reset link (spec §2 /create-password, §5 "Password at least 8 letters",
 * "Passwords must be identical"). On success the customer is logged in with it and taken to
 * their account. A link without its e-mail or token says so and offers a new one.
 */
export function CreatePasswordForm({ email, token }: { email: string; token: string }) {
  const hydrated = useHydrated();
  const auth = useAuthApi();
  const navigate = useNavigate();
  const storePath = useStorePath();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'password' | 'confirmation'>>({});
  const { busy, error, setError, run } = useSubmit();

  if (!email || !token) {
    return (
      <div className="rounded-2xl border border-amber-300 bg-amber-50 p-6">
        <p role="status" className="font-medium text-amber-900">
          This link is incomplete. Open the link from your e-mail again, or ask for a new one from the login window (“Forgot your password?”).
        </p>
        <button type="button" aria-haspopup="dialog" className={`${secondaryButton} mt-4`} disabled={!hydrated} onClick={() => auth.getState().openDialog('login')}>
          Log in
        </button>
      </div>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateNewPassword(password, confirmation);
    setErrors(found);
    const first = firstInvalid(ORDER, found);
    if (first) return focusField(first === 'password' ? 'new-password' : 'confirm-password');
    if (navigator.onLine === false) {
      setError(AUTH_COPY.resetOffline);
      return;
    }
    const ok = await run(async () => {
      await accountApi.createPassword(email, password, token);
    });
    if (!ok) return;
    notify({ type: 'success', message: AUTH_COPY.passwordChanged });
    try {
      await auth.getState().loginWithPassword(email, password);
      navigate(storePath('/my-account'));
    } catch {
      auth.getState().openDialog('login');
    }
  };

  return (
    <form noValidate onSubmit={submit} className="max-w-md space-y-4">
      <p className="text-stone-700">
        For <strong>{email}</strong>. Choose a password of at least 8 characters.
      </p>
      <Field id="new-password" label="New password" type="password" autoComplete="new-password" required value={password} onChange={setPassword} error={errors.password} />
      <Field id="confirm-password" label="Repeat password" type="password" autoComplete="new-password" required value={confirmation} onChange={setConfirmation} error={errors.confirmation} />
      <input type="hidden" name="email" value={email} autoComplete="username" />
      <FormError message={error} />
      <button type="submit" disabled={busy || !hydrated} className={primaryButton}>
        Save new password
      </button>
    </form>
  );
}
