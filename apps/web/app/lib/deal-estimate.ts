/**
 * Issue 28: an offline cart's deals. While the store cannot answer (the cart's sync is not idle),
 * the catalogue worker runs the deals engine on the snapshot's deals for the cart's lines
 * (AppContext.services.cartDeals, apps/server/src/deals/page-deals.ts estimateCartDeals), so the
 * estimate the shopper sees takes off what the server will, and taxes the lines by the store's named
 * tax lines the snapshot carries (as the server does); when the server answers, its totals replace
 * the estimate. Nothing is asked online, nor without a snapshot.
 */
import { useEffect, useState } from 'react';
import { cartItemsHash, type LicenseType } from '@verdant/domain';
import type { CartItem } from '../state/cart-items.ts';
import { lineKey } from '../state/cart-items.ts';
import { offlineContext } from './offline-catalog.ts';
import type { CartDealsEstimate } from './context.ts';

export type DealEstimate = { hash: string } & CartDealsEstimate;

export function useDealEstimate(opts: { items: readonly CartItem[]; token: string | null; storeCode: string; basePath: string; licenseType: LicenseType; wanted: boolean }): DealEstimate | null {
  const { items, token, storeCode, basePath, licenseType, wanted } = opts;
  const [estimate, setEstimate] = useState<DealEstimate | null>(null);
  const hash = cartItemsHash(items, token);
  useEffect(() => {
    if (!wanted || items.length === 0) return;
    let live = true;
    void (async () => {
      const context = await offlineContext(storeCode, basePath).catch(() => null);
      if (!context || !live) return;
      const lines = items.filter((i) => i.qty > 0 && Number.isInteger(i.price)).map((i) => ({ key: lineKey(i), sku: i.sku, qty: i.qty, unitPrice: i.price }));
      const answer = await context.services.cartDeals(context.store, licenseType, lines).catch(() => null);
      if (answer && live) setEstimate({ hash, ...answer });
    })();
    return () => {
      live = false;
    };
    // The hash stands for the lines.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hash, wanted, storeCode, basePath, licenseType]);
  return wanted ? estimate : null;
}
