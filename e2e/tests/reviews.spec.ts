/**
 * Issue 30 "Reviews", review → moderation → published: a customer with a completed order (made
 * through the API: the order placed with their token, then confirmed, marked ready and completed by
 * the owner) opens the product page on a phone, logs in, writes a review with the keyboard-reachable
 * form and reads the spec's "Review submitted for moderation" and the status "Waiting for moderation";
 * the owner approves it on the console's Reviews page (tablet size, then nothing overflows at 390 px);
 * back on the product page the review is published with "Verified buyer", the average and count show,
 * the JSON-LD carries aggregateRating and the review, and the shopper's status reads "Published".
 * Axe clean on the product page's reviews and on the console page.
 */
import { randomUUID } from 'node:crypto';
import { loginByPhone } from '../fixtures/account.ts';
import { buyerWithCompletedOrder, consoleUrl } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 120_000 });

test('a buyer reviews, staff approve, the product page publishes it as a verified buyer', async ({ page, browser, request }) => {
  // A customer with a completed order of an eighth: placed through the API, completed by the owner through the console API.
  const { customer, product, staff, staffContext } = await buyerWithCompletedOrder(browser, request, { firstname: 'Riley', lastname: 'Moss' });
  const productUrl = storeUrl('downtown', `/p/${product.sku}/${product.slug}`);
  const title = `Smooth and bright ${randomUUID().slice(0, 6)}`;

  // The shopper writes the review on a phone.
  await passGateByCookie(page.context(), 'downtown', 'recreational');
  await page.goto(productUrl);
  const reviews = page.getByRole('region', { name: 'Reviews' });
  await expect(reviews).toBeVisible();
  await loginByPhone(page, customer.phone);
  const form = reviews.getByRole('form', { name: 'Write a review' });
  await expect(form).toBeVisible();
  // Sent empty: the problems are said at the fields, the first one focused.
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(form.getByRole('radio', { name: '1 star', exact: true })).toBeFocused();
  await expect(form.getByText('Please choose from 1 to 5 stars.')).toBeVisible();
  await form.getByRole('radio', { name: '4 stars' }).check();
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Your review').fill('Bright citrus nose, smooth smoke and a calm, happy evening.');
  await form.getByRole('checkbox', { name: 'relaxed' }).check();
  await form.getByRole('checkbox', { name: 'citrus' }).check();
  await form.getByRole('button', { name: 'Submit review' }).press('Enter');
  const mine = reviews.getByTestId('my-review');
  await expect(mine.getByRole('status')).toHaveText('Review submitted for moderation');
  await expect(mine.getByTestId('my-review-status')).toHaveText('Status: Waiting for moderation');
  // Pending: not published yet.
  await expect(reviews.getByRole('heading', { name: title })).toHaveCount(0);
  await expectNoAxeViolations(page);
  const phone = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(phone.scroll, 'the product page overflows at 390 px').toBeLessThanOrEqual(phone.inner);

  // The owner approves it in the console (tablet), and the page works at 390 px too.
  await staff.goto(consoleUrl('/stores/1/reviews'));
  await expect(staff.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  const card = staff.getByRole('article', { name: title });
  await expect(card).toBeVisible();
  // The demo's pending review shows its flag with the rule's name.
  await expect(staff.getByTestId('review-flags').getByText('Medical or health claim').first()).toBeVisible();
  await expectNoAxeViolations(staff);
  await staff.setViewportSize({ width: 390, height: 844 });
  const sizes = await staff.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.inner);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(staff.getByRole('status').filter({ hasText: `Published “${title}”.` })).toBeVisible();
  await expect(card).toHaveCount(0);
  await expectNoAxeViolations(staff);
  await staffContext.close();

  // Published: on the product page with "Verified buyer", in the average and in the JSON-LD.
  await page.reload();
  const published = reviews.getByRole('article', { name: title });
  await expect(published).toBeVisible();
  await expect(published.getByText('Verified buyer')).toBeVisible();
  await expect(published).toContainText('Riley M.');
  await expect(reviews.getByTestId('review-summary')).toContainText(/reviews?$/);
  await expect(page.getByTestId('product-rating')).toBeVisible();
  await expect(reviews.getByTestId('my-review-status')).toHaveText('Status: Published');
  const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
  const productLd = ld.map((t) => JSON.parse(t) as Record<string, any>).find((d) => d['@type'] === 'Product')!;
  expect(productLd.aggregateRating).toMatchObject({ '@type': 'AggregateRating', bestRating: 5 });
  expect(productLd.aggregateRating.reviewCount).toBeGreaterThanOrEqual(1);
  expect(productLd.review.map((r: { name: string }) => r.name)).toContain(title);
  await reviews.getByRole('combobox', { name: 'Sort reviews' }).selectOption('helpful');
  await expect(reviews.getByRole('article', { name: title })).toBeVisible();
  await expectNoAxeViolations(page);
});
