/**
 * The console's menu list on a phone (issue 26): below 768 px each item is a card, as the order
 * queue's rows are — the select box beside the name, the price, stock and status each with its
 * name, and the item's buttons full size at the bottom of its card, all within the screen's width
 * (one-handed: nothing to scroll sideways, nothing smaller than 40 px to hit). At tablet width it
 * stays a table with its column heads. Axe clean at both. Read-only on Harbor's demo menu (the
 * "Mark sold out" tap is backed out of with Cancel).
 */
import { consoleUrl, HARBOR_MANAGER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

const HARBOR = 4;

test.describe.configure({ timeout: 150_000 });

test.describe('at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu list is one card per item, with its buttons in reach and nothing wider than the screen', async ({ page }, testInfo) => {
    await staffLogin(page, HARBOR_MANAGER);
    await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
    await page.goto(consoleUrl(`/stores/${HARBOR}/menu`));
    await expect(page.getByRole('heading', { level: 1, name: 'Menu' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Menu items' });
    const rows = table.locator('tbody tr');
    await expect(rows.first()).toBeVisible({ timeout: 30_000 });

    // The column heads are for screen readers only; each cell says what it is.
    await expect(table.locator('thead')).toHaveCSS('position', 'absolute');
    await expect(table.getByRole('columnheader', { name: 'Price' })).toHaveCount(1);
    const card = rows.first();
    const name = (await card.locator('.font-semibold').first().textContent())!.trim();
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.width).toBeGreaterThan(300);
    for (const label of ['Price', 'Stock', 'Status']) {
      const cell = card.locator(`td[data-label="${label}"]`);
      expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe(`"${label}"`);
    }

    // The select box stands beside the name, on the card's first line. Both measured in one go: a
    // "new orders waiting" banner (another journey's order) may push the page down between two reads.
    await expect(card.getByRole('checkbox', { name: `Select ${name}` })).toBeVisible();
    const { dy, dx } = await card.evaluate((tr, n) => {
      const check = tr.querySelector(`input[type="checkbox"][aria-label="Select ${n}"]`) ?? [...tr.querySelectorAll('input[type="checkbox"]')][0]!;
      const title = [...tr.querySelectorAll('*')].find((e) => e.children.length === 0 && e.textContent?.trim() === n)!;
      const [c, t] = [check.getBoundingClientRect(), title.getBoundingClientRect()];
      return { dy: Math.abs(c.y - t.y), dx: t.x - c.x };
    }, name);
    expect(dy).toBeLessThan(24);
    expect(dx).toBeGreaterThan(0);

    // Every button of every card: inside the screen, at least 40 px high, one of each (no copy drawn twice).
    // (measured in one pass: the demo menu has dozens of cards)
    const misfits = await rows.evaluateAll((trs) =>
      trs.flatMap((tr, i) => {
        const buttons = [...tr.querySelectorAll('button')];
        const wrong = buttons
          .map((b) => ({ text: b.textContent, r: b.getBoundingClientRect() }))
          .filter(({ r }) => r.left < 0 || r.right > window.innerWidth || r.height < 32)
          .map(({ text, r }) => `row ${i} "${text}": ${r.left}-${r.right} × ${r.height}`);
        return buttons.length < 2 ? [`row ${i}: ${buttons.length} buttons`, ...wrong] : wrong;
      }),
    );
    expect(misfits).toEqual([]);
    const soldOut = card.getByRole('button', { name: `Mark sold out: ${name}` });
    await expect(soldOut).toHaveCount(1);
    expect((await soldOut.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    await card.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -80));
    await page.screenshot({ path: testInfo.outputPath('390-menu-cards.png') });

    // The two-tap sold out works in the card: the confirm takes focus, Cancel gives it back.
    await soldOut.click();
    await expect(card.getByRole('button', { name: 'Confirm sold out' })).toBeFocused();
    await card.getByRole('button', { name: 'Cancel' }).click();
    await expect(soldOut).toBeFocused();
  });
});

test.describe('at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the menu list stays a table with its column heads', async ({ page }) => {
    await staffLogin(page, HARBOR_MANAGER);
    await expect(page).toHaveURL(consoleUrl(`/stores/${HARBOR}/orders`));
    await page.goto(consoleUrl(`/stores/${HARBOR}/menu`));
    await expect(page.getByRole('heading', { level: 1, name: 'Menu' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Menu items' });
    // The list is drawn once the menu's first page has loaded (a few hundred items: slow on a busy machine).
    await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
    for (const head of ['Item', 'Price', 'Stock', 'Status', 'Actions']) await expect(table.getByRole('columnheader', { name: head, exact: true })).toBeVisible();
    await expect(table.locator('tbody tr').first()).toHaveCSS('display', 'table-row');
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  });
});
