/**
 * Each deal's share of an order line as the order keeps it (order_items.deal_discounts, written by
 * orders/place.ts): read back for the receipt, the console, the daily report, the integration API
 * and the webhooks, so they all show the same numbers. A line without deals reads as [].
 */
export interface OrderLineDeal {
  /** The deal's id in its store (the record's `id`). */
  id: string;
  /** The manager's title. */
  title: string;
  /** The words the shopper was shown under the store's display rules; null: the price only. */
  words: string | null;
  discount_cents: number;
}

export function orderLineDeals(json: string | null | undefined): OrderLineDeal[] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((d: Record<string, unknown>) =>
      typeof d?.code === 'string' && Number.isInteger(d.discount_cents)
        ? [{ id: d.code, title: typeof d.title === 'string' ? d.title : d.code, words: typeof d.words === 'string' ? d.words : null, discount_cents: d.discount_cents as number }]
        : [],
    );
  } catch {
    return [];
  }
}
