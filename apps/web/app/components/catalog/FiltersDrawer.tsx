import { useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { CloseIcon, FilterIcon } from '../ui/Icons.tsx';
import { FilterPanel } from './FilterPanel.tsx';
import { activeFilterCount, type CatalogQuery } from '../../lib/catalog-query.ts';
import type { FilterGroup } from '../../lib/filter-view.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

export const FILTERS_TITLE = 'Filters';
/** The id of the sidebar panel; without JavaScript the phone "Filters" link jumps to it (:target). */
export const FILTER_PANEL_ID = 'filters';

interface Props {
  groups: FilterGroup[];
  query: CatalogQuery;
  resultText: string;
  total: number;
}

/**
 * Phones: the filter panel as a drawer (a modal dialog) behind a "Filters" button. Changes apply
 * at once and the drawer stays open; its status line says how many products match.
 */
export function FiltersDrawer({ groups, query, resultText, total }: Props) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const count = activeFilterCount(query.filters);
  const label = (
    <>
      <FilterIcon />
      {FILTERS_TITLE}
      {count > 0 ? (
        <span className="inline-flex min-w-5 items-center justify-center rounded-full bg-brand px-1.5 text-xs font-semibold text-on-brand">
          {count}
          <span className="sr-only"> active</span>
        </span>
      ) : null}
    </>
  );
  const buttonClass =
    'inline-flex min-h-11 items-center gap-2 rounded-full border border-stone-300 bg-white px-4 text-sm font-medium text-stone-800 hover:bg-stone-100 lg:hidden';
  if (!hydrated) {
    return (
      <a href={`#${FILTER_PANEL_ID}`} className={buttonClass}>
        {label}
      </a>
    );
  }
  return (
    <>
      <button type="button" aria-haspopup="dialog" className={buttonClass} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        labelledBy="filters-drawer-title"
        className="mr-0 ml-auto h-full max-h-none w-full max-w-sm overflow-y-auto bg-white p-0 text-stone-900 shadow-2xl"
      >
        <div className="flex min-h-full flex-col">
          <div className="sticky top-0 z-10 flex items-center justify-between gap-4 border-b border-stone-200 bg-white px-4 py-3">
            <h2 id="filters-drawer-title" className="font-display text-2xl font-bold">
              {FILTERS_TITLE}
            </h2>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-full hover:bg-stone-100"
            >
              <CloseIcon />
              <span className="sr-only">Close filters</span>
            </button>
          </div>
          <div className="flex-1 px-4 py-4">
            <FilterPanel idPrefix="filters-drawer" groups={groups} query={query} />
          </div>
          <div className="sticky bottom-0 border-t border-stone-200 bg-white px-4 py-3">
            <p role="status" aria-live="polite" className="mb-2 text-sm text-stone-700">
              {resultText}
            </p>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="inline-flex min-h-12 w-full items-center justify-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90"
            >
              {total === 1 ? 'Show 1 product' : `Show ${total} products`}
            </button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
