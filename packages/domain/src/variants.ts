/**
 * Variant choice of spec §4: which configurable children may be offered, which child a choice
 * of attribute values resolves to, and the product errors a page shows when nothing is available.
 */
import { CATALOG_MESSAGES } from './catalog-messages.ts';
import type { CatalogProduct, ConfigurableChild } from './product.ts';
import { PREFERRED_SIZE_ID } from './sizes.ts';
import { isChildAvailable } from './stock.ts';
import { unitPrice } from './unit-price.ts';

/** attribute_code → value_index, e.g. `{ size: 93 }`. */
export type SelectedAttributes = Partial<Record<string, number>>;

export interface AvailabilityOptions {
  /** List children that are out of stock (the store's out-of-stock listing setting). */
  allowOutOfStock?: boolean;
}

export interface ChooseVariantOptions extends AvailabilityOptions {
  /** When nothing matches, use the default child (the first available) instead of warning. */
  fallbackToDefault?: boolean;
  /** The time special-price windows are judged at, for the price tie-break (default: now). */
  now?: Date;
  /** Customer group whose tier prices count in the price tie-break (default 0). */
  customerGroupId?: number;
}

export interface VariantChoice {
  child: ConfigurableChild | null;
  /** CATALOG_MESSAGES.noSuchConfiguration when nothing matched and no fallback was allowed. */
  warning: string | null;
}

export interface ProductErrors {
  variants?: string;
}

type ConfigurableParts = Pick<CatalogProduct, 'configurable_children' | 'configurable_options'>;

/** Children that may be offered, in catalogue order: enabled and (unless allowed) in stock. */
export function availableChildren(
  product: Pick<CatalogProduct, 'configurable_children'>,
  { allowOutOfStock = false }: AvailabilityOptions = {},
): ConfigurableChild[] {
  return (product.configurable_children ?? []).filter((c) => isChildAvailable(c, allowOutOfStock));
}

/**
 * The attribute codes a product is configured by: its configurable_options, or `size` when a
 * document carries none (weighed flower is configured by size alone).
 */
function configurableCodes(product: Pick<CatalogProduct, 'configurable_options'>): string[] {
  const codes = (product.configurable_options ?? []).map((o) => o.attribute_code);
  return codes.length > 0 ? codes : ['size'];
}

/**
 * A child's value for an attribute. Children carry their configurable attributes as top-level
 * fields (`size: 92`), as in the catalogue documents; numeric strings are accepted.
 */
function attributeValue(child: ConfigurableChild, code: string): number | null {
  const raw = (child as unknown as Record<string, unknown>)[code];
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The attribute values of a child, keyed by the product's configurable attribute codes. */
export function selectedOptionsFor(
  child: ConfigurableChild,
  product: Pick<CatalogProduct, 'configurable_options'>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const code of configurableCodes(product)) {
    const value = attributeValue(child, code);
    if (value != null) out[code] = value;
  }
  return out;
}

/**
 * The child for a choice of attribute values (spec §4). The child agreeing with the most chosen
 * attributes wins; ties go to the lower final price (special only inside its window, tier price
 * of the group), then to size 92, then to catalogue order (so the result is deterministic).
 * Chosen codes the product is not configured by are ignored. An empty choice matches every
 * available child, so a product page without a choice shows the cheapest one.
 * A child agreeing with none of the chosen attributes does not match: then the default child
 * (the first available) when `fallbackToDefault`, otherwise no child and the spec's warning.
 */
export function chooseVariant(
  product: ConfigurableParts,
  selected: SelectedAttributes,
  { allowOutOfStock = false, fallbackToDefault = false, now = new Date(), customerGroupId = 0 }: ChooseVariantOptions = {},
): VariantChoice {
  const available = availableChildren(product, { allowOutOfStock });
  const codes = new Set(configurableCodes(product));
  const chosen = Object.entries(selected).filter(
    (e): e is [string, number] => codes.has(e[0]) && typeof e[1] === 'number' && Number.isFinite(e[1]),
  );

  let best: { child: ConfigurableChild; score: number; final: number; preferred: boolean } | null = null;
  for (const child of available) {
    const score = chosen.reduce((n, [code, value]) => n + (attributeValue(child, code) === value ? 1 : 0), 0);
    if (chosen.length > 0 && score === 0) continue;
    const candidate = {
      child,
      score,
      final: unitPrice(child, now, customerGroupId).final_price,
      preferred: child.size === PREFERRED_SIZE_ID,
    };
    // Strictly better only, so the earlier child keeps a full tie.
    if (
      !best ||
      candidate.score > best.score ||
      (candidate.score === best.score &&
        (candidate.final < best.final || (candidate.final === best.final && candidate.preferred && !best.preferred)))
    ) {
      best = candidate;
    }
  }
  if (best) return { child: best.child, warning: null };
  if (fallbackToDefault && available.length > 0) return { child: available[0], warning: null };
  return { child: null, warning: CATALOG_MESSAGES.noSuchConfiguration };
}

/**
 * Product errors of spec §4/§8: `variants` when the product's stock says not in stock, or a
 * configurable has no child that may be offered. Empty when the product can be bought.
 */
export function productErrors(
  product: Pick<CatalogProduct, 'type_id' | 'stock' | 'configurable_children'>,
  { allowOutOfStock = false }: AvailabilityOptions = {},
): ProductErrors {
  const noChild = product.type_id === 'configurable' && availableChildren(product, { allowOutOfStock }).length === 0;
  return !product.stock.is_in_stock || noChild ? { variants: CATALOG_MESSAGES.noAvailableVariants } : {};
}
