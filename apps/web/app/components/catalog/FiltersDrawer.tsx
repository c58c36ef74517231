import { useState } from 'react';
import { FilterIcon } from '../ui/Icons.tsx';
import { lazyPanel, usePanelLoad } from '../ui/LazyPanel.tsx';
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

const Drawer = lazyPanel(() => import('./FiltersDrawerDialog.tsx').then((m) => m.FiltersDrawerDialog));

/**
 * Phones: the filter panel as a drawer (a modal dialog, ./FiltersDrawerDialog.tsx, loaded when
 * first opened) behind a "Filters" button. Changes apply at once and the drawer stays open; its
 * status line says how many products match.
 */
export function FiltersDrawer({ groups, query, resultText, total }: Props) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const load = usePanelLoad(open);
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
      <button
        type="button"
        aria-haspopup="dialog"
        className={buttonClass}
        onClick={() => setOpen(true)}
        onPointerEnter={Drawer.preload}
        onFocus={Drawer.preload}
      >
        {label}
      </button>
      <Drawer.Panel load={load} onLoadError={() => setOpen(false)} open={open} onClose={() => setOpen(false)} title={FILTERS_TITLE} resultText={resultText} total={total}>
        <FilterPanel idPrefix="filters-drawer" groups={groups} query={query} />
      </Drawer.Panel>
    </>
  );
}
