import { describe, expect, it } from 'vitest';
import { MEDCARD_MESSAGES, medicalCardProblem } from './medical-card.ts';

const now = new Date('2026-11-20T06:00:00Z'); // 11/19 22:00 in Los Angeles
const card = { medcardNumber: 'CA-123', medcardExpiry: '2026-11-19', timeZone: 'America/Los_Angeles' };
const medicalOnly = [{ licenseTypes: ['medical'] }];

describe('medicalCardProblem', () => {
  it('leaves recreational orders and products sold to both licences alone', () => {
    expect(medicalCardProblem(null, 'recreational', now, medicalOnly)).toBeNull();
    expect(medicalCardProblem(null, 'medical', now, [{ licenseTypes: ['medical', 'recreational'] }])).toBeNull();
  });
  it('needs a logged-in customer with a card number of at least 2 characters and an expiry', () => {
    expect(medicalCardProblem(null, 'medical', now, medicalOnly)).toBe(MEDCARD_MESSAGES.loginRequired);
    expect(medicalCardProblem({ ...card, medcardNumber: 'C' }, 'medical', now, medicalOnly)).toBe(MEDCARD_MESSAGES.cardMissing);
    expect(medicalCardProblem({ ...card, medcardExpiry: null }, 'medical', now, medicalOnly)).toBe(MEDCARD_MESSAGES.cardMissing);
  });
  it("judges expiry by the store's calendar day", () => {
    expect(medicalCardProblem(card, 'medical', now, medicalOnly)).toBeNull();
    expect(medicalCardProblem({ ...card, timeZone: 'UTC' }, 'medical', now, medicalOnly)).toBe(MEDCARD_MESSAGES.cardExpired);
  });
});
