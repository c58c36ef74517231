import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ErrorNote, PageTitle } from '../components/ui.tsx';
import { NewPasswordField } from '../components/forms.tsx';
import { api, errorText } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';
import type { ChangePasswordRequest, TotpCodeRequest, TotpSetupAnswer } from '../lib/types.ts';
import { TopBar, useTitle } from './layout.tsx';

export function AccountPage() {
  useTitle('Your account');
  const { staff, refresh, signOut } = useSession();
  const navigate = useNavigate();
  return (
    <>
      <TopBar />
      <main id="main" className="mx-auto grid max-w-3xl gap-4 p-4">
        <PageTitle>Your account</PageTitle>
        <p>
          {staff?.name} · {staff?.email}
        </p>
        <PasswordForm />
        <TotpPanel enabled={!!staff?.totpEnabled} onChanged={refresh} />
        <section aria-labelledby="sessions-title" className="card">
          <h2 id="sessions-title" className="mb-2 text-lg font-semibold">
            Signed-in devices
          </h2>
          <p className="mb-3">Sign out on every device, this one included (e.g. after losing a tablet).</p>
          <button
            type="button"
            className="btn-danger"
            onClick={() =>
              void api('POST', '/session/logout-all')
                .catch(() => undefined)
                .then(() => signOut().catch(() => undefined))
                .then(() => navigate('/login', { replace: true }))
            }
          >
            Sign out everywhere
          </button>
        </section>
      </main>
    </>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(null);
    try {
      await api('POST', '/me/password', { current, password } satisfies ChangePasswordRequest);
      setCurrent('');
      setPassword('');
      setDone('Password changed.');
    } catch (err) {
      setError(errorText(err));
    }
  }
  return (
    <section aria-labelledby="password-title" className="card">
      <h2 id="password-title" className="mb-2 text-lg font-semibold">
        Change your password
      </h2>
      <form onSubmit={submit} className="grid gap-3">
        <ErrorNote>{error}</ErrorNote>
        <div role="status">{done}</div>
        <div>
          <label htmlFor="current-password">Current password</label>
          <input
            id="current-password"
            className="field"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </div>
        <NewPasswordField id="account-new-password" value={password} onChange={setPassword} />
        <button type="submit" className="btn justify-self-start">
          Change password
        </button>
      </form>
    </section>
  );
}

function TotpPanel({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<void> }) {
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function run(fn: () => Promise<void>) {
    setError(null);
    setDone(null);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    }
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api('POST', enabled ? '/me/totp/disable' : '/me/totp/enable', { code } satisfies TotpCodeRequest);
      setCode('');
      setSetup(null);
      setDone(enabled ? 'Two-step sign-in is off.' : 'Two-step sign-in is on.');
      await onChanged();
    });
  };

  return (
    <section aria-labelledby="totp-title" className="card">
      <h2 id="totp-title" className="mb-2 text-lg font-semibold">
        Two-step sign-in
      </h2>
      <ErrorNote>{error}</ErrorNote>
      <div role="status">{done}</div>
      <p className="mb-3">
        {enabled
          ? 'On: signing in asks for a code from your authenticator app.'
          : 'Off: add a code from an authenticator app to your sign-in.'}
      </p>
      {!enabled && !setup && (
        <button
          type="button"
          className="btn"
          onClick={() => void run(async () => setSetup(await api<TotpSetupAnswer>('POST', '/me/totp/setup')))}
        >
          Set up two-step sign-in
        </button>
      )}
      {setup && (
        <div className="mb-3 grid gap-2">
          <p>Add this account to your authenticator app with the link or the key, then enter the code it shows.</p>
          <p>
            Setup link: <code className="break-all font-mono">{setup.uri}</code>
          </p>
          <p>
            Key:{' '}
            <code className="break-all font-mono" data-testid="totp-secret">
              {setup.secret}
            </code>
          </p>
        </div>
      )}
      {(enabled || setup) && (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="totp-code">{enabled ? 'Code (to turn it off)' : 'Code from the app'}</label>
            <input
              id="totp-code"
              className="field"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
          </div>
          <button type="submit" className={enabled ? 'btn-danger' : 'btn'}>
            {enabled ? 'Turn off' : 'Turn on'}
          </button>
        </form>
      )}
    </section>
  );
}
