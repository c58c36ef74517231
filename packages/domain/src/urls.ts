/**
 * Product and category paths of spec §2, without the store prefix (the web app adds it with
 * withBasePath). Each segment is URI-encoded so a sku such as `A/B` stays one segment.
 */

/**
 * `/p/{parentSku}/{slug}`, plus `/{childSku}` when a child other than the product itself is
 * meant (childSku defaults to the product's own sku, spec §2, so that one is left out).
 * An empty slug becomes `product` so the path keeps its three segments.
 */
export function productPath(product: { sku: string; slug: string }, childSku?: string | null): string {
  const parts = ['p', product.sku, product.slug || 'product'];
  if (childSku && childSku !== product.sku) parts.push(childSku);
  return `/${parts.map(encodeURIComponent).join('/')}`;
}

/** `/{url_path}` (`menu/flower` → `/menu/flower`); an empty url_path is the `/menu` root page. */
export function categoryPath(category: { url_path: string }): string {
  const segments = category.url_path.split('/').filter((s) => s !== '');
  return segments.length > 0 ? `/${segments.map(encodeURIComponent).join('/')}` : '/menu';
}
