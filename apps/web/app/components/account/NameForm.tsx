import { useState, type FormEvent } from 'react';
import { firstInvalid, validateName, type FieldErrors } from '../../lib/account-forms.ts';
import { AUTH_COPY } from '../../state/auth-types.ts';
import { notify } from '../../state/notifications.ts';
import { useAuthApi } from '../../state/use-auth.ts';
import { Field } from '../checkout/Field.tsx';
import { FormError, focusField, primaryButton, secondaryButton, useSubmit } from './ui.tsx';

const ORDER = ['firstname', 'lastname'] as const;

/**
 * The first and last name of an account that has none (a phone login makes one without a name).
 * Given once: the server takes a name only while the account has none (me-routes.ts); after that
 * it is changed by the store. Shown in onboarding (skippable) and on /my-account until given.
 */
export function NameForm({ idPrefix, onDone, onSkip, autoFocus = false }: { idPrefix: string; onDone?(): void; onSkip?(): void; autoFocus?: boolean }) {
  const auth = useAuthApi();
  const [firstname, setFirstname] = useState('');
  const [lastname, setLastname] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'firstname' | 'lastname'>>({});
  const { busy, error, run } = useSubmit();
  const ids = { firstname: `${idPrefix}-firstname`, lastname: `${idPrefix}-lastname` };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateName({ firstname, lastname });
    setErrors(found);
    const first = firstInvalid(ORDER, found);
    if (first) return focusField(ids[first]);
    const ok = await run(() => auth.getState().updateMe({ firstname: firstname.trim(), lastname: lastname.trim() }));
    if (!ok) return;
    notify({ type: 'success', message: AUTH_COPY.accountUpdated });
    onDone?.();
  };

  return (
    <form noValidate onSubmit={submit} aria-labelledby={`${idPrefix}-name-title`} className="space-y-3">
      <p id={`${idPrefix}-name-title`} className="font-semibold text-stone-900">
        What should we call you?
      </p>
      <p className="text-sm text-stone-700">Your name fills in your orders. You can give it once; afterwards the store changes it for you.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={ids.firstname} label="First name" required autoComplete="given-name" {...(autoFocus ? { 'data-autofocus': true } : {})} value={firstname} onChange={setFirstname} error={errors.firstname} />
        <Field id={ids.lastname} label="Last name" required autoComplete="family-name" value={lastname} onChange={setLastname} error={errors.lastname} />
      </div>
      <FormError message={error} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {onSkip ? (
          <button type="button" onClick={onSkip} className={secondaryButton}>
            Skip for now
          </button>
        ) : null}
        <button type="submit" disabled={busy} className={primaryButton}>
          Save my name
        </button>
      </div>
    </form>
  );
}
