import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A server-rendered component whose browser code is not in the page's initial JavaScript,
 * because most pages never render it (the age gate for returning shoppers, kit options on a
 * plain product). The server renders it in full — crawlers and no-JS browsers get the same HTML —
 * provided that a loader awaited `ready()` before the render (the loader knows whether the page
 * will need it). In the browser it is React.lazy: when the server HTML has it, React keeps that
 * HTML as it is (links and forms work) until the code has arrived, then hydrates it.
 *
 * Both sides wrap it in the same <Suspense> boundary, so the markup hydrates as it was sent.
 */
export function splitComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const ready = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(() => ready().then((component) => ({ default: component })));

  function Split(props: P) {
    // In the browser always the lazy one: swapping types later would remount the subtree.
    const Component = (import.meta.env.SSR && loaded) || Lazy;
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  }
  return { Component: Split, ready };
}
