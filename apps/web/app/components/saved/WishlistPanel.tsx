import { useState } from 'react';
import { usePageChange } from '../../lib/use-page-change.ts';
import { CompareIcon, HeartIcon } from '../ui/Icons.tsx';
import { lazyPanel, usePanelLoad } from '../ui/LazyPanel.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import { useSavedList } from '../../state/use-saved-list.ts';
import { WISHLIST_TITLE } from './wishlist-text.ts';

const headerButtonClass =
  'relative inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full border border-stone-300 px-3 text-sm font-medium text-stone-800 hover:bg-stone-100';

function CountBadge({ count, noun }: { count: number; noun: string }) {
  if (count === 0) return null;
  return (
    <span className="inline-flex min-w-5 items-center justify-center rounded-full bg-brand px-1.5 text-xs font-semibold text-on-brand">
      {count}
      <span className="sr-only">
        {' '}
        {noun}
        {count === 1 ? '' : 's'}
      </span>
    </span>
  );
}

/** The header's compare link, shown once the compare list has products. */
export function CompareLink() {
  const count = useSavedList('compare', (s) => s.items.length);
  if (count === 0) return null;
  return (
    <StoreLink to="/compare" className={headerButtonClass}>
      <CompareIcon />
      <span className="sr-only sm:not-sr-only">Compare</span>
      <CountBadge count={count} noun="product" />
    </StoreLink>
  );
}

const Wishlist = lazyPanel(() => import('./WishlistDialog.tsx').then((m) => m.WishlistDialog));

/**
 * Spec §2 UI flag "wishlist panel": a header button with the count, opening the list in a modal
 * panel (./WishlistDialog.tsx, loaded when first opened).
 */
export function WishlistPanel() {
  const count = useSavedList('wishlist', (s) => s.items.length);
  const [open, setOpen] = useState(false);
  const load = usePanelLoad(open);
  usePageChange(() => setOpen(false));
  return (
    <>
      <WishlistButton count={count} onOpen={() => setOpen(true)} onPreload={Wishlist.preload} />
      <Wishlist.Panel load={load} onLoadError={() => setOpen(false)} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** The wishlist's header button (no hooks: the header's cached part writes it, with no handlers, as the server renders it). */
export function WishlistButton({ count, onOpen, onPreload }: { count: number; onOpen?: () => void; onPreload?: () => void }) {
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      className={headerButtonClass}
      onClick={onOpen}
      onPointerEnter={onPreload}
      onFocus={onPreload}
    >
      <HeartIcon />
      <span className="sr-only sm:not-sr-only">{WISHLIST_TITLE}</span>
      <CountBadge count={count} noun="item" />
    </button>
  );
}
