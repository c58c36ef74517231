import { describe, expect, it } from 'vitest';
import { ACCOUNT_NAV, accountBlockOf, addressLine, displayName, greeting, orderItemCount, phoneForDisplay, orderStatusLabel, pageCount, pageOf, pageRangeLabel, rewardPointsNotice } from './account-view.ts';

describe('account view', () => {
  it('finds the block of a path, with or without the store-code prefix', () => {
    expect(accountBlockOf('/my-account').block).toBe('overview');
    expect(accountBlockOf('/my-account/').block).toBe('overview');
    expect(accountBlockOf('/downtown/my-account/shipping-details').block).toBe('shipping-details');
    expect(accountBlockOf('/my-account/newsletter').title).toBe('Newsletter');
    expect(accountBlockOf('/my-account/orders').block).toBe('orders');
    expect(accountBlockOf('/my-account/recently-viewed').block).toBe('recently-viewed');
    expect(accountBlockOf('/downtown/my-account/points').block).toBe('points');
    expect(accountBlockOf('/downtown/my-account/reviews')).toMatchObject({ block: 'reviews', title: 'My reviews' });
    expect(accountBlockOf('/my-account/orders/DO-000001', 'DO-000001')).toMatchObject({ block: 'order', title: 'Order DO-000001', orderId: 'DO-000001' });
    expect(ACCOUNT_NAV.map((b) => b.block)).toEqual(['overview', 'shipping-details', 'newsletter', 'orders', 'points', 'reviews', 'recently-viewed']);
  });

  it('pages the orders 5 at a time', () => {
    expect(pageOf('')).toBe(1);
    expect(pageOf('?page=3')).toBe(3);
    expect(pageOf('?page=0')).toBe(1);
    expect(pageOf('?page=-2')).toBe(1);
    expect(pageOf('?page=2.5')).toBe(1);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(5)).toBe(1);
    expect(pageCount(6)).toBe(2);
    expect(pageRangeLabel(2, 12)).toBe('Orders 6–10 of 12');
    expect(pageRangeLabel(3, 12)).toBe('Orders 11–12 of 12');
    expect(pageRangeLabel(1, 0)).toBe('No orders yet');
  });

  it('says "You have {credit} Reward Points!" only for a positive balance', () => {
    expect(rewardPointsNotice({ credits: 120 })).toBe('You have 120 Reward Points!');
    expect(rewardPointsNotice({ credits: 0 })).toBeNull();
    expect(rewardPointsNotice({ credits: -5 })).toBeNull();
    expect(rewardPointsNotice(null)).toBeNull();
    expect(rewardPointsNotice({ credits: 10 }, 0)).toBeNull();
  });

  it('words names, addresses, item counts and statuses', () => {
    expect(displayName({ firstname: 'Ana', lastname: 'Diaz' })).toBe('Ana Diaz');
    // Issue 11: a phone account without a name is never called by its number.
    expect(displayName({ firstname: null, lastname: null })).toBeNull();
    expect(greeting({ firstname: null, lastname: null })).toBe('Welcome!');
    expect(greeting({ firstname: 'Ana', lastname: 'Diaz' })).toBe('Welcome, Ana Diaz!');
    expect(phoneForDisplay('+19165550142')).toBe('(916) 555-0142');
    expect(phoneForDisplay('9165550142')).toBe('(916) 555-0142');
    expect(phoneForDisplay('+442071838750')).toBe('+442071838750');
    expect(addressLine({ title: 'Home', street: '1001 K Street', house_number: null, apt_ste: '2B', city: 'Sacramento', postcode: '95816' })).toBe(
      'Home: 1001 K Street, Apt 2B, Sacramento 95816',
    );
    expect(orderItemCount({ items: [{ qty: 2 }, { qty: 1 }] as never })).toBe(3);
    expect(orderStatusLabel('pending')).toBe('Pending');
    expect(orderStatusLabel('on_hold')).toBe('On hold');
  });
});
