import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import type { AuthDialog } from '../../state/auth-types.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { ACCOUNT_DIALOG_TITLE_ID, LoginPanel } from './LoginPanel.tsx';
import { OnboardingPanel } from './OnboardingPanel.tsx';
import { ProfilePanel } from './ProfilePanel.tsx';
import { RegisterPanel } from './RegisterPanel.tsx';

/** The account dialog itself, loaded the first time a panel is asked for (see ./AccountDialogs.tsx). */
export default function AccountDialogsClient() {
  const dialog = useAuth((s) => s.dialog);
  const auth = useAuthApi();
  const close = () => auth.getState().closeDialog();
  const location = useLocation();
  const previous = useRef<AuthDialog | null>(null);

  // A link inside a panel navigated: the panel has done its job.
  const pathname = useRef(location.pathname);
  useEffect(() => {
    if (pathname.current !== location.pathname && auth.getState().dialog) auth.getState().closeDialog();
    pathname.current = location.pathname;
  }, [location.pathname, auth]);

  useEffect(() => {
    const before = previous.current;
    previous.current = dialog;
    if (!before || !dialog || before === dialog) return;
    const panel = document.getElementById(ACCOUNT_DIALOG_TITLE_ID)?.closest('dialog');
    const target = panel?.querySelector<HTMLElement>('[data-autofocus]') ?? document.getElementById(ACCOUNT_DIALOG_TITLE_ID);
    target?.focus();
  }, [dialog]);

  return (
    <Dialog
      open={dialog !== null}
      onClose={close}
      labelledBy={ACCOUNT_DIALOG_TITLE_ID}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-3xl bg-white p-0 text-stone-900 shadow-2xl"
    >
      {dialog === 'login' ? <LoginPanel onClose={close} /> : null}
      {dialog === 'register' ? <RegisterPanel onClose={close} /> : null}
      {dialog === 'onboarding' ? <OnboardingPanel onClose={close} /> : null}
      {dialog === 'profile' ? <ProfilePanel onClose={close} /> : null}
    </Dialog>
  );
}
