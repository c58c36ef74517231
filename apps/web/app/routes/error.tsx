import type { Route } from './+types/error';
import { SomethingWentWrong } from '../components/page/PageErrors.tsx';
import { pageMeta } from '../lib/meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Something went wrong', noindex: true });

/** /error (spec §2): the error page, in the minimal layout. */
export default function ErrorPage() {
  return <SomethingWentWrong />;
}
