/**
 * The top-level price fields of configurable and kit documents, which have no price rows of their
 * own. A listing's price is judged at request time by the domain rule (productPrice, toProductCard),
 * from the children and members the document embeds; these summary fields are what the raw
 * document says (VSF: "a configurable parent takes its cheapest child's price"), so API clients
 * and the offline copy read a sensible price without re-implementing spec §4.
 */
import {
  availableChildren,
  isMemberAvailable,
  isSpecialPriceActive,
  productPrice,
  unitPrice,
  type CatalogProduct,
  type ConfigurableChild,
  type LinkedProduct,
  type PriceFields,
} from '@verdant/domain';

type SummaryFields = Omit<PriceFields, 'tier_prices'>;

const NONE: SummaryFields = { price: 0, special_price: null, special_from_date: null, special_to_date: null };

function cheapestChild(children: readonly ConfigurableChild[], now: Date): ConfigurableChild | null {
  let best: ConfigurableChild | null = null;
  let bestFinal = Infinity;
  for (const child of children) {
    const { final_price } = unitPrice(child, now);
    if (final_price < bestFinal || (final_price === bestFinal && best && child.price < best.price)) {
      best = child;
      bestFinal = final_price;
    }
  }
  return best;
}

/**
 * A configurable takes its cheapest available child's fields (window included, so the special
 * ends on time); a kit takes its price sums (productPrice), with a special only while every member
 * special it counted is active (the tightest of their windows).
 */
export function summaryPriceFields(product: CatalogProduct, now: Date): SummaryFields {
  if (product.type_id === 'configurable') {
    const best = cheapestChild(availableChildren(product), now) ?? cheapestChild(product.configurable_children, now);
    if (!best) return NONE;
    const { price, special_price, special_from_date, special_to_date } = best;
    return { price, special_price, special_from_date, special_to_date };
  }
  const priced = productPrice(product, now);
  if (priced.final_price >= priced.price) return { ...NONE, price: priced.price };
  const members = [...product.product_links, ...product.bundle_options.flatMap((o) => o.product_links)]
    .map((l) => l.product)
    .filter((m): m is LinkedProduct => m != null && isMemberAvailable(m) && isSpecialPriceActive(m, now));
  const froms = members.map((m) => m.special_from_date).filter((d): d is string => d != null);
  const tos = members.map((m) => m.special_to_date).filter((d): d is string => d != null);
  return {
    price: priced.price,
    special_price: priced.final_price,
    special_from_date: froms.length > 0 ? froms.sort().at(-1)! : null,
    special_to_date: tos.length > 0 ? tos.sort()[0] : null,
  };
}
