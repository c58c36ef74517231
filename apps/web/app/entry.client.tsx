import { options, type VNode } from 'preact';
import { startTransition, StrictMode, useLayoutEffect, type CSSProperties, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { registerServiceWorker } from './lib/service-worker.ts';

/**
 * The browser runs Preact (preact/compat stands in for react and react-dom in the client build
 * only: vite.config.ts), hydrating the HTML that React renders on the server. Preact hydrates
 * synchronously, and HydratedRouter suspends on its first render until React Router has decoded
 * the server's loader data (a promise thrown with no Suspense boundary above it, which React would
 * wait for on its own): hydration then simply starts again once that promise settles. Nothing has
 * rendered before the router, so the retry starts from the server's DOM as it was.
 */
/**
 * Preact renders a whole document into `document.documentElement` (it owns the children of <html>,
 * not the <html> element the browser made): the root layout's <html> therefore becomes, in the
 * browser, a component that renders its children (head and body) and keeps the <html> element's own
 * attributes (lang, the store's palette) in step with what the layout asks for.
 */
function DocumentElement({ children, lang, style }: { children?: ReactNode; lang?: string; style?: CSSProperties }) {
  const styleKey = JSON.stringify(style ?? {});
  useLayoutEffect(() => {
    const html = document.documentElement;
    if (lang !== undefined && html.lang !== lang) html.lang = lang;
    for (const [name, value] of Object.entries(style ?? {})) {
      const text = String(value);
      if (html.style.getPropertyValue(name) !== text) html.style.setProperty(name, text);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lang, styleKey]);
  return <>{children}</>;
}
const previousVNodeHook = options.vnode;
options.vnode = (vnode: VNode) => {
  previousVNodeHook?.(vnode);
  if (vnode.type === 'html') (vnode as VNode<unknown>).type = DocumentElement as never;
};

/**
 * The <head> React sent is not quite the tree the layout renders: React hoists resource hints into
 * it (image preloads, and the module preloads that <Scripts> renders in the body) and puts
 * stylesheets after them. Preact hydrates an element's children in order, matching each by tag
 * and leaving attributes as they are, so before hydrating: the hints go (their downloads have
 * started; the browser render puts its own module preloads where <Scripts> is), and the
 * layout lists its links in the order React emits them (root.tsx: the icon before the stylesheet).
 * Should an element of the head still differ from what the layout renders, it is made to match
 * (and said in the console): the head is then right, only not hydrated in place.
 */
const HEAD_ATTRIBUTES = ['rel', 'href', 'type', 'name', 'property', 'content', 'media', 'sizes', 'crossOrigin', 'as'] as const;
let hydrating = false;
const previousDiffedHook = options.diffed;
options.diffed = (vnode: VNode) => {
  previousDiffedHook?.(vnode);
  if (typeof vnode.type !== 'string') return;
  const dom = (vnode as unknown as { __e?: Element | null }).__e;
  if (!dom) return;
  if (!hydrating && (vnode.props as { autoFocus?: boolean }).autoFocus) autoFocus(dom);
  if (!hydrating) return;
  const props = vnode.props as Record<string, unknown>;
  adoptIds(dom, props);
  if (dom.parentNode !== document.head) return;
  for (const name of HEAD_ATTRIBUTES) {
    const want = props[name];
    const attribute = name === 'crossOrigin' ? 'crossorigin' : name;
    const have = dom.getAttribute(attribute);
    if (want === undefined || want === null || want === false) {
      if (have !== null) dom.removeAttribute(attribute);
    } else if (have !== String(want)) {
      console.warn(`hydration: <${vnode.type} ${attribute}="${have ?? ''}"> in the head made "${String(want)}"`);
      dom.setAttribute(attribute, String(want));
    }
  }
};

/**
 * React focuses an element rendered with `autoFocus` when it mounts (the attribute alone only acts
 * on page load); so does the browser's renderer, once the element is in the document.
 */
const autoFocused = new WeakSet<Element>();
function autoFocus(element: Element) {
  if (autoFocused.has(element)) return;
  autoFocused.add(element);
  queueMicrotask(() => {
    if (element.isConnected && element instanceof HTMLElement) element.focus();
  });
}

/**
 * useId: React's ids (in the server's HTML) and Preact's are not the same strings. Hydration keeps
 * the server's attributes, while an element rendered later gets Preact's id: a label, a description
 * or a control rendered after hydration would then name an id that is not there. So while
 * hydrating, the attributes that hold ids take the values the browser's renderer computes, and
 * every reference agrees from then on.
 */
const ID_ATTRIBUTES: [prop: string, attribute: string][] = [
  ['id', 'id'],
  ['htmlFor', 'for'],
  ['for', 'for'],
  ['aria-labelledby', 'aria-labelledby'],
  ['aria-describedby', 'aria-describedby'],
  ['aria-controls', 'aria-controls'],
  ['aria-owns', 'aria-owns'],
  ['aria-activedescendant', 'aria-activedescendant'],
  ['aria-errormessage', 'aria-errormessage'],
  ['aria-details', 'aria-details'],
  ['list', 'list'],
  ['form', 'form'],
];
function adoptIds(dom: Element, props: Record<string, unknown>) {
  for (const [prop, attribute] of ID_ATTRIBUTES) {
    const want = props[prop];
    if (typeof want === 'string' && dom.getAttribute(attribute) !== want) dom.setAttribute(attribute, want);
  }
}

/**
 * Effects (useEffect) run after paint. Preact waits for an animation frame (or 100 ms) for that;
 * React's scheduler posts a message. Posting a message here too keeps effects running on time where
 * frames do not come (a background tab, a stopped clock in the browser journeys).
 */
const effectsChannel = new MessageChannel();
let pendingEffects: (() => void)[] = [];
effectsChannel.port1.onmessage = () => {
  const run = pendingEffects;
  pendingEffects = [];
  for (const callback of run) callback();
};
options.requestAnimationFrame = (callback) => {
  pendingEffects.push(callback);
  if (pendingEffects.length === 1) effectsChannel.port2.postMessage(null);
};

function dropResourceHints() {
  for (const link of document.head.querySelectorAll('link[rel="preload"], link[rel="modulepreload"]')) link.remove();
}

function hydrate() {
  hydrating = true;
  try {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  } catch (thrown) {
    if (!isThenable(thrown)) throw thrown;
    thrown.then(hydrate, hydrate);
  } finally {
    hydrating = false;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

dropResourceHints();
startTransition(hydrate);

registerServiceWorker();
