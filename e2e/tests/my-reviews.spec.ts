/**
 * Issue 30 "The shopper sees 'Your review was submitted for moderation' and later its status", on a
 * 390 px phone: a customer whose order the store completed (placed through the API, completed by the
 * owner through the console API) writes a review on the product page, opens My account → My reviews
 * and reads it there with its product link, stars, title and "Waiting for moderation"; the owner
 * approves it (console API) and My reviews reads "Published"; "Edit this review" opens the product
 * page's form on it, the edit goes back to moderation; the owner rejects it with a reason and My
 * reviews shows "Not published" with that reason. Nothing scrolls sideways; axe clean.
 * (The console's moderation page itself: reviews.spec.ts. The list's rules: apps/server/src/reviews/reviews.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { loginByPhone } from '../fixtures/account.ts';
import { buyerWithCompletedOrder, consoleCall, dbAll } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 120_000 });

test('my reviews: written → waiting for moderation → published; edited from the account; not published with the store’s reason', async ({ page, browser, request }) => {
  const { customer, product, staff, staffContext } = await buyerWithCompletedOrder(browser, request, { firstname: 'Iris', lastname: 'Vale' });
  try {
    // The shopper writes the review on the product page.
    await passGateByCookie(page.context(), 'downtown', 'recreational');
    await page.goto(storeUrl('downtown', `/p/${product.sku}/${product.slug}`));
    await loginByPhone(page, customer.phone);
    const form = page.getByRole('region', { name: 'Reviews' }).getByRole('form', { name: 'Write a review' });
    const title = `Calm and bright ${randomUUID().slice(0, 6)}`;
    await form.getByRole('radio', { name: '4 stars' }).check();
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Your review').fill('Sweet pine nose, smooth smoke and an easy, calm evening.');
    await form.getByRole('button', { name: 'Submit review' }).click();
    await expect(page.getByTestId('my-review').getByRole('status')).toHaveText('Review submitted for moderation');

    // My account → My reviews: the review waits for moderation.
    await page.goto(storeUrl('downtown', '/my-account'));
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'My reviews' }).click();
    await expect(page).toHaveURL(storeUrl('downtown', '/my-account/reviews'));
    const block = page.getByRole('region', { name: 'My reviews' });
    const item = block.getByRole('list', { name: 'Your reviews, newest first' }).getByRole('listitem');
    await expect(item).toHaveCount(1);
    await expect(item.getByRole('link', { name: product.name, exact: true })).toHaveAttribute('href', `/p/${product.sku}/${product.slug}`);
    await expect(item.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
    await expect(item).toContainText(title);
    await expect(item.getByTestId('my-reviews-status')).toHaveText('Status: Waiting for moderation');
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // The store approves it: My reviews reads "Published".
    const [review] = dbAll<{ id: number }>(`select id from reviews where store_id = 1 and title = ?`, title);
    const approved = await consoleCall(staff, 'POST', `/reviews/${review.id}/decision`, { decision: 'approve' });
    expect(approved.status, JSON.stringify(approved.result)).toBe(200);
    await page.reload();
    await expect(item.getByTestId('my-reviews-status')).toHaveText('Status: Published');

    // "Edit this review" opens the product page's form on the review; the edit waits for moderation again.
    await item.getByRole('link', { name: `Edit this review: ${product.name}` }).click();
    await expect(page).toHaveURL(storeUrl('downtown', `/p/${product.sku}/${product.slug}#edit-review`));
    const edit = page.getByRole('form', { name: 'Edit your review' });
    await expect(edit.getByLabel('Title')).toBeFocused();
    await expect(edit.getByLabel('Title')).toHaveValue(title);
    await edit.getByRole('radio', { name: '5 stars' }).check();
    await edit.getByRole('button', { name: 'Submit review' }).click();
    await expect(page.getByTestId('my-review-status')).toHaveText('Status: Waiting for moderation');
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // Rejected with a reason: My reviews says so, in the store's words.
    const reason = 'Please tell us about the product itself, not the evening.';
    const rejected = await consoleCall(staff, 'POST', `/reviews/${review.id}/decision`, { decision: 'reject', reason });
    expect(rejected.status, JSON.stringify(rejected.result)).toBe(200);
    await page.goto(storeUrl('downtown', '/my-account/reviews'));
    await expect(item.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(item.getByTestId('my-reviews-status')).toHaveText(`Status: Not published — ${reason}`);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  } finally {
    await staffContext.close();
  }
});
