import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorNote } from '../components/ui.tsx';
import { NewPasswordField } from '../components/forms.tsx';
import { api, errorText } from '../lib/api.ts';
import type { PasswordResetConfirmRequest } from '../lib/types.ts';
import { useTitle } from './layout.tsx';

export function ResetPasswordPage() {
  useTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password !== repeat) return setError('The two passwords are not the same.');
    setError(null);
    try {
      await api('POST', '/password-reset/confirm', { token, password } satisfies PasswordResetConfirmRequest);
      setDone(true);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <main id="main" className="mx-auto max-w-md p-6">
      <h1 className="mb-4 text-2xl font-semibold">Choose a new password</h1>
      {done ? (
        <p role="status">
          Your password is changed.{' '}
          <Link to="/login" className="link">
            Sign in
          </Link>
        </p>
      ) : !token ? (
        <ErrorNote>This link has no reset token. Ask for a new link from the sign-in page.</ErrorNote>
      ) : (
        <form onSubmit={submit} className="card grid gap-4" aria-label="New password">
          <ErrorNote>{error}</ErrorNote>
          <NewPasswordField id="new-password" value={password} onChange={setPassword} />
          <div>
            <label htmlFor="repeat-password">Repeat the new password</label>
            <input
              id="repeat-password"
              className="field"
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          </div>
          <button type="submit" className="btn">
            Save the new password
          </button>
        </form>
      )}
    </main>
  );
}
