/**
 * Issue 29 curbside pickup, in a real browser: the downtown store offers curbside for this journey
 * (its section put back after); an order made ready sends the SMS with the signed "I'm here" link;
 * the shopper opens it on a phone (390 px: nothing overflows, axe clean), gives the car and the bay;
 * the console's queue at tablet size shows the arrival live with the car, bay and wait, chimes and
 * announces it (axe clean); the shopper changes car and bay from the page without JavaScript (a plain
 * form POST) and the queue chimes and announces the change; staff complete with the usual ID check,
 * and the link then says so.
 */
import { ageOn } from '@verdant/domain';
import { createCustomer, newCustomer, placeOrderAs } from '../fixtures/account.ts';
import { consoleUrl, dbAll, expectQueue, fillReadyBy, keepSection, OWNER, queueRow, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.describe.configure({ timeout: 180_000 });

const CURBSIDE = { offered: true, bays: ['1', '2', '3'], instructions: 'Park in a numbered bay by the side door. Stay in your car.' };

test.describe('at tablet size (1024×768)', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test('the shopper says "I\'m here" from the ready SMS; the queue shows the arrival live with a chime; staff complete with the ID check', async ({
    page,
    browser,
    request,
    extraHTTPHeaders,
  }) => {
    // Count the chime's tones (Web Audio oscillators) in the staff page.
    await page.addInitScript(() => {
      const w = window as unknown as { __tones: number };
      w.__tones = 0;
      const create = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        w.__tones += 1;
        return create.call(this);
      };
    });
    await staffLogin(page, OWNER);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
    await page.goto(consoleUrl('/stores/1/orders'));
    await expectQueue(page);
    const restore = await keepSection(page, 1, 'curbside');
    try {
      // The manager turns curbside on in the console's settings page.
      await page.goto(consoleUrl('/stores/1/settings-curbside'));
      await expect(page.getByRole('heading', { level: 1, name: 'Curbside pickup' })).toBeVisible();
      await page.getByLabel('Offer curbside pickup').check();
      await page.getByLabel('Bays').fill('1, 2, 2');
      await page.getByLabel('Instructions for the shopper').fill(CURBSIDE.instructions);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('List each bay once, separated by commas', { exact: false }).first()).toBeVisible();
      await page.getByLabel('Bays').fill(CURBSIDE.bays.join(', '));
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Curbside pickup saved.')).toBeVisible();
      await expectNoAxeViolations(page);
      await page.goto(consoleUrl('/stores/1/orders'));
      await expectQueue(page);
      const customer = newCustomer({ firstname: 'Cass', lastname: 'Curbside' });
      const { token } = await createCustomer(request, customer);
      const incrementId = await placeOrderAs(request, token, customer);

      // Confirm and mark ready in the console, as staff do.
      const row = queueRow(page, incrementId);
      await expect(row).toBeVisible({ timeout: 5000 });
      await row.getByRole('link', { name: `#${incrementId}` }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Order #${incrementId}` })).toBeVisible();
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm the order' });
      await fillReadyBy(confirm, new Date(Date.now() + 30 * 60_000));
      await confirm.getByRole('button', { name: 'Confirm the order' }).click();
      await expect(confirm).toBeHidden();
      await page.getByRole('button', { name: 'Mark ready for pickup' }).click();
      await expect(page.getByRole('article').locator('header')).toContainText('Ready for pickup');

      // The ready SMS carries the signed link (the demo stores' URL says port 3000: the journey opens its path here).
      const orderId = dbAll<{ id: number }>('select id from orders where increment_id = ?', incrementId)[0].id;
      let body = '';
      await expect
        .poll(() => {
          body = dbAll<{ body: string }>("select body from message_deliveries where order_id = ? and template = 'order_ready_for_pickup' and channel = 'sms'", orderId)[0]?.body ?? '';
          return body;
        }, { timeout: 10_000 })
        .toMatch(/Curbside: tap when you are here http:\/\/downtown\.localhost:\d+\/curbside\/\d+\.\d+\.[\w-]{43}$/);
      const linkPath = new URL(body.slice(body.indexOf('http'))).pathname;

      // Back to the queue, live.
      await page.goto(consoleUrl('/stores/1/orders'));
      await expectQueue(page);
      await expect(queueRow(page, incrementId)).toContainText('Ready for pickup');
      await expect(queueRow(page, incrementId).getByTestId('curbside-arrival')).toHaveCount(0);

      // The shopper, on a phone.
      const phoneContext = await browser.newContext({ extraHTTPHeaders, serviceWorkers: 'block', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await passGateByCookie(phoneContext, 'downtown', 'recreational');
      const phone = await phoneContext.newPage();
      await phone.goto(storeUrl('downtown', linkPath));
      await expect(phone.getByRole('heading', { level: 1, name: `Order #${incrementId}: I'm here` })).toBeVisible();
      await expect(phone.getByText(CURBSIDE.instructions)).toBeVisible();
      await expectNoAxeViolations(phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // Nothing typed: the page says what is missing.
      await phone.getByRole('button', { name: "I'm here" }).click();
      await expect(phone.getByRole('alert')).toHaveText('Please describe your car or choose your bay.');
      await phone.getByLabel('Your car').fill('Silver Subaru Outback');
      await phone.getByLabel('Bay').selectOption({ label: 'Bay 2' });
      const tonesBefore = await page.evaluate(() => (window as unknown as { __tones: number }).__tones);
      await phone.getByRole('button', { name: "I'm here" }).click();
      await expect(phone.getByRole('heading', { name: 'Thank you, we know you are here.' })).toBeFocused();
      await expect(phone.getByTestId('curbside-here')).toContainText('bay 2: Silver Subaru Outback');
      await expectNoAxeViolations(phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.screenshot({ path: test.info().outputPath('curbside-phone.png'), fullPage: true });

      // The console: at once, with the car, the bay and the wait, announced and chimed.
      await page.bringToFront();
      const arrival = queueRow(page, incrementId).getByTestId('curbside-arrival');
      await expect(arrival).toBeVisible({ timeout: 2000 });
      await expect(arrival).toContainText('Bay 2 · Silver Subaru Outback');
      await expect(arrival).toContainText('Waiting under 1 min');
      // Each announcement is its own line of the live region (a new order arriving meanwhile adds its own).
      await expect(page.getByTestId('live-announcer').getByText(`Curbside: order #${incrementId} is here (bay 2, Silver Subaru Outback).`, { exact: true })).toBeAttached();
      expect(await page.evaluate(() => (window as unknown as { __tones: number }).__tones)).toBeGreaterThanOrEqual(tonesBefore + 2);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: test.info().outputPath('curbside-queue.png') });

      // Without JavaScript (a plain form POST the server answers with the same page), the shopper
      // moved to bay 1 in another car: the queue chimes and announces the change, not only the first arrival.
      const plainContext = await browser.newContext({ extraHTTPHeaders, javaScriptEnabled: false, serviceWorkers: 'block', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await passGateByCookie(plainContext, 'downtown', 'recreational');
      const plain = await plainContext.newPage();
      await plain.goto(storeUrl('downtown', linkPath));
      await expect(plain.getByRole('heading', { level: 1, name: `Order #${incrementId}: I'm here` })).toBeVisible();
      await expect(plain.getByTestId('curbside-here')).toContainText('bay 2: Silver Subaru Outback');
      await expect(plain.getByLabel('Your car')).toHaveValue('Silver Subaru Outback');
      // Emptied: the server's answer says what is missing, on the same page.
      await plain.getByLabel('Your car').fill('');
      await plain.getByLabel('Bay').selectOption({ label: 'Not in a bay' });
      await plain.getByRole('button', { name: "I'm here" }).click();
      await expect(plain.getByRole('alert')).toHaveText('Please describe your car or choose your bay.');
      await expect(plain.getByRole('heading', { level: 1, name: `Order #${incrementId}: I'm here` })).toBeVisible();
      const tonesBeforeChange = await page.evaluate(() => (window as unknown as { __tones: number }).__tones);
      await plain.getByLabel('Your car').fill('Green Jeep Wrangler');
      await plain.getByLabel('Bay').selectOption({ label: 'Bay 1' });
      await plain.getByRole('button', { name: "I'm here" }).click();
      await expect(plain.getByRole('heading', { name: 'Thank you, we know you are here.' })).toBeVisible();
      await expect(plain.getByTestId('curbside-here')).toContainText('bay 1: Green Jeep Wrangler');
      await expect(plain.getByRole('alert')).toHaveCount(0);
      await plain.screenshot({ path: test.info().outputPath('curbside-phone-no-js.png'), fullPage: true });
      await plainContext.close();
      await page.bringToFront();
      await expect(page.getByTestId('live-announcer').getByText(`Curbside: order #${incrementId} changed to bay 1, Green Jeep Wrangler.`, { exact: true })).toBeAttached();
      await expect(arrival).toContainText('Bay 1 · Green Jeep Wrangler');
      // One more chime: two more tones.
      expect(await page.evaluate(() => (window as unknown as { __tones: number }).__tones)).toBeGreaterThanOrEqual(tonesBeforeChange + 2);
      await expectNoAxeViolations(page);

      // Hand over: the order page shows the arrival; Complete asks for the usual ID check.
      await queueRow(page, incrementId).getByRole('link', { name: `#${incrementId}` }).click();
      await expect(page.getByTestId('curbside-arrival')).toContainText('Green Jeep Wrangler');
      await page.getByRole('button', { name: 'Complete', exact: true }).click();
      const complete = page.getByRole('dialog', { name: 'Complete the order' });
      await complete.getByLabel(`I checked the customer’s ID (age ${ageOn(customer.birthday, new Date())} today)`).check();
      await complete.getByRole('button', { name: 'Complete the order' }).click();
      await expect(complete).toBeHidden();
      await expect(page.getByRole('article').locator('header')).toContainText('Completed');
      await expect(page.getByRole('list', { name: 'Order history' }).getByRole('listitem').filter({ hasText: 'Ready for pickup → Completed' })).toContainText('ID checked');

      // The link now says the order was picked up.
      await phone.reload();
      await expect(phone.getByRole('alert')).toHaveText('This order was already picked up. Thank you!');
      await expectNoAxeViolations(phone);
      await phoneContext.close();
    } finally {
      await restore();
    }
  });
});
