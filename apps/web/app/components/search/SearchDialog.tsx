import { useId, useState } from 'react';
import { Form } from 'react-router';
import { MESSAGES, type ProductCard } from '@verdant/domain';
import { Dialog } from '../ui/Dialog.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import { Price } from '../product/Price.tsx';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { productPath } from '../../lib/paths.ts';
import { productImageSrc } from '../../lib/product-view.ts';
import { SEARCH_PANEL_TITLE, SEARCH_RESULTS_PATH } from './search-text.ts';
import { useInstantSearch, type InstantSearchState } from './use-instant-search.ts';

/** The search panel with instant results, loaded the first time the header's search button opens it (./SearchPanel.tsx). */
export function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy="search-panel-title"
      className="mx-auto mt-0 mb-auto max-h-[100dvh] w-full max-w-2xl overflow-y-auto rounded-b-3xl bg-white p-0 text-stone-900 shadow-2xl sm:mt-8 sm:rounded-3xl"
    >
      <SearchPanelBody onClose={onClose} />
    </Dialog>
  );
}

function SearchPanelBody({ onClose }: { onClose: () => void }) {
  const { shopper, store } = useRootData();
  const storePath = useStorePath();
  const inputId = useId();
  const statusId = useId();
  const [text, setText] = useState('');
  const state = useInstantSearch(text, shopper.licenseType, store.storeCode);
  const trimmed = text.trim();
  const allResults = `${SEARCH_RESULTS_PATH}?q=${encodeURIComponent(trimmed)}`;

  return (
    <div className="p-4 sm:p-6">
      <div className="flex items-center justify-between gap-4">
        <h2 id="search-panel-title" className="font-display text-2xl font-bold">
          {SEARCH_PANEL_TITLE}
        </h2>
        <CloseButton onClose={onClose} label="Close search" />
      </div>
      <Form method="get" action={storePath(SEARCH_RESULTS_PATH)} role="search" className="mt-4 flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          {SEARCH_PANEL_TITLE}
        </label>
        <input
          id={inputId}
          type="search"
          name="q"
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
          data-autofocus=""
          enterKeyHint="search"
          aria-describedby={statusId}
          placeholder="Strain, brand or product"
          className="min-h-12 w-full flex-1 rounded-full border border-stone-400 bg-white px-5 text-base placeholder:text-stone-500"
        />
        <button type="submit" className="inline-flex min-h-12 items-center rounded-full bg-brand px-5 font-semibold text-on-brand hover:opacity-90">
          Search
        </button>
      </Form>
      <p id={statusId} role="status" aria-live="polite" className="mt-3 min-h-6 text-sm text-stone-700">
        {statusText(state)}
      </p>
      {state.status === 'done' && state.suggestions.length > 0 && state.suggestions[0].toLowerCase() !== trimmed.toLowerCase() ? (
        <p className="mt-1 text-sm text-stone-700">
          Did you mean{' '}
          <button type="button" className="font-semibold text-brand-ink underline underline-offset-4" onClick={() => setText(state.suggestions[0])}>
            {state.suggestions[0]}
          </button>
          ?
        </p>
      ) : null}
      <SearchResults state={state} money={store.money} />
      {/* Nothing to see on the results page when the search found nothing. */}
      {trimmed.length >= 3 && !(state.status === 'done' && state.total === 0) ? (
        <p className="mt-4 border-t border-stone-200 pt-4">
          <StoreLink to={allResults} className="font-semibold text-brand-ink underline underline-offset-4">
            See all results<span className="sr-only"> for “{trimmed}”</span>
          </StoreLink>
        </p>
      ) : null}
    </div>
  );
}

function statusText(state: InstantSearchState): string {
  switch (state.status) {
    case 'short':
      return MESSAGES.searchTermTooShort;
    case 'loading':
      return 'Searching…';
    case 'error':
      return 'Search is not available right now. Try again in a few seconds.';
    case 'done':
      if (state.total === 0) return `No products match “${state.text}”.`;
      return state.total === 1 ? '1 product found.' : `${state.total} products found.`;
    default:
      return '';
  }
}

function SearchResults({ state, money }: { state: InstantSearchState; money: { currencyCode: string; locale: string } }) {
  const items: ProductCard[] = state.status === 'done' ? state.items : state.status === 'loading' ? state.previous : [];
  if (items.length === 0) return null;
  return (
    <ul aria-label="Search results" className="mt-3 divide-y divide-stone-200" aria-busy={state.status === 'loading'}>
      {items.map((p) => (
        <li key={p.sku} className="relative flex items-center gap-3 py-2">
          <img src={productImageSrc(p.image, 150, 150)} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-lg bg-stone-100 object-cover" />
          <div className="min-w-0 flex-1">
            <StoreLink to={productPath(p.sku, p.slug)} className="font-semibold text-stone-900 after:absolute after:inset-0 hover:underline">
              {p.name}
            </StoreLink>
            {p.brand ? <p className="text-xs text-stone-600">{p.brand}</p> : null}
          </div>
          <Price price={p.price} finalPrice={p.final_price} from={p.price_from} money={money} className="shrink-0 text-sm" />
        </li>
      ))}
    </ul>
  );
}
