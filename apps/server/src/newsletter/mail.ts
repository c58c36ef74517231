/** The newsletter's welcome mail and its signed unsubscribe link (routes.ts). */
import type { Store } from '@verdant/domain';
import type { MailMessage } from '../mail/mailer.ts';
import { escapeHtml, storeSiteUrl } from '../users/password-reset.ts';

/** `{store site}/newsletter?linkToken=…`: the storefront page that reads and changes the subscription. */
export function newsletterLink(store: Pick<Store, 'url' | 'storeCode' | 'appendStoreCode'>, pathPrefix: string, linkToken: string): string {
  return storeSiteUrl(store, pathPrefix, `/newsletter?${new URLSearchParams({ linkToken })}`);
}

export function newsletterMail(store: Pick<Store, 'name'>, to: string, link: string): MailMessage {
  const text = [
    `Hello,`,
    ``,
    `this address was subscribed to the ${store.name} newsletter (news, deals and 10% off your next order).`,
    `If that was not you, or you change your mind, unsubscribe here:`,
    ``,
    link,
  ].join('\n');
  const html =
    `<p>Hello,</p><p>this address was subscribed to the ${escapeHtml(store.name)} newsletter (news, deals and 10% off your next order). ` +
    `If that was not you, or you change your mind, unsubscribe here:</p><p><a href="${escapeHtml(link)}">Unsubscribe</a></p>`;
  return { to, subject: `Your ${store.name} newsletter`, text, html };
}
