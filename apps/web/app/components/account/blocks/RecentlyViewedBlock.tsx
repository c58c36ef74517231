import { productImageSrc, SMALL_IMAGE_SIZE } from '../../../lib/product-view.ts';
import { useRecentlyViewed } from '../../../state/recently-viewed.ts';
import { StoreLink } from '../../store/StoreLink.tsx';
import { Block, secondaryButton } from '../ui.tsx';

/** /my-account/recently-viewed: the products this browser opened last, newest first. */
export function RecentlyViewedBlock() {
  const items = useRecentlyViewed((s) => s.items);
  const loaded = useRecentlyViewed((s) => s.loaded);
  const clear = useRecentlyViewed((s) => s.clear);
  return (
    <Block
      id="recently-viewed"
      title="Recently viewed"
      actions={
        items.length > 0 ? (
          <button type="button" className={secondaryButton} onClick={clear}>
            Clear the list
          </button>
        ) : null
      }
    >
      {loaded && items.length === 0 ? (
        <p className="text-stone-700">
          Products you open show here. <StoreLink to="/menu" className="font-medium text-brand-ink underline">Browse the menu</StoreLink>
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Recently viewed products">
          {items.map((p) => (
            <li key={p.sku} className="flex items-center gap-3 rounded-xl border border-stone-200 p-3">
              {p.image ? (
                <img src={productImageSrc(p.image, SMALL_IMAGE_SIZE, SMALL_IMAGE_SIZE)} alt="" width={64} height={64} className="size-16 rounded-lg object-cover" />
              ) : null}
              <div className="min-w-0">
                {p.brand ? <p className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{p.brand}</p> : null}
                <StoreLink to={p.path} className="font-medium text-stone-900 underline-offset-2 hover:underline">
                  {p.name}
                </StoreLink>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </Block>
  );
}
