import type { ReactNode } from 'react';

/**
 * Server-side cache of the inner HTML of repeated, data-pure subtrees (product cards): a page of 60
 * cards spends most of its render turning the same card markup into HTML on every request. The
 * server writes a cached card as its root element with `dangerouslySetInnerHTML` of the cached
 * inner HTML — the same bytes React writes for the children — and the browser, which never uses
 * this cache, hydrates the normal component over the same markup.
 *
 * Rules for a fragment (the caller's part):
 * - its element must be *pure*: no hooks that read context (router, stores, cart, time), no useId,
 *   no Suspense, no resource that React hoists into the head (an `<img>` without `loading="lazy"`
 *   is preloaded from the head: such cards are not cached);
 * - its key must name every input the markup depends on (the document's fields, the resolved href,
 *   the money locale). A changed document gives a different key; the old entry ages out.
 *
 * A miss is rendered normally by the caller (same cost as without the cache); the fragment is
 * rendered to a string after the current turn (`setImmediate`), outside React's render of the page,
 * so nothing renders inside another render. The renderer (`renderToString`) is registered by
 * entry.server.tsx, so react-dom/server never reaches a browser bundle; without it (the browser,
 * a test that does not register one) every lookup misses and nothing is queued.
 *
 * Memory is bounded: least recently used entries go first once keys + HTML pass `maxChars`
 * (UTF-16 code units, ~bytes for these ASCII-heavy strings).
 */
export type FragmentRenderer = (node: ReactNode) => string;

const DEFAULT_MAX_CHARS = 8_000_000;

export class FragmentCache {
  private readonly entries = new Map<string, string>();
  private readonly pending = new Map<string, () => ReactNode>();
  private chars = 0;
  private scheduled = false;
  hits = 0;
  misses = 0;

  constructor(
    private renderer: FragmentRenderer | undefined,
    readonly maxChars = DEFAULT_MAX_CHARS,
  ) {}

  setRenderer(renderer: FragmentRenderer | undefined): void {
    this.renderer = renderer;
  }

  get enabled(): boolean {
    return this.renderer !== undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  get usedChars(): number {
    return this.chars;
  }

  /**
   * The cached inner HTML for `key`, or undefined: then the caller renders the subtree itself, and
   * `build` (the pure element to cache) is rendered after this turn.
   */
  get(key: string, build: () => ReactNode): string | undefined {
    if (!this.renderer) return undefined;
    const html = this.entries.get(key);
    if (html !== undefined) {
      this.hits++;
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, html);
      return html;
    }
    this.misses++;
    if (!this.pending.has(key)) {
      this.pending.set(key, build);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }
    return undefined;
  }

  /** Renders the queued fragments now (tests; otherwise after the turn that queued them). */
  flush(): void {
    this.scheduled = false;
    const renderer = this.renderer;
    const queued = [...this.pending];
    this.pending.clear();
    if (!renderer) return;
    for (const [key, build] of queued) {
      if (this.entries.has(key)) continue;
      let html: string;
      try {
        html = renderer(build());
      } catch {
        // Runs outside any request: a fragment that cannot render alone is simply not cached
        // (its pages keep rendering it in full, and report their own errors).
        continue;
      }
      this.set(key, html);
    }
  }

  clear(): void {
    this.entries.clear();
    this.pending.clear();
    this.chars = 0;
    this.hits = 0;
    this.misses = 0;
  }

  private set(key: string, html: string): void {
    const cost = key.length + html.length;
    if (cost > this.maxChars) return;
    this.entries.set(key, html);
    this.chars += cost;
    for (const [oldKey, oldHtml] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldKey);
      this.chars -= oldKey.length + oldHtml.length;
    }
  }
}

/** The process's card cache (server only: entry.server.tsx registers the renderer). */
export const cardFragments = new FragmentCache(undefined);

/**
 * The process's header and footer parts (server only, registered with the cards): a few entries a
 * store — one per base path, navigation state and open-now line — so a small bound.
 */
export const layoutFragments = new FragmentCache(undefined, 2_000_000);

/**
 * The process's parts of product and category pages (breadcrumbs, a product's facts, sizes,
 * description and tags; server only): one set a product page, least recently used out.
 */
export const pageFragments = new FragmentCache(undefined, 4_000_000);
