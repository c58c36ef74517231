import spriteUrl from './icons.svg?url&no-inline';

/**
 * Small icons (decorative: every control that uses one has a text name), drawn from one SVG sprite
 * (icons.svg, a hashed and immutably cached asset) through `<use>`: a page with many product cards
 * carries a short reference per icon instead of the whole drawing. Stroke and fill come from the
 * `.icon` class (app.css) and inherit into the sprite, so the icons keep following `currentColor`.
 */
type IconProps = { className?: string; filled?: boolean };

type IconName = 'search' | 'heart' | 'compare' | 'close' | 'filter' | 'cart';

function Icon({ name, className, extra }: { name: IconName; className: string; extra?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" className={extra ? `icon ${extra} ${className}` : `icon ${className}`}>
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  );
}

export function SearchIcon({ className = 'h-5 w-5' }: IconProps) {
  return <Icon name="search" className={className} />;
}

export function HeartIcon({ className = 'h-5 w-5', filled = false }: IconProps) {
  return <Icon name="heart" className={className} extra={filled ? 'fill-current' : undefined} />;
}

export function CompareIcon({ className = 'h-5 w-5', filled = false }: IconProps) {
  return <Icon name="compare" className={className} extra={filled ? 'stroke-[2.75]' : undefined} />;
}

export function CloseIcon({ className = 'h-5 w-5' }: IconProps) {
  return <Icon name="close" className={className} />;
}

export function FilterIcon({ className = 'h-5 w-5' }: IconProps) {
  return <Icon name="filter" className={className} />;
}

export function CartIcon({ className = 'h-5 w-5' }: IconProps) {
  return <Icon name="cart" className={className} />;
}
