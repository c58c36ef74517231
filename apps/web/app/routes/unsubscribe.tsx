import { data, Form, useNavigation } from 'react-router';
import type { StockAlertUnsubscribeView } from '@verdant/domain';
import type { Route } from './+types/unsubscribe';
import { PageShell } from '../components/page/PageShell.tsx';
import { assertStorePrefix } from '../lib/guards.ts';
import { refusalOf } from '../lib/order-tracking.ts';
import { useRootData } from '../lib/root-data.ts';

/**
 * /unsubscribe/:token (issue 30): the one-tap unsubscribe link of a back-in-stock message. No login
 * and no JavaScript needed: the signed token is the key (the server's alerts/link.ts). Opening the
 * link shows one button (mail scanners and carriers' link checkers follow links, so opening alone
 * changes nothing); the button is a plain POST to this route's action, answered with the same page.
 */
const UNREACHABLE = 'The store could not be reached. Please try again.';

type Load = { kind: 'failed'; message: string } | { kind: 'ready'; view: StockAlertUnsubscribeView };

async function run(context: Route.LoaderArgs['context'], token: string, write: boolean) {
  if (!context.stockAlerts) return data<Load>({ kind: 'failed', message: UNREACHABLE }, { status: 503 });
  try {
    const view = write ? await context.stockAlerts.unsubscribe(token) : await context.stockAlerts.unsubscribeView(token);
    return data<Load>({ kind: 'ready', view });
  } catch (e) {
    const refusal = refusalOf(e);
    if (!refusal) throw e;
    return data<Load>({ kind: 'failed', message: refusal.message }, { status: refusal.status });
  }
}

export async function loader({ context, params }: Route.LoaderArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  return run(context, params.token, false);
}

export async function action({ context, params }: Route.ActionArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  return run(context, params.token, true);
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });

export const meta: Route.MetaFunction = () => [{ title: 'Unsubscribe' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { store } = useRootData();
  const busy = useNavigation().state === 'submitting';
  const load = (actionData ?? loaderData) as Load;
  const what = (v: StockAlertUnsubscribeView) => (v.channel === 'sms' ? 'text messages' : 'e-mails');
  return (
    <PageShell title="Unsubscribe">
      {load.kind === 'failed' ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800">
          {load.message}
        </p>
      ) : load.view.unsubscribed ? (
        <p role="status" data-testid="unsubscribed" className="rounded-lg border border-green-300 bg-green-50 px-3 py-2 font-medium text-green-900">
          {`You are unsubscribed: ${store.name} sends you no more marketing ${what(load.view)}.`}
        </p>
      ) : (
        <Form method="post" className="max-w-md space-y-4">
          <p className="text-stone-800">
            {`You asked on ${load.view.since} to hear when ${load.view.product} is back. Stop all marketing ${what(load.view)} from ${store.name}?`}
          </p>
          <button
            type="submit"
            disabled={busy}
            className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90 disabled:opacity-60"
          >
            Unsubscribe
          </button>
        </Form>
      )}
    </PageShell>
  );
}
