/** Small inline icons (decorative: every control that uses one has a text name). */
type IconProps = { className?: string; filled?: boolean };

const base = { 'aria-hidden': true, focusable: 'false', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export function SearchIcon({ className = 'h-5 w-5' }: IconProps) {
  return (
    <svg {...base} className={className}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

export function HeartIcon({ className = 'h-5 w-5', filled = false }: IconProps) {
  return (
    <svg {...base} className={className} fill={filled ? 'currentColor' : 'none'}>
      <path d="M12 20.5s-7.5-4.6-9.2-9.4C1.7 8 3.6 4.5 7.2 4.5c2 0 3.3 1.1 4.8 3 1.5-1.9 2.8-3 4.8-3 3.6 0 5.5 3.5 4.4 6.6-1.7 4.8-9.2 9.4-9.2 9.4Z" />
    </svg>
  );
}

export function CompareIcon({ className = 'h-5 w-5', filled = false }: IconProps) {
  return (
    <svg {...base} className={className} strokeWidth={filled ? 2.75 : 2}>
      <path d="M7 4 3 8l4 4M3 8h13M17 12l4 4-4 4M21 16H8" />
    </svg>
  );
}

export function CloseIcon({ className = 'h-5 w-5' }: IconProps) {
  return (
    <svg {...base} className={className}>
      <path d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}

export function FilterIcon({ className = 'h-5 w-5' }: IconProps) {
  return (
    <svg {...base} className={className}>
      <path d="M4 6h16M7 12h10M10 18h4" />
    </svg>
  );
}

export function CartIcon({ className = 'h-5 w-5' }: IconProps) {
  return (
    <svg {...base} className={className}>
      <path d="M3 4h2l2.2 10.5a1.5 1.5 0 0 0 1.5 1.2h8.6a1.5 1.5 0 0 0 1.5-1.1L21 8H6.2" />
      <circle cx="9.5" cy="19.5" r="1.3" />
      <circle cx="17" cy="19.5" r="1.3" />
    </svg>
  );
}
