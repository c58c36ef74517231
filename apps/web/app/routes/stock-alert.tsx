import { data, Link } from 'react-router';
import type { Route } from './+types/stock-alert';
import { PageShell } from '../components/page/PageShell.tsx';
import { assertStorePrefix } from '../lib/guards.ts';
import { refusalOf } from '../lib/order-tracking.ts';
import { useStorePath } from '../lib/root-data.ts';

/**
 * /stock-alert (issue 30): where the product page's "Tell me when it's back" form posts when the
 * page has no JavaScript (with JavaScript the form calls POST /api/stock-alerts and answers in
 * place, components/product/StockAlert.tsx). The action watches through the server's alerts module
 * (context.stockAlerts, the same as the API) and this page says what happened, with the way back.
 */
const UNREACHABLE = 'The store could not be reached. Please try again.';

type Answer = { kind: 'watching'; message: string; back: string } | { kind: 'error'; message: string; back: string };

/** Only a product page of this site may be the way back. */
function backPath(value: FormDataEntryValue | null): string {
  const v = typeof value === 'string' ? value : '';
  return /^\/p\/[^/?#]+\/[^?#]*$/.test(v) && !v.includes('//') ? v : '/';
}

export async function loader({ context, params }: Route.LoaderArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  return null;
}

export async function action({ context, params, request }: Route.ActionArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  const form = await request.formData();
  const fields: Record<string, string> = {};
  for (const name of ['productId', 'variantId', 'channel', 'contact', 'consent']) {
    const v = form.get(name);
    if (typeof v === 'string') fields[name] = v.slice(0, 300);
  }
  const back = backPath(form.get('back'));
  if (!context.stockAlerts) return data<Answer>({ kind: 'error', message: UNREACHABLE, back }, { status: 503 });
  try {
    const answer = await context.stockAlerts.ask(fields);
    return data<Answer>({ kind: 'watching', message: answer.message, back });
  } catch (e) {
    const refusal = refusalOf(e);
    if (!refusal) throw e;
    return data<Answer>({ kind: 'error', message: refusal.message, back }, { status: refusal.status });
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });

export const meta: Route.MetaFunction = () => [{ title: "Tell me when it's back" }, { name: 'robots', content: 'noindex, nofollow' }];

export default function StockAlertPage({ actionData }: Route.ComponentProps) {
  const storePath = useStorePath();
  const answer = actionData as Answer | undefined;
  return (
    <PageShell title="Tell me when it's back">
      {answer?.kind === 'watching' ? (
        <p role="status" data-testid="stock-alert-done" className="rounded-lg border border-green-300 bg-green-50 px-3 py-2 font-medium text-green-900">
          {answer.message}
        </p>
      ) : answer?.kind === 'error' ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800">
          {answer.message}
        </p>
      ) : (
        <p>Ask on a sold-out product's page.</p>
      )}
      <p className="mt-6">
        <Link to={storePath(answer?.back ?? '/')} className="font-semibold text-brand-ink underline">
          {answer ? 'Back to the product' : 'Back to the menu'}
        </Link>
      </p>
    </PageShell>
  );
}
