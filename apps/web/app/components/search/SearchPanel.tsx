import { useState } from 'react';
import { usePageChange } from '../../lib/use-page-change.ts';
import { SearchIcon } from '../ui/Icons.tsx';
import { lazyPanel, usePanelLoad } from '../ui/LazyPanel.tsx';
import { useStorePath } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { SEARCH_ANCHOR, SEARCH_RESULTS_PATH } from './search-text.ts';

const headerButtonClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full border border-stone-300 px-3 text-sm font-medium text-stone-800 hover:bg-stone-100';

const Search = lazyPanel(() => import('./SearchDialog.tsx').then((m) => m.SearchDialog));

/**
 * The header search (spec §2 UI flag "search panel"): a button opening a modal panel with
 * instant results (./SearchDialog.tsx, loaded when first opened). Without JavaScript it is a link
 * to the menu's own search form.
 */
export function SearchPanel() {
  const hydrated = useHydrated();
  const storePath = useStorePath();
  const [open, setOpen] = useState(false);
  const load = usePanelLoad(open);

  // Following a result or submitting the form navigates: the panel closes.
  usePageChange(() => setOpen(false));

  if (!hydrated) return <SearchLink href={storePath(SEARCH_RESULTS_PATH)} />;
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        className={headerButtonClass}
        onClick={() => setOpen(true)}
        onPointerEnter={Search.preload}
        onFocus={Search.preload}
      >
        <SearchLabel />
      </button>
      <Search.Panel load={load} onLoadError={() => setOpen(false)} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function SearchLabel() {
  return (
    <>
      <SearchIcon />
      <span className="sr-only sm:not-sr-only">Search</span>
    </>
  );
}

/**
 * The search entry before hydration and without JavaScript: a link to the menu's search form
 * (`href`: the menu's path in this store). No hooks: the header's cached part writes it too.
 */
export function SearchLink({ href }: { href: string }) {
  return (
    <a href={`${href}#${SEARCH_ANCHOR}`} className={headerButtonClass}>
      <SearchLabel />
    </a>
  );
}
