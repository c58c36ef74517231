import { useHydrated } from '../../lib/use-hydrated.ts';
import { useStorePath } from '../../lib/root-data.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';

const buttonClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full border border-stone-300 px-3 text-sm font-medium text-stone-800 hover:bg-stone-100';

function PersonIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
      <circle cx="12" cy="8" r="4" />
      <path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6" />
    </svg>
  );
}

/**
 * The header's account entry: "Log in" for a guest (opens the login modal), the customer's name
 * for a customer (opens the profile modal). Before the session is read — and without JavaScript —
 * it is a link to /my-account, which says that login is needed.
 */
export function AccountButton() {
  const hydrated = useHydrated();
  const storePath = useStorePath();
  const loaded = useAuth((s) => s.loaded);
  const user = useAuth((s) => s.user);
  const auth = useAuthApi();
  if (!hydrated || !loaded) return <AccountLink href={storePath('/my-account')} />;
  if (!user) {
    return (
      <button type="button" aria-haspopup="dialog" className={buttonClass} onClick={() => auth.getState().openDialog('login')}>
        <PersonIcon />
        <span className="sr-only sm:not-sr-only">Log in</span>
      </button>
    );
  }
  const name = user.firstname || 'Account';
  return (
    <button type="button" aria-haspopup="dialog" className={buttonClass} onClick={() => auth.getState().openDialog('profile')}>
      <PersonIcon />
      <span className="sr-only">Your account: </span>
      <span className="max-w-[8rem] truncate sm:not-sr-only max-sm:sr-only">{name}</span>
    </button>
  );
}

/** The account entry before the session is read (the server's): a link to /my-account. No hooks: the header's cached part writes it too. */
export function AccountLink({ href }: { href: string }) {
  return (
    <a href={href} className={buttonClass}>
      <PersonIcon />
      <span className="sr-only sm:not-sr-only">Log in</span>
    </a>
  );
}
