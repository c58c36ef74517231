import { useRef } from 'react';
import { Dialog, SIDE_PANEL_CLASS } from '../ui/Dialog.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import { useSavedList } from '../../state/use-saved-list.ts';
import { announce } from '../../lib/announce.ts';
import { productImageSrc, SMALL_IMAGE_SIZE } from '../../lib/product-view.ts';
import { WISHLIST_TITLE } from './wishlist-text.ts';

/** The wishlist panel, loaded the first time the header's wishlist button opens it (./WishlistPanel.tsx). */
export function WishlistDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy="wishlist-panel-title"
      className={SIDE_PANEL_CLASS}
    >
      <WishlistBody onClose={onClose} />
    </Dialog>
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
        <CloseButton onClose={onClose} label="Close wishlist" />
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
