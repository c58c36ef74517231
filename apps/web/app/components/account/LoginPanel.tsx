import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useRootData } from '../../lib/root-data.ts';
import { focusField, primaryButton, secondaryButton, linkButton, panelTitle, FormError, LicenseRadios, useSubmit } from './ui.tsx';
import { Field } from '../checkout/Field.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';
import { firstInvalid, validateCode, validateEmail, validateLicenseStep, validatePhone, type FieldErrors } from '../../lib/account-forms.ts';
import { announce } from '../../lib/announce.ts';
import { accountApi } from '../../api/account.ts';
import { AUTH_COPY } from '../../state/auth-types.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { MESSAGES, type LicenseType } from '@verdant/domain';

export const ACCOUNT_DIALOG_TITLE_ID = 'account-dialog-title';
export const LOGIN_TITLE = 'Log in';

type Step = 'phone' | 'code' | 'license' | 'password' | 'forgot';

const STEP_TITLES: Record<Step, string> = {
  phone: LOGIN_TITLE,
  code: 'Enter your code',
  license: 'Almost there',
  password: 'Log in with e-mail',
  forgot: 'Reset your password',
};

/** Focus the step's first field when the step changes (the dialog only focuses on open). */
function useStepFocus(step: Step) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>(`[data-step="${step}"] [data-autofocus]`)?.focus();
  }, [step]);
}

/**
 * The login modal (spec §2, §4 Login): phone → SMS code → (a new phone) licence type and
 * birthday. In demo mode the store shows the code it sent. E-mail and password is the other way
 * in; "Create an account" opens registration.
 */
export function LoginPanel({ onClose }: { onClose(): void }) {
  const { store, shopper } = useRootData();
  const auth = useAuthApi();
  const openDialog = useAuth((s) => s.openDialog);
  const [step, setStep] = useState<Step>('phone');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const [pendingToken, setPendingToken] = useState('');
  const [licenseType, setLicenseType] = useState<LicenseType | ''>(store.licenseTypes.length === 1 ? store.licenseTypes[0] : shopper.licenseType);
  const [birthday, setBirthday] = useState('');
  const [medcardNumber, setMedcardNumber] = useState('');
  const [medcardExpiry, setMedcardExpiry] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [resetSent, setResetSent] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors<string>>({});
  const { busy, error, setError, run } = useSubmit();
  useStepFocus(step);

  const go = (next: Step) => {
    setErrors({});
    setError(null);
    setStep(next);
  };
  const invalid = (found: FieldErrors<string>, order: string[], prefix = 'login-') => {
    setErrors(found);
    const first = firstInvalid(order, found);
    if (first) focusField(`${prefix}${first}`);
    return Boolean(first);
  };

  const sendCode = async (e?: FormEvent) => {
    e?.preventDefault();
    if (invalid(validatePhone(phone), ['phone'])) return;
    const ok = await run(async () => {
      const sent = await auth.getState().sendCode(phone);
      setDemoCode(sent.demoCode);
    });
    if (ok) {
      setCode('');
      if (step === 'code') announce('A new code was sent.');
      else go('code');
    }
  };

  const confirmCode = async (e: FormEvent) => {
    e.preventDefault();
    if (invalid(validateCode(code), ['code'])) return;
    await run(async () => {
      const result = await auth.getState().confirmCode(phone, code.replace(/\s/g, ''));
      if (result.kind === 'logged-in') onClose();
      else {
        setPendingToken(result.pendingToken);
        go('license');
      }
    });
  };

  const completeLicense = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateLicenseStep({ licenseType, birthday, medcardNumber, medcardExpiry }, new Date(), store.placeInfo.timezone, store.medicalMinimumAge);
    if (invalid(found, ['licenseType', 'birthday', 'medcardNumber', 'medcardExpiry'])) return;
    await run(async () => {
      await auth.getState().completeLicense({ phone, licenseType: licenseType as LicenseType, birthday, pendingToken, medcardNumber, medcardExpiry });
      // A new customer: the onboarding modal says what comes next.
      openDialog('onboarding');
    });
  };

  const loginWithPassword = async (e: FormEvent) => {
    e.preventDefault();
    const found = { ...validateEmail(email), ...(password ? {} : { password: MESSAGES.fieldRequired }) };
    if (invalid(found, ['email', 'password'])) return;
    await run(async () => {
      await auth.getState().loginWithPassword(email.trim(), password);
      onClose();
    });
  };

  const requestReset = async (e: FormEvent) => {
    e.preventDefault();
    if (invalid(validateEmail(email), ['email'])) return;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setError(AUTH_COPY.resetOffline);
      return;
    }
    await run(async () => {
      setResetSent(await accountApi.resetPassword(email.trim()));
    });
  };

  // The password and forgot-password steps share the e-mail field (and what was typed in it).
  const emailField = <Field id="login-email" label="E-mail" type="email" autoComplete="email" required data-autofocus value={email} onChange={setEmail} error={errors.email} />;

  return (
    <div className="p-6" data-step={step}>
      <div className="flex items-start justify-between gap-4">
        <h2 id={ACCOUNT_DIALOG_TITLE_ID} className={panelTitle}>
          {STEP_TITLES[step]}
        </h2>
        <CloseButton onClose={onClose} />
      </div>

      {step === 'phone' ? (
        <StepForm
          onSubmit={sendCode}
          busy={busy}
          error={error}
          submitLabel="Send code"
          links={
            <StepLinks divided>
              <LinkAction onClick={() => go('password')}>Log in with e-mail and password</LinkAction>
              <LinkAction onClick={() => openDialog('register')}>Create an account</LinkAction>
            </StepLinks>
          }
        >
          <p className="text-sm text-stone-700">We text you a 6-digit code to log in. New here? The same code creates your account.</p>
          <Field
            id="login-phone"
            label="Phone number"
            type="tel"
            autoComplete="tel"
            required
            data-autofocus
            value={phone}
            onChange={setPhone}
            error={errors.phone}
          />
        </StepForm>
      ) : null}

      {step === 'code' ? (
        <StepForm
          onSubmit={confirmCode}
          busy={busy}
          error={error}
          submitLabel={LOGIN_TITLE}
          links={
            <StepLinks>
              <LinkAction onClick={() => go('phone')}>Change number</LinkAction>
              <LinkAction disabled={busy} onClick={() => void sendCode()}>
                Send a new code
              </LinkAction>
            </StepLinks>
          }
        >
          <p className="text-sm text-stone-700">
            We sent a code to <strong>{phone}</strong>.
          </p>
          {demoCode ? (
            <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
              Demo store: your code is <strong data-testid="demo-code">{demoCode}</strong>
            </p>
          ) : null}
          <Field
            id="login-code"
            label="SMS code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            data-autofocus
            value={code}
            onChange={setCode}
            error={errors.code}
          />
        </StepForm>
      ) : null}

      {step === 'license' ? (
        <StepForm onSubmit={completeLicense} busy={busy} error={error} submitLabel="Continue">
          <p className="text-sm text-stone-700">This phone number is new to us. Tell us how you shop and your birthday to create your account.</p>
          <LicenseRadios idPrefix="login" licenseTypes={store.licenseTypes} value={licenseType} onChange={setLicenseType} error={errors.licenseType} />
          <Field
            id="login-birthday"
            label="Birthday"
            type="date"
            autoComplete="bday"
            required
            data-autofocus
            value={birthday}
            onChange={setBirthday}
            error={errors.birthday}
          />
          {licenseType === 'medical' ? (
            <fieldset className="grid gap-3 rounded border border-stone-300 p-3">
              <legend className="px-1 text-sm font-semibold text-stone-900">Medical card</legend>
              <p className="text-sm text-stone-700">Staff check these against your card before your first medical order.</p>
              <Field id="login-medcardNumber" label="Medical card number" required value={medcardNumber} onChange={setMedcardNumber} error={errors.medcardNumber} />
              <Field id="login-medcardExpiry" label="Medical card expiry date" type="date" required value={medcardExpiry} onChange={setMedcardExpiry} error={errors.medcardExpiry} />
            </fieldset>
          ) : null}
        </StepForm>
      ) : null}

      {step === 'password' ? (
        <StepForm
          onSubmit={loginWithPassword}
          busy={busy}
          error={error}
          submitLabel={LOGIN_TITLE}
          links={
            <StepLinks>
              <LinkAction onClick={() => go('phone')}>Log in with your phone</LinkAction>
              <LinkAction onClick={() => go('forgot')}>Forgot your password?</LinkAction>
            </StepLinks>
          }
        >
          {emailField}
          <Field
            id="login-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={setPassword}
            error={errors.password}
          />
        </StepForm>
      ) : null}

      {step === 'forgot' ? (
        <StepForm
          onSubmit={requestReset}
          busy={busy}
          error={error}
          submitLabel="Send reset link"
          status={resetSent}
          links={
            <button type="button" className={`${secondaryButton} w-full`} onClick={() => go('password')}>
              Back to log in
            </button>
          }
        >
          <p className="text-sm text-stone-700">We e-mail you a link to create a new password.</p>
          {emailField}
        </StepForm>
      ) : null}
    </div>
  );
}

/** One login step: its fields, the refusal, an optional status line, the submit button, then its links. */
function StepForm({
  onSubmit,
  busy,
  error,
  submitLabel,
  status,
  links,
  children,
}: {
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  busy: boolean;
  error: string | null;
  submitLabel: string;
  status?: string | null;
  links?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
      {children}
      <FormError message={error} />
      {status ? (
        <p role="status" className="rounded-xl bg-brand/10 px-4 py-3 text-sm text-brand-ink">
          {status}
        </p>
      ) : null}
      <button type="submit" disabled={busy} className={`${primaryButton} w-full`}>
        {submitLabel}
      </button>
      {links}
    </form>
  );
}

function StepLinks({ divided = false, children }: { divided?: boolean; children: ReactNode }) {
  return <div className={`flex flex-wrap justify-between gap-x-4 text-sm${divided ? ' border-t border-stone-200 pt-3' : ''}`}>{children}</div>;
}

function LinkAction({ onClick, disabled, children }: { onClick(): void; disabled?: boolean; children: ReactNode }) {
  return (
    <button type="button" className={linkButton} disabled={disabled} onClick={onClick}>
      {children}
    </button>
  );
}
