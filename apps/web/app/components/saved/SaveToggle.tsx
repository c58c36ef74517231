import type { SavedListKind, SavedProduct } from '../../state/saved-list.ts';
import { useSavedList } from '../../state/use-saved-list.ts';
import { announce } from '../../lib/announce.ts';
import { CompareIcon, HeartIcon } from '../ui/Icons.tsx';

export const SAVE_LABELS: Record<SavedListKind, { add: string; list: string }> = {
  wishlist: { add: 'Add to wishlist', list: 'wishlist' },
  compare: { add: 'Add to compare', list: 'compare list' },
};

interface Props {
  kind: SavedListKind;
  product: Omit<SavedProduct, 'qty'>;
  /** `icon`: a round icon button (product cards); `full`: icon and text (product page). */
  variant?: 'icon' | 'full';
  /** Say which product the button is for (lists with many cards). */
  nameInLabel?: boolean;
}

/**
 * "Add to wishlist" / "Add to compare" as toggle buttons: aria-pressed says whether the product is
 * in the list, and each change is announced politely (spec §4: add ignored if present, remove by sku).
 */
export function SaveToggle({ kind, product, variant = 'icon', nameInLabel = false }: Props) {
  const pressed = useSavedList(kind, (s) => s.items.some((i) => i.sku === product.sku));
  const toggle = useSavedList(kind, (s) => s.toggle);
  const labels = SAVE_LABELS[kind];
  const onClick = () => {
    const added = toggle(product);
    announce(added ? `${product.name} added to your ${labels.list}.` : `${product.name} removed from your ${labels.list}.`);
  };
  return (
    <SaveToggleButton kind={kind} name={product.name} pressed={pressed} onClick={onClick} variant={variant} nameInLabel={nameInLabel} />
  );
}

interface ButtonProps {
  kind: SavedListKind;
  name: string;
  pressed: boolean;
  onClick?: () => void;
  variant?: 'icon' | 'full';
  nameInLabel?: boolean;
}

/**
 * SaveToggle's markup, without its hooks: what the server writes for a product card from the
 * fragment cache (lib/fragment-cache.ts; on the server the saved lists are always empty, so
 * `pressed` is false there).
 */
export function SaveToggleButton({ kind, name, pressed, onClick, variant = 'icon', nameInLabel = false }: ButtonProps) {
  const labels = SAVE_LABELS[kind];
  const Icon = kind === 'wishlist' ? HeartIcon : CompareIcon;
  const text = (
    <>
      {labels.add}
      {nameInLabel ? <span className="sr-only">: {name}</span> : null}
    </>
  );
  if (variant === 'full') {
    return (
      <button
        type="button"
        aria-pressed={pressed}
        onClick={onClick}
        className="inline-flex min-h-11 items-center gap-2 rounded-full border border-stone-300 bg-white px-4 text-sm font-medium text-stone-800 hover:bg-stone-100 aria-pressed:border-brand aria-pressed:bg-brand/10 aria-pressed:text-brand-ink"
      >
        <Icon filled={pressed} />
        {text}
      </button>
    );
  }
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className="relative z-10 inline-flex h-11 w-11 items-center justify-center rounded-full bg-white/95 text-stone-700 shadow-sm ring-1 ring-stone-300 hover:text-stone-900 aria-pressed:text-brand-ink"
    >
      <Icon filled={pressed} />
      <span className="sr-only">{text}</span>
    </button>
  );
}
