/**
 * The store's hours for the storefront's pages (issue 14 "open now / opens at everywhere the store's
 * hours are shown"): the SSR context's `storeHours` (root data, store locator). A manager's save
 * drops the store's cached pages (../store-settings/storefront.ts invalidatePagesOnSettingsSave),
 * so a holiday added in the console shows at once on this node rather than after the cached pages'
 * minute (another node: within that minute, and its own 1 s settings cache).
 */
import type { HoursSettings } from '@verdant/domain';
import type { StoreSettings } from '../store-settings/service.ts';
import { HOURS } from './section.ts';

/**
 * A store's hours settings as the pages get them: every exception still to come, none already over
 * (a store may keep a year of them; the page carries only what it can show). The cut is two days
 * before now in UTC, so the store's yesterday and today are kept whatever its zone.
 */
export async function storefrontHours(settings: StoreSettings, storeId: number, now: Date): Promise<HoursSettings> {
  const hours = (await settings.get(storeId, HOURS)).value;
  const from = new Date(now.getTime() - 2 * 86_400_000).toISOString().slice(0, 10);
  return { ...hours, exceptions: hours.exceptions.filter((e) => e.date >= from) };
}
