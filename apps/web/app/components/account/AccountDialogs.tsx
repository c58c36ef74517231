import { lazy, Suspense, useEffect, useState } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useAuth } from '../../state/use-auth.ts';

/** The panels' code (forms, uploads, validation) loads only when a shopper opens one: most never do. */
const AccountDialogsClient = lazy(() => import('./AccountDialogsClient.tsx'));

/**
 * The account modals of spec §2 (login, registration, onboarding, profile) in one accessible
 * dialog whose content follows the session's "auth element" flag (`dialog`). One dialog, so going
 * from login to registration swaps the panel without closing the overlay; focus moves to the new
 * panel's first field. A failed token refresh opens it on login (spec §4).
 */
export function AccountDialogs() {
  const hydrated = useHydrated();
  const dialog = useAuth((s) => s.dialog);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (dialog) setWanted(true);
  }, [dialog]);
  if (!hydrated || !wanted) return null;
  return (
    <Suspense fallback={null}>
      <AccountDialogsClient />
    </Suspense>
  );
}
