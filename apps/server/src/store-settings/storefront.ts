/**
 * Store settings the storefront's pages show (issue 14), beside the hours (../hours/storefront.ts):
 * the delivery zones as the shopper is told them (no shapes: domain publicDelivery) and the
 * medical minimum age the sign-up and checkout forms check before the server does. They come with
 * the root data, so no page needs a request of its own, and a save of a section the pages show
 * drops the store's cached pages at once on this node (other nodes: within the output cache's
 * minute and the settings' 1 s cache).
 */
import { REVIEWS_SECTION } from '../reviews/section.ts';
import type { FastifyInstance } from 'fastify';
import { cannabisTaxShare, imageKeptText, isSpecPerOrderModel, normaliseLimitModel, publicDelivery, taxShareNote, type DealDisplaySettings, type PublicDelivery } from '@verdant/domain';
import { LIMITS } from '../limits/section.ts';
import { AGE_SECTION } from '../age/section.ts';
import { HOURS } from '../hours/section.ts';
import { ZONES_SECTION } from '../shipping/zones.ts';
import { DEAL_DISPLAY_SECTION } from '../deals/display-section.ts';
import { DEAL_FLOOR_SECTION } from '../deals/floor-section.ts';
import { TAX_SECTION } from '../tax/section.ts';
import type { StoreSettings } from './service.ts';
import { DATA_RETENTION_SECTION } from '../privacy/section.ts';

export interface StorefrontOptions {
  delivery: PublicDelivery;
  /** The youngest a medical customer may be (setting `age`, 18–21). */
  medicalMinimumAge: number;
  /**
   * Whether the store's purchase limit is the spec's per-order limit (issue 26): only then does the
   * browser's instant check (and its "single order" message) apply; otherwise the server's buckets
   * (a per-day preset, say) are the only judge.
   */
  perOrderLimit: boolean;
  /** Issue 28: the setting `deal-display` (which preset the pages follow; deals/display-section.ts). */
  dealDisplay: DealDisplaySettings;
  /** Issue 30: "Prices exclude about 25 % in taxes, …" from the store's tax lines (domain cannabisTaxShare); null: none apply. */
  taxNote: string | null;
  /** Issue 30: the setting `reviews` (stars on cards, Top rated and the rating filter only when shown). */
  reviews: boolean;
  /** Issue 31: what the account page says happens to an uploaded ID or medical card image (setting `data-retention`). */
  documentImagesNote: { id: string; medcard: string };
  /** Issue 31: years the store keeps its sales records (setting `data-retention`), said on the account deletion dialog. */
  salesRecordYears: number;
}

export async function storefrontOptions(settings: StoreSettings, storeId: number): Promise<StorefrontOptions> {
  const [zones, age, limits, dealDisplay, tax, reviews, retention] = await Promise.all([
    settings.get(storeId, ZONES_SECTION),
    settings.get(storeId, AGE_SECTION),
    settings.get(storeId, LIMITS),
    settings.get(storeId, DEAL_DISPLAY_SECTION),
    settings.get(storeId, TAX_SECTION),
    settings.get(storeId, REVIEWS_SECTION),
    settings.get(storeId, DATA_RETENTION_SECTION),
  ]);
  const share = cannabisTaxShare(tax.value.lines);
  return {
    delivery: publicDelivery(zones.value.zones),
    medicalMinimumAge: age.value.medicalMinimumAge,
    perOrderLimit: isSpecPerOrderModel(normaliseLimitModel(limits.value.model)),
    dealDisplay: dealDisplay.value,
    taxNote: share ? taxShareNote(share) : null,
    reviews: reviews.value.enabled,
    documentImagesNote: { id: imageKeptText(retention.value, 'id'), medcard: imageKeptText(retention.value, 'medcard') },
    salesRecordYears: retention.value.salesRecordYears,
  };
}

/** The sections whose values the storefront's pages render. */
export const PAGE_SECTIONS: readonly string[] = [HOURS.name, ZONES_SECTION.name, AGE_SECTION.name, LIMITS.name, DEAL_DISPLAY_SECTION.name, DEAL_FLOOR_SECTION.name, TAX_SECTION.name, REVIEWS_SECTION.name, DATA_RETENTION_SECTION.name];

/**
 * After a save of a section the pages show (console or any other writer: StoreSettings.onSaved),
 * this node drops the store's cached pages; other nodes within the output cache's minute.
 */
export function invalidatePagesOnSettingsSave(app: FastifyInstance, sections: readonly string[] = PAGE_SECTIONS): void {
  app.storeSettings.onSaved((storeId, section) => {
    if (sections.includes(section)) app.invalidateStore(storeId);
  });
}
