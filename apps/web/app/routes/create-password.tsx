import type { Route } from './+types/create-password';
import { ComingSoon } from '../components/page/ComingSoon.tsx';
import { pageMeta } from '../lib/meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Create a new password', noindex: true });

/** /create-password (spec §2): the target of a password reset link; placeholder. */
export default function CreatePassword() {
  return (
    <ComingSoon
      title="Create a new password"
      what="Password reset is coming:"
      features={[
        'Open the link from your reset email to land here',
        'Choose a new password of at least 8 characters and confirm it',
        'You will be signed in right after',
      ]}
    />
  );
}
