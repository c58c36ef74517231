/**
 * Issue 30, both databases: the menu's note "Prices exclude about N % in taxes" comes from the
 * store's saved tax lines (store-settings/storefront.ts → the root data), not a fixed figure: the
 * demo default, then a manager's new sales rate, reach the page's words.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { californiaTaxLines } from '@verdant/domain';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { commerceApp } from '../../test-support/cart/testing.ts';
import { TAX_SECTION } from '../tax/section.ts';
import { storefrontOptions } from './storefront.ts';

describeEachDatabase('the tax note of the menu', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await commerceApp(getDb());
  });
  afterAll(async () => app?.close());

  it('follows the store’s tax lines', async () => {
    const before = await storefrontOptions(app.storeSettings, 1);
    const current = await app.storeSettings.get(1, TAX_SECTION);
    // Downtown's default: 15 % excise, then its city's sales tax on price + excise.
    const sales = current.value.lines.find((l) => l.kind === 'sales')!.rate;
    expect(before.taxNote).toBe(`Prices exclude about ${Math.round(15 + sales * 1.15)} % in taxes, added in the cart.`);

    const higher = californiaTaxLines({ city: 'Oakland', salesPercent: 10.25 });
    await app.storeSettings.save(1, TAX_SECTION, higher, current.version, { type: 'cli', name: 'tax-note test' });
    // The settings' 1 s cache: read past it, as a page does within the second.
    await expect.poll(async () => (await storefrontOptions(app.storeSettings, 1)).taxNote, { timeout: 3000 }).toBe('Prices exclude about 27 % in taxes, added in the cart.');
  });
});
