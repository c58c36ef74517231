/**
 * The product copy of the spec (§5, §8), word for word. UI and server both read from here so
 * that a message a test asserts is the message a shopper sees.
 */
export const MESSAGES = {
  ageGateMustCertify: 'You must certify that you are 21 years old or older to continue',
  ageGateRefused: 'Sorry, you must be 21 years old or older to continue.',
  loginRequired: 'You need to be logged in to see this page',
  searchTermTooShort: 'Searched term at least 3 characters.',
  fieldRequired: 'Field is required',
  passwordChanged: 'Password has successfully been changed',
  pageNotFound: '404 Page Not Found',
  somethingWentWrong: 'Something went wrong. Try again in a few seconds.',
  internalServerError: 'Internal Server Error 500',
  payOnDeliveryTitle: 'Payment Information',
  payOnDeliveryText: 'You are going to pay for this order upon delivery.',
  storeNotFound: (code: string) => `Store "${code}" does not exist`,
} as const;

/**
 * Issue 29 "The shopper": a delivery's progress on the order and tracking pages (./trip-progress.ts
 * works the numbers out) and the "about 10 minutes away" message, worded like the other order
 * messages (apps/server/src/notifications/templates.ts): the SMS starts with the store and the order
 * number and keeps to plain characters (GSM-7: no dashes beyond "-").
 */
export const DELIVERY_PROGRESS_MESSAGES = {
  /** "Your driver is on the way — you are stop 3, about 25 minutes" ("you are next" for stop 1). */
  progress: (stop: number, minutes: number) =>
    `Your driver is on the way — ${stop <= 1 ? 'you are next' : `you are stop ${stop}`}, about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  nearSms: (storeName: string, incrementId: string) => `${storeName}: order #${incrementId} is about 10 minutes away. Have your ID ready.`,
  nearEmail: (storeName: string, incrementId: string, customerName: string) => ({
    subject: `Order #${incrementId} is about 10 minutes away`,
    text: `Hello ${customerName || 'there'},\n\nYour driver is about 10 minutes away with your order #${incrementId}. Please have a valid photo ID ready at the door.\n\n${storeName}`,
  }),
} as const;
