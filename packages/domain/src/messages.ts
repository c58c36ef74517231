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
