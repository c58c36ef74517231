import { useEffect, useState, type ComponentType } from 'react';
import { Outlet, useNavigation, useOutletContext, useRouteError } from 'react-router';

/**
 * Code splitting by route (issue 27): the console's entry holds the shell (session, top bar,
 * alerts), the sign-in page and the order queue, so a tablet or phone at the counter shows the queue
 * after one script; every other page is a router `lazy` route, a chunk of its own.
 *
 * - First load of a lazy page (a link, a reload): the router starts its chunk at once, beside the
 *   session check; the shell and top bar render, and the page's place shows `PageFallback`.
 * - Navigating to a lazy page not loaded yet: the current page stays until the chunk is there
 *   (no blank or flashing page); `NavigationStatus` says "Loading page…" if it takes a while.
 * - Once the first page is shown and the browser is idle, `prefetchPages` loads the other chunks,
 *   so later navigations wait for nothing.
 * - A chunk that cannot load (connection lost, or the console was deployed again and the old
 *   chunk is gone) shows `PageLoadError`: one sentence and a reload button.
 */

/** A lazy route's module: the page component it exports under `name`. */
export function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): { lazy: () => Promise<{ Component: ComponentType }>; load: () => Promise<unknown> } {
  return { lazy: () => load().then((m) => ({ Component: m[name] as ComponentType })), load };
}

/** Shown only after this long: a page that loads quicker never flashes a loading line. */
const QUIET_MS = 400;

function useAfter(ms: number, active = true): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!active) {
      setLate(false);
      return;
    }
    const t = setTimeout(() => setLate(true), ms);
    return () => clearTimeout(t);
  }, [ms, active]);
  return active && late;
}

/**
 * The place of a lazy page while its chunk loads on the first visit. The status element is there
 * from the start, so its text, filled in after QUIET_MS, is announced.
 */
export function PageFallback() {
  const late = useAfter(QUIET_MS);
  return (
    <p role="status" className="text-stone-600">
      {late ? 'Loading page…' : ''}
    </p>
  );
}

/** The same, for pages outside a store (account, staff, password reset): in a main landmark of their own. */
export function StandaloneFallback() {
  return (
    <main id="main" className="p-6">
      <PageFallback />
    </main>
  );
}

/**
 * While a navigation waits for a page's chunk, the current page stays; after QUIET_MS this says so
 * (a live region, always in the page, so the words are announced; shown at the top of the screen).
 */
export function NavigationStatus() {
  const loading = useNavigation().state !== 'idle';
  const late = useAfter(QUIET_MS, loading);
  return (
    <div role="status" aria-live="polite" className={late ? 'fixed inset-x-0 top-0 z-50 flex justify-center p-2' : 'sr-only'}>
      {late ? <span className="rounded-full bg-stone-900 px-4 py-1 text-sm font-semibold text-white shadow">Loading page…</span> : null}
    </div>
  );
}

/** A pathless route around lazy pages: passes the store's outlet context on (./routes/layout.tsx `useStore`). */
export function PassContext() {
  return <Outlet context={useOutletContext()} />;
}

/** A page that could not be loaded or shown: what happened and the one way out. */
export function PageLoadError() {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return (
    <div role="alert" className="card max-w-xl">
      <h1 className="text-xl font-semibold">This page could not be loaded</h1>
      <p className="mt-2">The connection may have dropped, or the console was updated. Reloading fetches it again.</p>
      <button type="button" className="btn mt-4" onClick={() => window.location.reload()}>
        Reload the console
      </button>
    </div>
  );
}

/** The same outside a store's layout: in a main landmark of its own. */
export function StandaloneLoadError() {
  return (
    <main id="main" className="p-6">
      <PageLoadError />
    </main>
  );
}

/**
 * After the first page is on screen and the browser is idle, load every other page's chunk (in the
 * given order), so no later navigation waits. Not when the browser asks to save data.
 */
export function prefetchPages(loads: Array<() => Promise<unknown>>): void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData) return;
  const idle = (fn: () => void) =>
    'requestIdleCallback' in window ? window.requestIdleCallback(fn, { timeout: 5000 }) : setTimeout(fn, 1500);
  const next = (i: number) => {
    if (i >= loads.length) return;
    idle(() => {
      loads[i]().then(
        () => next(i + 1),
        () => {
          // Offline or redeployed: the page loads (or says it cannot) when it is opened.
        },
      );
    });
  };
  const start = () => setTimeout(() => next(0), 1000);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
