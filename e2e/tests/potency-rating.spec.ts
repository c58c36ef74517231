/**
 * Issue 30 on a phone (390 px): filter flower by a THC range in the filters drawer (every card then
 * shows a THC in the range, and the count is the cards'), sort by THC high to low (the cards' THC in
 * that order, unknown last); edibles offer mg per package instead of %; stars on the cards of rated
 * products; Top rated puts them first by average; "4 stars & up" leaves only products rated 4 or
 * more. Without JavaScript the THC filter works as a plain form. A store with reviews switched off
 * (Harbor, put back after) offers no Top rated and no rating filter, and a link with them opens the
 * list without them. A demo flower's page shows its lab test date, batch and COA link. Axe clean;
 * nothing scrolls sideways.
 */
import type { Locator, Page } from '@playwright/test';
import { productCards } from '../fixtures/catalog.ts';
import { consoleCall, consoleUrl, HARBOR_MANAGER, keepSection, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, PORT, storeUrl, test } from '../fixtures/store.ts';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
});

const resultCount = (page: Page) => page.getByRole('main').getByRole('status').first();
const noSidewaysScroll = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

/** Each card's THC % (null: none shown), in page order. */
async function cardThc(page: Page): Promise<(number | null)[]> {
  return (await productCards(page).allTextContents()).map((t) => {
    const m = /THC (\d+(?:\.\d+)?)%/.exec(t);
    return m ? Number(m[1]) : null;
  });
}

/** Each card's rating as a screen reader hears it (null: unrated), in page order. */
async function cardRatings(page: Page): Promise<({ average: number; count: number } | null)[]> {
  return (await productCards(page).allTextContents()).map((t) => {
    const m = /Rated (\d\.\d) out of 5, (\d+) reviews?/.exec(t);
    return m ? { average: Number(m[1]), count: Number(m[2]) } : null;
  });
}

/** The page is interactive: the filters button replaced the no-JavaScript link (and the sort applies on change). */
async function hydrated(page: Page): Promise<void> {
  await expect(page.getByRole('main').getByRole('button', { name: /^Filters/ })).toBeVisible();
}

async function openFilters(page: Page): Promise<Locator> {
  await page.getByRole('main').getByRole('button', { name: /^Filters/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Filters' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function closeFilters(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Filters' });
  await dialog.getByRole('button', { name: 'Close filters' }).click();
  await expect(dialog).toBeHidden();
}

/** The bounds of a THC range value (`20-25`, `80-`): [from, to), to null when open-ended. */
function bounds(value: string): [number, number | null] {
  const [from, to] = value.split('-');
  return [Number(from), to === '' ? null : Number(to)];
}

test('filter flower by THC, sort by THC, edibles by mg', async ({ page }) => {
  await page.goto(storeUrl('downtown', '/menu/flower'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Flower');
  let dialog = await openFilters(page);
  const thc = dialog.getByRole('group', { name: 'THC', exact: true });
  await expect(thc).toBeVisible();
  // Flower is sold by %: no mg per package here.
  await expect(dialog.getByRole('group', { name: 'THC per package' })).toHaveCount(0);
  const box = thc.getByRole('checkbox').first();
  const value = (await box.getAttribute('value'))!;
  const label = (await box.locator('xpath=ancestor::label').textContent()) ?? '';
  const expected = Number(/(\d+) products?/.exec(label)?.[1]);
  await box.check();
  await expect(page).toHaveURL(new RegExp(`[?&]thc=${value}(&|$)`));
  await expect(dialog.getByRole('group', { name: 'THC', exact: true }).getByRole('checkbox', { checked: true })).toHaveCount(1);
  await closeFilters(page);
  await expect(resultCount(page)).toHaveText(`${expected} ${expected === 1 ? 'product' : 'products'}`);
  await expect(productCards(page)).toHaveCount(expected);
  const [from, to] = bounds(value);
  for (const v of await cardThc(page)) {
    expect(v).not.toBeNull();
    expect(v!).toBeGreaterThanOrEqual(from);
    if (to != null) expect(v!).toBeLessThan(to);
  }
  await expect(page.getByRole('list', { name: 'Active filters' }).getByRole('link')).toHaveCount(1);
  await noSidewaysScroll(page);

  // Sort by THC, high to low, over the whole of Flower.
  await page.goto(storeUrl('downtown', '/menu/flower'));
  await hydrated(page);
  await page.getByLabel('Sort by').selectOption({ label: 'THC: High to low' });
  await expect(page).toHaveURL(/sort=thc_desc/);
  await expect
    .poll(async () => {
      const shown = await cardThc(page);
      const known = shown.filter((v): v is number => v != null);
      const unknownLast = shown.indexOf(null) < 0 || shown.slice(shown.indexOf(null)).every((v) => v == null);
      return known.length > 1 && unknownLast && known.join() === [...known].sort((a, b) => b - a).join();
    }, { message: 'the cards are in THC order, high to low, unknown last' })
    .toBe(true);
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page);

  // Edibles: mg per package, no %.
  await page.goto(storeUrl('downtown', '/menu/edibles'));
  dialog = await openFilters(page);
  await expect(dialog.getByRole('group', { name: 'THC per package' }).getByRole('checkbox', { name: /^10–100 mg/ })).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'THC', exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await closeFilters(page);
});

test('stars on cards, Top rated, 4 stars & up', async ({ page }) => {
  await page.goto(storeUrl('downtown', '/menu'));
  await hydrated(page);
  await page.getByLabel('Sort by').selectOption({ label: 'Top rated' });
  await expect(page).toHaveURL(/sort=top_rated/);
  // The demo's reviewed product (other journeys may add rated ones): rated cards first, best first.
  await expect.poll(async () => (await cardRatings(page))[0], { message: 'a rated product leads Top rated' }).not.toBeNull();
  const ratings = await cardRatings(page);
  const rated = ratings.filter((r): r is { average: number; count: number } => r != null);
  const firstUnrated = ratings.indexOf(null);
  expect(firstUnrated).toBe(rated.length);
  for (let i = 1; i < rated.length; i++) {
    const [a, b] = [rated[i - 1], rated[i]];
    expect(a.average > b.average || (a.average === b.average && a.count >= b.count), `${JSON.stringify(a)} before ${JSON.stringify(b)}`).toBe(true);
  }
  // The stars and numbers a sighted shopper sees.
  const first = productCards(page).first();
  await expect(first.getByText(`${rated[0].average.toFixed(1)} (${rated[0].count})`)).toBeVisible();
  await expect(first.getByText('★').first()).toBeVisible();

  const dialog = await openFilters(page);
  await dialog.getByRole('group', { name: 'Customer rating' }).getByRole('checkbox', { name: /^4 stars & up/ }).check();
  await expect(page).toHaveURL(/[?&]rating=4(&|$)/);
  await closeFilters(page);
  await expect(productCards(page).first()).toBeVisible();
  const four = await cardRatings(page);
  expect(four.length).toBe(rated.filter((r) => r.average >= 4).length);
  expect(four.every((r) => r != null && r.average >= 4)).toBe(true);
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page);
});

test('the THC filter works without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
  await passGateByCookie(context, 'downtown', 'recreational');
  const page = await context.newPage();
  await page.goto(storeUrl('downtown', '/menu/flower'));
  await page.getByRole('main').getByRole('link', { name: /^Filters/ }).click();
  const panel = page.getByRole('complementary', { name: 'Product filters' });
  await expect(panel).toBeVisible();
  const box = panel.getByRole('group', { name: 'THC', exact: true }).getByRole('checkbox').last();
  const value = (await box.getAttribute('value'))!;
  await box.check();
  await panel.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`/menu/flower\\?thc=${value}$`));
  const [from, to] = bounds(value);
  const shown = await cardThc(page);
  expect(shown.length).toBeGreaterThan(0);
  for (const v of shown) {
    expect(v!).toBeGreaterThanOrEqual(from);
    if (to != null) expect(v!).toBeLessThan(to);
  }
  await expect(page.locator(`input[type="checkbox"][name="thc"][value="${value}"]`)).toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

test('a demo flower shows its lab test date, batch and certificate of analysis', async ({ page, request }) => {
  await page.goto(storeUrl('downtown', '/p/FL-BLUE-DREAM/blue-dream'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blue Dream');
  const lab = page.getByTestId('lab-facts');
  await expect(lab.getByText('Lab tested')).toBeVisible();
  await expect(lab.getByText('Batch')).toBeVisible();
  await expect(lab.getByText(/^B-\d{4}-\d{2}$/)).toBeVisible();
  const coa = lab.getByRole('link', { name: /Certificate of analysis \(COA\)/ });
  await expect(coa).toHaveAttribute('href', '/demo/coa-sample.html');
  const sample = await request.get(`http://127.0.0.1:${PORT}/demo/coa-sample.html`, { headers: { host: `downtown.localhost:${PORT}` } });
  expect(sample.status()).toBe(200);
  expect(await sample.text()).toContain('Certificate of analysis');
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page);
});

test('with reviews switched off: no Top rated, no rating filter, a link with them falls back', async ({ page, browser }) => {
  const HARBOR = 4;
  await staffLogin(page, HARBOR_MANAGER);
  await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
  const putBack = await keepSection(page, HARBOR, 'reviews');
  try {
    const now = await consoleCall<{ version: number }>(page, 'GET', '/settings/sections/reviews', undefined, HARBOR);
    const off = await consoleCall(page, 'PUT', '/settings/sections/reviews', { value: { enabled: false }, version: now.result.version }, HARBOR);
    expect(off.status, JSON.stringify(off.result)).toBe(200);

    const shopper = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
    await passGateByCookie(shopper, 'harbor', 'recreational');
    const phone = await shopper.newPage();
    const response = await phone.goto(storeUrl('harbor', '/menu?rating=4&sort=top_rated'));
    expect(response?.status()).toBe(200);
    await expect(phone).toHaveURL(storeUrl('harbor', '/menu'));
    await hydrated(phone);
    await expect(phone.getByLabel('Sort by').locator('option', { hasText: 'THC: High to low' })).toHaveCount(1);
    await expect(phone.getByLabel('Sort by').locator('option', { hasText: 'Top rated' })).toHaveCount(0);
    const dialog = await openFilters(phone);
    await expect(dialog.getByRole('group').first()).toBeVisible();
    await expect(dialog.getByRole('group', { name: 'Customer rating' })).toHaveCount(0);
    await closeFilters(phone);
    expect(await phone.content()).not.toMatch(/out of 5|"rating":\{/);
    await shopper.close();
  } finally {
    await putBack();
  }
});
