import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Dialog } from '../ui/Dialog.tsx';
import { CloseIcon, CompareIcon, HeartIcon } from '../ui/Icons.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import { useSavedList } from '../../state/use-saved-list.ts';
import { announce } from '../../lib/announce.ts';
import { productImageSrc, SMALL_IMAGE_SIZE } from '../../lib/product-view.ts';

export const WISHLIST_TITLE = 'Wishlist';

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

/** Spec §2 UI flag "wishlist panel": a header button with the count, opening the list in a modal panel. */
export function WishlistPanel() {
  const count = useSavedList('wishlist', (s) => s.items.length);
  const location = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [location.key]);
  return (
    <>
      <button type="button" aria-haspopup="dialog" className={headerButtonClass} onClick={() => setOpen(true)}>
        <HeartIcon />
        <span className="sr-only sm:not-sr-only">{WISHLIST_TITLE}</span>
        <CountBadge count={count} noun="item" />
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        labelledBy="wishlist-panel-title"
        className="mr-0 ml-auto h-full max-h-none w-full max-w-md overflow-y-auto bg-white p-0 text-stone-900 shadow-2xl"
      >
        <WishlistBody onClose={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

function WishlistBody({ onClose }: { onClose: () => void }) {
  const items = useSavedList('wishlist', (s) => s.items);
  const remove = useSavedList('wishlist', (s) => s.remove);
  const clear = useSavedList('wishlist', (s) => s.clear);
  // A removed row takes its button with it: keep focus in the panel, on its title.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const refocus = () => queueMicrotask(() => titleRef.current?.focus());
  return (
    <div className="flex min-h-full flex-col p-4 sm:p-6">
      <div className="flex items-center justify-between gap-4">
        <h2 id="wishlist-panel-title" ref={titleRef} tabIndex={-1} className="font-display text-2xl font-bold">
          {WISHLIST_TITLE}
        </h2>
        <button type="button" onClick={onClose} className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-full hover:bg-stone-100">
          <CloseIcon />
          <span className="sr-only">Close wishlist</span>
        </button>
      </div>
      {items.length === 0 ? (
        <p className="mt-6 text-stone-700">Your wishlist is empty. Use the heart on any product to keep it here for later.</p>
      ) : (
        <>
          <ul aria-label="Wishlist items" className="mt-4 divide-y divide-stone-200">
            {items.map((item) => (
              <li key={item.sku} className="flex items-center gap-3 py-3">
                <img
                  src={productImageSrc(item.image, SMALL_IMAGE_SIZE, SMALL_IMAGE_SIZE)}
                  alt=""
                  width={64}
                  height={64}
                  className="h-16 w-16 shrink-0 rounded-lg bg-stone-100 object-cover"
                />
                <div className="min-w-0 flex-1">
                  <StoreLink to={item.path} className="font-semibold text-stone-900 hover:underline">
                    {item.name}
                  </StoreLink>
                  {item.brand ? <p className="text-xs text-stone-600">{item.brand}</p> : null}
                </div>
                <button
                  type="button"
                  onClick={() => {
                    remove(item.sku);
                    refocus();
                    announce(`${item.name} removed from your wishlist.`);
                  }}
                  className="inline-flex min-h-11 items-center rounded-full border border-stone-300 px-3 text-sm font-medium text-stone-800 hover:bg-stone-100"
                >
                  Remove<span className="sr-only"> {item.name} from wishlist</span>
                </button>
              </li>
            ))}
          </ul>
          <p className="mt-4">
            <button
              type="button"
              onClick={() => {
                clear();
                refocus();
                announce('Your wishlist is now empty.');
              }}
              className="font-medium text-stone-700 underline underline-offset-4 hover:text-stone-900"
            >
              Clear wishlist
            </button>
          </p>
        </>
      )}
    </div>
  );
}
