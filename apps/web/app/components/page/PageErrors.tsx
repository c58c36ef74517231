import { isRouteErrorResponse } from 'react-router';
import { MESSAGES } from '@verdant/domain';
import { StoreLink } from '../store/StoreLink.tsx';

export function isNotFound(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 404;
}

/** Spec §2 catch-all: a friendly page with a way back (the HTTP status is 404). */
export function NotFound() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6 sm:py-24">
      <p className="text-sm font-semibold tracking-wide text-brand-ink uppercase">{MESSAGES.pageNotFound}</p>
      <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-stone-900 sm:text-5xl">Page not found</h1>
      <p className="mt-5 text-lg text-stone-700">
        We couldn’t find the page you were looking for. It may have moved, or the link may be out of date.
      </p>
      <p className="mt-8">
        <StoreLink
          to="/"
          className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90"
        >
          Go to the home page
        </StoreLink>
      </p>
      <p className="mt-6 text-stone-700">
        Or browse the{' '}
        <StoreLink to="/menu" className="font-semibold text-brand-ink underline underline-offset-4">
          menu
        </StoreLink>{' '}
        and{' '}
        <StoreLink to="/sale" className="font-semibold text-brand-ink underline underline-offset-4">
          current sale
        </StoreLink>
        .
      </p>
    </div>
  );
}

/** Any other error: the spec's copy, and a stack trace only in development builds. */
export function SomethingWentWrong({ error }: { error?: unknown }) {
  const details = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6 sm:py-24">
      <h1 className="font-display text-4xl font-bold tracking-tight text-stone-900">Something went wrong</h1>
      <p className="mt-5 text-lg text-stone-700">{MESSAGES.somethingWentWrong}</p>
      <p className="mt-8">
        <StoreLink
          to="/"
          className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90"
        >
          Go to the home page
        </StoreLink>
      </p>
      {details ? <pre className="mt-8 overflow-x-auto rounded bg-stone-100 p-4 text-left text-xs">{details}</pre> : null}
    </div>
  );
}

export function RouteError({ error }: { error: unknown }) {
  return isNotFound(error) ? <NotFound /> : <SomethingWentWrong error={error} />;
}

/** Meta for a layout's error boundary: `Page not found — {store}` or `Something went wrong — {store}`. */
export function errorTitle(error: unknown): string {
  return isNotFound(error) ? 'Page not found' : 'Something went wrong';
}
