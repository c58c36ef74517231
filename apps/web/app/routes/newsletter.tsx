import type { Route } from './+types/newsletter';
import { NewsletterLink } from '../components/account/NewsletterLink.tsx';
import { pageMeta } from '../lib/meta.ts';
import { PageShell } from '../components/page/PageShell.tsx';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Newsletter', noindex: true });

/** The newsletter mail's signed link `?linkToken=` (the server checks it). */
export function loader({ url }: Route.LoaderArgs) {
  return { linkToken: url.searchParams.get('linkToken') ?? '' };
}

/** /newsletter: the target of a newsletter mail's link — that address's subscription, without logging in. */
export default function Newsletter({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell title="Newsletter">
      <NewsletterLink linkToken={loaderData.linkToken} />
    </PageShell>
  );
}
