import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ErrorNote } from '../components/ui.tsx';
import { api, ApiFailure, errorText } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';
import type { LoginRequest, PasswordResetRequest, SessionAnswer } from '../lib/types.ts';
import { useTitle } from './layout.tsx';

/** Only paths inside the console: a `next` naming another site is ignored. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage() {
  useTitle('Sign in');
  const { staff, signedIn } = useSession();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  const [resetSent, setResetSent] = useState<string | null>(null);
  const totpRef = useRef<HTMLInputElement>(null);
  // From the mail sent when wrong passwords locked the account: the right password signs in anyway.
  const unlock = params.get('unlock') ?? undefined;

  useEffect(() => {
    if (needsTotp) totpRef.current?.focus();
  }, [needsTotp]);

  if (staff) return <Navigate to={safeNext(params.get('next'))} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<SessionAnswer>('POST', '/session', {
        email,
        password,
        ...(needsTotp ? { totp } : {}),
        ...(unlock ? { unlock } : {}),
      } satisfies LoginRequest);
      await signedIn(answer);
    } catch (err) {
      if (err instanceof ApiFailure && err.errorCode === 'totp_required') {
        // First time: ask for the code without calling it wrong; a second refusal is a wrong code.
        if (needsTotp) setError(err.message);
        setNeedsTotp(true);
        setTotp('');
      } else {
        setError(errorText(err));
      }
    } finally {
      setBusy(false);
    }
  }

  async function requestReset(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await api('POST', '/password-reset', { email } satisfies PasswordResetRequest);
      setResetSent(`If ${email} belongs to a staff member, a link to choose a new password is on its way.`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="mx-auto max-w-md p-6">
      <h1 className="mb-1 text-2xl font-semibold">Verdant console</h1>
      <p className="mb-6 text-stone-700">Sign in with your staff account.</p>
      {unlock && (
        <p className="mb-4 text-stone-700" role="note">
          You opened the link from the mail about your locked account: sign in with your password to unlock it.
        </p>
      )}
      {!resetOpen ? (
        <form onSubmit={submit} className="card grid gap-4" aria-label="Sign in">
          <ErrorNote>{error}</ErrorNote>
          <div>
            <label htmlFor="email">E-mail</label>
            <input
              id="email"
              className="field"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              readOnly={needsTotp}
            />
          </div>
          <div>
            <label htmlFor="password">Password</label>
            <input
              id="password"
              className="field"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              readOnly={needsTotp}
            />
          </div>
          {needsTotp && (
            <div>
              <label htmlFor="totp">Code from your authenticator app</label>
              <p id="totp-help" className="text-sm text-stone-700">
                Two-step sign-in is on for your account. Enter the 6-digit code.
              </p>
              <input
                id="totp"
                ref={totpRef}
                className="field"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                required
                aria-describedby="totp-help"
                value={totp}
                onChange={(e) => setTotp(e.target.value.replace(/\D/g, ''))}
              />
            </div>
          )}
          <button type="submit" className="btn" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <button type="button" className="btn-ghost justify-self-start" onClick={() => setResetOpen(true)}>
            Forgot your password?
          </button>
        </form>
      ) : (
        <form onSubmit={requestReset} className="card grid gap-4" aria-label="Reset your password">
          <h2 className="text-lg font-semibold">Reset your password</h2>
          <ErrorNote>{error}</ErrorNote>
          {resetSent && <p role="status">{resetSent}</p>}
          <div>
            <label htmlFor="reset-email">E-mail</label>
            <input id="reset-email" className="field" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <button type="submit" className="btn" disabled={busy}>
            Send the reset link
          </button>
          <button type="button" className="btn-ghost justify-self-start" onClick={() => setResetOpen(false)}>
            Back to sign-in
          </button>
        </form>
      )}
    </main>
  );
}
