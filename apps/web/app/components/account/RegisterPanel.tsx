import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { LicenseType } from '@verdant/domain';
import { accountApi } from '../../api/account.ts';
import type { RegistrationInput } from '../../api/user.ts';
import { firstInvalid, validateCode, validateRegistration, type FieldErrors, type RegistrationField, type RegistrationForm } from '../../lib/account-forms.ts';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { notify } from '../../state/notifications.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { Field, FieldError } from '../checkout/Field.tsx';
import { ACCOUNT_DIALOG_TITLE_ID } from './LoginPanel.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';
import { FileField, FormError, LicenseRadios, errorMessage, focusField, linkButton, panelTitle, primaryButton, useSubmit } from './ui.tsx';

export const REGISTER_TITLE = 'Create an account';
export const REGISTER_COPY = {
  confirm: 'Confirm and create my account',
  existing: 'This phone number already has an account: you are now logged in to it.',
} as const;

const ORDER: RegistrationField[] = [
  'firstname',
  'lastname',
  'email',
  'phone',
  'birthday',
  'licenseType',
  'medcardNumber',
  'medcardExpiry',
  'idFile',
  'medcardFile',
  'terms',
];
const fieldId = (f: RegistrationField) => (f === 'licenseType' ? 'register-recreational' : `register-${f}`);

/**
 * Registration (spec §1, §3 User): name, e-mail, phone, birthday and licence type; a medical
 * customer adds the card number and expiry and uploads an ID and the card (PNG, JPEG or PDF, at
 * most 10 MB). The form is checked, then the server texts a code to the phone; the account is
 * created only with that code (the phone is proven first — nobody registers someone else's number).
 * Then the files go up with the new customer's token; a failed upload is said and can be repeated
 * from the account. A phone that already has an account logs its holder into it as it is.
 */
export function RegisterPanel({ onClose }: { onClose(): void }) {
  const { store, shopper } = useRootData();
  const storePath = useStorePath();
  const auth = useAuthApi();
  const openDialog = useAuth((s) => s.openDialog);
  const [form, setForm] = useState<RegistrationForm>({
    firstname: '',
    lastname: '',
    email: '',
    phone: '',
    birthday: '',
    licenseType: store.licenseTypes.length === 1 ? store.licenseTypes[0] : shopper.licenseType,
    medcardNumber: '',
    medcardExpiry: '',
    idFile: null,
    medcardFile: null,
    terms: false,
  });
  const [files, setFiles] = useState<{ id: File | null; medcard: File | null }>({ id: null, medcard: null });
  const [newsletter, setNewsletter] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<RegistrationField>>({});
  const { busy, error, setError, run } = useSubmit();
  const [step, setStepState] = useState<'form' | 'code'>('form');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>(undefined);
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const setStep = (next: 'form' | 'code') => {
    setError(null);
    setStepState(next);
  };
  const medical = form.licenseType === 'medical';
  // A field of the other step is focused by an effect, after the commit that shows it: a frame
  // scheduled from the submit handler can run before React has rendered the step (the code field
  // was then missing and focus stayed behind). A new object each time: "Send a new code" focuses again.
  const [focusTarget, setFocusTarget] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (focusTarget) document.getElementById(focusTarget.id)?.focus();
  }, [focusTarget]);

  const set = <K extends keyof RegistrationForm>(key: K) => (value: RegistrationForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const setFile = (kind: 'id' | 'medcard') => (file: File | null) => {
    setFiles((f) => ({ ...f, [kind]: file }));
    set(kind === 'id' ? 'idFile' : 'medcardFile')(file ? { type: file.type, size: file.size, name: file.name } : null);
  };

  const input = (): RegistrationInput => ({
    firstname: form.firstname.trim(),
    lastname: form.lastname.trim(),
    email: form.email.trim(),
    phone: form.phone.trim(),
    birthday: form.birthday,
    license_type: form.licenseType as LicenseType,
    ...(medical ? { medcard_number: form.medcardNumber.trim(), medcard_expiry: form.medcardExpiry } : {}),
  });

  /** Step 1: the form is checked here and by the server, which texts a code to the phone. */
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateRegistration(form, new Date(), store.placeInfo.timezone, store.medicalMinimumAge);
    setErrors(found);
    const first = firstInvalid(ORDER, found);
    if (first) {
      focusField(fieldId(first));
      return;
    }
    const sent = await run(async () => setDemoCode((await auth.getState().startRegistration(input())).demoCode));
    if (sent) {
      setCode('');
      setCodeError(undefined);
      setStep('code');
      setFocusTarget({ id: 'register-code' });
    }
  };

  /** Step 2: the code proves the phone; only then does the account exist. */
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    const problem = validateCode(code).code;
    setCodeError(problem);
    if (problem) {
      focusField('register-code');
      return;
    }
    await run(async () => {
      const { existing } = await auth.getState().register(input(), code.replace(/\s/g, ''));
      if (existing) {
        // The phone already had an account: its holder is in it as it was; the form was not applied.
        notify({ type: 'info', message: REGISTER_COPY.existing, action1: { label: 'OK' } });
        onClose();
        return;
      }
      // The customer exists now: the documents and the newsletter follow; a failure here is told, not fatal.
      const session = auth.getState();
      for (const kind of ['id', 'medcard'] as const) {
        const file = files[kind];
        if (!file || (kind === 'medcard' && !medical)) continue;
        try {
          await session.authorized((t) => accountApi.upload(t, kind, file, file.name));
        } catch (err) {
          notify({ type: 'error', message: `${kind === 'id' ? 'ID' : 'Medical card'} upload failed: ${errorMessage(err)}`, action1: { label: 'OK' } });
        }
      }
      if (newsletter) {
        try {
          await session.authorized((t) => accountApi.subscribe(t, form.email.trim()));
        } catch {
          /* the account's newsletter block offers it again */
        }
      }
      openDialog('onboarding');
    });
  };

  if (step === 'code') {
    return (
      <div className="p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id={ACCOUNT_DIALOG_TITLE_ID} className={panelTitle}>
            {REGISTER_TITLE}
          </h2>
          <CloseButton onClose={onClose} />
        </div>
        <form noValidate onSubmit={confirm} className="mt-4 space-y-4">
          <p className="text-sm text-stone-700">
            To confirm your phone number we sent a code to <strong>{form.phone.trim()}</strong>. Your account is created once you enter it.
          </p>
          {demoCode ? (
            <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
              Demo store: your code is <strong data-testid="demo-code">{demoCode}</strong>
            </p>
          ) : null}
          <Field id="register-code" label="SMS code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={setCode} error={codeError} />
          <FormError message={error} />
          <button type="submit" disabled={busy} className={`${primaryButton} w-full`}>
            {REGISTER_COPY.confirm}
          </button>
          <div className="flex flex-wrap justify-between gap-x-4 text-sm">
            <button
              type="button"
              className={linkButton}
              onClick={() => {
                setStep('form');
                setFocusTarget({ id: 'register-firstname' });
              }}
            >
              Change my details
            </button>
            <button type="button" className={linkButton} disabled={busy} onClick={(e) => void submit(e)}>
              Send a new code
            </button>
          </div>
        </form>
      </div>
    );
  }

  return (
    <div className="p-6">
      <div className="flex items-start justify-between gap-4">
        <h2 id={ACCOUNT_DIALOG_TITLE_ID} className={panelTitle}>
          {REGISTER_TITLE}
        </h2>
        <CloseButton onClose={onClose} />
      </div>
      <form noValidate onSubmit={submit} className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="register-firstname" label="First name" required autoComplete="given-name" data-autofocus value={form.firstname} onChange={set('firstname')} error={errors.firstname} />
          <Field id="register-lastname" label="Last name" required autoComplete="family-name" value={form.lastname} onChange={set('lastname')} error={errors.lastname} />
          <Field id="register-email" label="E-mail" required type="email" autoComplete="email" value={form.email} onChange={set('email')} error={errors.email} />
          <Field id="register-phone" label="Phone number" required type="tel" autoComplete="tel" value={form.phone} onChange={set('phone')} error={errors.phone} />
          <Field id="register-birthday" label="Birthday" required type="date" autoComplete="bday" value={form.birthday} onChange={set('birthday')} error={errors.birthday} />
        </div>
        <LicenseRadios idPrefix="register" licenseTypes={store.licenseTypes} value={form.licenseType} onChange={set('licenseType')} error={errors.licenseType} />
        {medical ? (
          <fieldset className="space-y-4 rounded-xl border border-stone-200 p-4">
            <legend className="px-1 text-sm font-semibold text-stone-900">Medical card</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id="register-medcardNumber" label="Medical card number" required value={form.medcardNumber} onChange={set('medcardNumber')} error={errors.medcardNumber} />
              <Field id="register-medcardExpiry" label="Medical card expiry date" required type="date" value={form.medcardExpiry} onChange={set('medcardExpiry')} error={errors.medcardExpiry} />
            </div>
            <FileField id="register-idFile" label="Photo ID" required onChange={setFile('id')} error={errors.idFile} />
            <FileField id="register-medcardFile" label="Medical card" required onChange={setFile('medcard')} error={errors.medcardFile} />
          </fieldset>
        ) : (
          <FileField id="register-idFile" label="Photo ID (optional)" onChange={setFile('id')} error={errors.idFile} hint="PNG, JPEG or PDF, up to 10 MB. You can also show it at pickup." />
        )}
        <Check id="register-newsletter" checked={newsletter} onChange={setNewsletter} label="Send me the newsletter (10% off your next order)" />
        <Check
          id="register-terms"
          checked={form.terms}
          onChange={set('terms')}
          error={errors.terms}
          label={
            <>
              I accept the{' '}
              <a href={storePath('/terms')} target="_blank" rel="noreferrer" className="underline">
                terms and conditions
              </a>
            </>
          }
        />
        <FormError message={error} />
        <button type="submit" disabled={busy} className={`${primaryButton} w-full`}>
          {REGISTER_TITLE}
        </button>
        <p className="text-center text-sm">
          Already a customer?{' '}
          <button type="button" className={linkButton} onClick={() => openDialog('login')}>
            Log in
          </button>
        </p>
      </form>
    </div>
  );
}

export function Check({ id, checked, onChange, label, error }: { id: string; checked: boolean; onChange(v: boolean): void; label: ReactNode; error?: string }) {
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.currentTarget.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="mt-0.5 size-5 shrink-0 accent-brand"
        />
        <label htmlFor={id} className="text-sm text-stone-900">
          {label}
        </label>
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}
