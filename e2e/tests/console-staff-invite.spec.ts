/**
 * Inviting staff (issue 26, console usability): the owner adds a member without a password and is
 * told the link was sent; the member shows as invited with "Resend invite", which sends a new link
 * (the earlier one stops working: one live link per member) and says so; a second click within the
 * minute is refused in words. At tablet size and on a phone, axe clean.
 *
 * Own data: a member with an e-mail made for this run (no other journey lists staff by e-mail).
 */
import { randomUUID } from 'node:crypto';
import { consoleUrl, dbAll, OWNER, staffLogin } from '../fixtures/console.ts';
import { expect, expectNoAxeViolations, test } from '../fixtures/store.ts';

/** Letters only: a member's name follows the person's-name rule. */
const letters = () =>
  randomUUID()
    .replace(/-/g, '')
    .slice(0, 6)
    .replace(/[0-9]/g, (d) => 'qwxzvkjyph'[Number(d)]);

for (const size of [
  { name: 'tablet', width: 1024, height: 768 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the owner invites a member, is told the link was sent, and resends it (${size.name})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const word = letters();
    const name = `Ines${word}`;
    const email = `invite-${word}@journey.verdant.test`;
    await staffLogin(page, OWNER);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a store' })).toBeVisible();
    await page.goto(consoleUrl('/staff'));
    await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();

    await page.getByRole('button', { name: 'Add a staff member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a staff member' });
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('checkbox').first().check();
    await dialog.getByRole('button', { name: 'Add the member' }).click();
    await expect(dialog).toBeHidden();

    const status = page.getByRole('status').filter({ hasText: email });
    await expect(status).toHaveText(`Invitation sent to ${email}: the link to set a password works for 7 days.`);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row.getByText('Invited')).toBeVisible();
    await expectNoAxeViolations(page);

    const links = () =>
      dbAll<{ used: number }>(
        'SELECT used_at IS NOT NULL AS used FROM staff_password_resets WHERE staff_id = (SELECT id FROM staff WHERE email = ?) ORDER BY id',
        email,
      ).map((r) => r.used);
    expect(links()).toEqual([0]);

    await row.getByRole('button', { name: `Resend invite to ${name}` }).click();
    await expect(status).toHaveText(`A new invitation link was sent to ${email}. The earlier link no longer works.`);
    // One live link: the first is void, the new one stands.
    expect(links()).toEqual([1, 0]);

    // Again within the minute: refused in words, nothing sent.
    await row.getByRole('button', { name: `Resend invite to ${name}` }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'An invitation was sent to this member less than a minute ago. Please wait a minute before sending another.',
    );
    expect(links()).toEqual([1, 0]);
    await expectNoAxeViolations(page);
    // The page itself never scrolls sideways (the members' table scrolls in its own focusable box).
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true);
    await page.screenshot({ path: `/tmp/settings-shots/staff-invite-${size.name}.png`, fullPage: true });
  });
}
