import { useEffect } from 'react';
import type { Route } from './+types/create-password';
import { CreatePasswordForm } from '../components/account/CreatePasswordForm.tsx';
import { pageMeta } from '../lib/meta.ts';
import { PageShell } from '../components/page/PageShell.tsx';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Create a new password', noindex: true });

/** The reset link's `?email=&token=` (the server checks the token; here it only has to be there). */
export function loader({ url }: Route.LoaderArgs) {
  return { email: url.searchParams.get('email') ?? '', token: url.searchParams.get('token') ?? '' };
}

/** /create-password (spec §2): the target of a password reset link — a new password, twice. */
export default function CreatePassword({ loaderData }: Route.ComponentProps) {
  // The reset token is a password-equivalent until used: once the page has it, take it out of the
  // address bar and history (no copy in a shared screenshot, a bookmark or the back button).
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has('token')) return;
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }, []);
  return (
    <PageShell title="Create a new password">
      <CreatePasswordForm email={loaderData.email} token={loaderData.token} />
    </PageShell>
  );
}
