import { createElement, type ReactNode } from 'react';
import type { FragmentCache } from './fragment-cache.ts';

/**
 * `<tag {...props}>{inner()}</tag>`; on the server, once rendered, with its inner markup from `cache`
 * under `key` (the same bytes, lib/fragment-cache.ts). `inner` must follow the cache's rules: no
 * hooks that read context, no useId, no Suspense, and `key` names everything it reads. In the
 * browser (no renderer registered) it is the plain element.
 */
export function cachedElement(
  cache: FragmentCache,
  key: string,
  tag: string,
  props: Record<string, unknown>,
  inner: () => ReactNode,
): ReactNode {
  if (cache.enabled) {
    const html = cache.get(key, inner);
    if (html !== undefined) return createElement(tag, { ...props, dangerouslySetInnerHTML: { __html: html } });
  }
  return createElement(tag, props, inner());
}
