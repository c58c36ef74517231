import { useEffect, useState } from 'react';
import type { LicenseType, ProductCard } from '@verdant/domain';
import { fetchProducts } from '../../api/catalog.ts';
import { MIN_SEARCH_LENGTH } from '../../lib/catalog-query.ts';
import { isNoAnswer, offlineContext } from '../../lib/offline-catalog.ts';
import { useOptionalRootData } from '../../lib/root-data.ts';

/** Spec: instant results while typing, ~150 ms after the last key. */
export const SEARCH_DEBOUNCE_MS = 150;
export const INSTANT_RESULT_COUNT = 8;

export type InstantSearchState =
  | { status: 'idle' }
  | { status: 'short' }
  | { status: 'loading'; text: string; previous: ProductCard[] }
  | { status: 'done'; text: string; items: ProductCard[]; total: number; suggestions: string[] }
  | { status: 'error'; text: string };

/**
 * Instant product search for the search panel: debounced, the previous request aborted as soon
 * as the text changes (a slow answer for "blu" never replaces the one for "blue").
 */
export function useInstantSearch(rawText: string, licenseType: LicenseType, storeCode: string): InstantSearchState {
  const text = rawText.trim().replace(/\s+/g, ' ');
  const [state, setState] = useState<InstantSearchState>({ status: 'idle' });
  const basePath = useOptionalRootData()?.basePath ?? '';

  useEffect(() => {
    if (!text) {
      setState({ status: 'idle' });
      return;
    }
    if (text.length < MIN_SEARCH_LENGTH) {
      setState({ status: 'short' });
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', text, previous: s.status === 'done' ? s.items : s.status === 'loading' ? s.previous : [] }));
    const timer = setTimeout(() => {
      fetchProducts({ text, size: INSTANT_RESULT_COUNT, licenseType, storeCode }, controller.signal)
        .catch(async (error: unknown) => {
          // Offline (issue 6): the same search on this browser's catalogue snapshot.
          const offline = !controller.signal.aborted && isNoAnswer(error) ? await offlineContext(storeCode, basePath) : null;
          if (!offline) throw error;
          return offline.services.searchProducts(offline.store, { licenseType, text, start: 0, size: INSTANT_RESULT_COUNT });
        })
        .then((r) => setState({ status: 'done', text, items: r.items, total: r.total, suggestions: r.suggestions ?? [] }))
        .catch(() => {
          if (!controller.signal.aborted) setState({ status: 'error', text });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, licenseType, storeCode, basePath]);

  return state;
}
