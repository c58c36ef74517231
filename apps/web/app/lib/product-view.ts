import type { ProductCard } from '@verdant/domain';

/** Thumbnail size of spec §9 (310x300): set on every card image so the grid never shifts. */
export const THUMBNAIL_WIDTH = 310;
export const THUMBNAIL_HEIGHT = 300;
export const PLACEHOLDER_IMAGE = '/placeholder-product.svg';

/** Gallery size of spec §9 (600x744) and the small size (150x150) for thumbnails in lists. */
export const GALLERY_WIDTH = 600;
export const GALLERY_HEIGHT = 744;
export const SMALL_IMAGE_SIZE = 150;

/**
 * A catalogue image: `/media/...` as stored, or resized by the server's image endpoint
 * (`/img/310/300/...`, spec §9 sizes) when a size is given; the placeholder when there is none
 * (`no_selection`, spec §5).
 */
export function productImageSrc(image: string | null | undefined, width?: number, height?: number): string {
  if (!image || image === 'no_selection') return PLACEHOLDER_IMAGE;
  if (/^https?:\/\//i.test(image)) return image;
  const path = `${image.startsWith('/') ? '' : '/'}${image}`;
  return width && height ? `/img/${width}/${height}${path}` : `/media${path}`;
}

/** `hybrid` → `Hybrid`, `cbd` → `CBD`. */
export function strainLabel(strain: string | null | undefined): string | null {
  if (!strain) return null;
  const s = strain.trim();
  if (!s) return null;
  if (/^(cbd|thc)$/i.test(s)) return s.toUpperCase();
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

/** `22.456` → `22.5%` (at most one decimal, no trailing zeros). */
export function percentLabel(value: number | null | undefined): string | null {
  if (value == null || !Number.isFinite(value)) return null;
  return `${Number(value.toFixed(1))}%`;
}

export type BadgeKind = 'sale' | 'new' | 'staff_pick' | 'best_seller';

export const BADGE_LABELS: Readonly<Record<BadgeKind, string>> = {
  sale: 'Sale',
  new: 'New',
  staff_pick: 'Staff pick',
  best_seller: 'Best seller',
};

/** Badges in display order; a card counts as on sale when its flag is set or its price is reduced. */
export function productBadges(p: Pick<ProductCard, 'sale' | 'new' | 'staff_pick' | 'best_seller' | 'price' | 'final_price'>): BadgeKind[] {
  const out: BadgeKind[] = [];
  if (p.sale || p.final_price < p.price) out.push('sale');
  if (p.new) out.push('new');
  if (p.staff_pick) out.push('staff_pick');
  if (p.best_seller) out.push('best_seller');
  return out;
}
