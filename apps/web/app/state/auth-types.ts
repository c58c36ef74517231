/**
 * The browser's session (spec §3 User, §4 Login and Token refresh), as the account UI, the cart
 * and the offline sync queue see it. Implemented by ./auth-store.ts; React reads it through
 * ./use-auth.ts (`useAuth(selector)`, `useAuthApi()`).
 */
import { MESSAGES, type LicenseType } from '@verdant/domain';
import type { AddressInput, CurrentUser, MePatch, OrderType, RegistrationInput } from '../api/user.ts';

export type { AddressInput, CurrentUser, OrderType, RegistrationInput };

/** Spec §3: guest {isGuest, license_type, order_type}. */
export interface GuestSession {
  isGuest: true;
  license_type: LicenseType;
  order_type: OrderType;
}

/** Spec §4 Token refresh: 0 normal; above 0 while a refresh runs; -1 when the refresh failed. */
export type RefreshLock = number;

/** Spec §9: the token-refresh wait and the attempt cap (network task attempts 1). */
export const TOKEN_REFRESH_WAIT_MS = 1000;
export const TOKEN_REFRESH_MAX_ATTEMPTS = 1;

/** Spec §8 messages of the session. */
export const AUTH_COPY = {
  refreshUnauthorized: 'Error refreshing user token. User is not authorized to access the resource (code 401).',
  refreshInternal: 'Internal Application error while refreshing the tokens. Please clear the storage and refresh page.',
  sessionExpired: 'Your session has expired. You have been logged out to protect your account.',
  unexpectedAuth: 'Unexpected authorization error. Check your Network conection.',
  loggedOut: "You're logged out",
  loggedIn: 'You are logged in!',
  accountUpdated: 'Account data has successfully been updated',
  passwordChanged: MESSAGES.passwordChanged,
  resetOffline: 'Reset password feature does not work while offline!',
  loginRequired: MESSAGES.loginRequired,
  rewardPoints: (credit: number) => `You have ${credit} Reward Points!`,
} as const;

/** What a login step came to. `needs-license`: a new phone; ask licence type and birthday next. */
export type LoginStep = { kind: 'logged-in'; user: CurrentUser } | { kind: 'needs-license'; pendingToken: string; needs: string[] };

/** Spec §2 UI flag "auth element": which account dialog is open (null: none). */
export type AuthDialog = 'login' | 'register' | 'onboarding' | 'profile';

export interface AuthState {
  /** The session was read from storage (false during SSR and the first browser render). */
  loaded: boolean;
  /** Revision of the stored copy (a tab adopts another tab's copy only when it is newer). */
  rev: number;
  token: string | null;
  refreshToken: string | null;
  /** The logged-in customer (null for a guest or before login). */
  user: CurrentUser | null;
  guest: GuestSession | null;
  refreshLock: RefreshLock;
  /** The open account dialog. A failed token refresh opens 'login' (spec §4 "the signup modal shows"). */
  dialog: AuthDialog | null;
  openDialog(dialog: AuthDialog): void;
  closeDialog(): void;

  /** Read the stored session (IndexedDB), then make sure there is at least a guest session. */
  load(): Promise<void>;
  loginGuest(licenseType: LicenseType): Promise<void>;
  /** Login step 1: send the SMS code. `demoCode` only in demo mode (shown so the journey works without a phone). */
  sendCode(phone: string): Promise<{ demoCode: string | null }>;
  /** Login step 2. A logged-in result has already merged the guest cart into the customer cart. */
  confirmCode(phone: string, code: string, orderType?: OrderType): Promise<LoginStep>;
  /** Login step 3 for a new phone: licence type and birthday (21+, checked again by the server). */
  completeLicense(input: { phone: string; licenseType: LicenseType; birthday: string; pendingToken: string; medcardNumber?: string; medcardExpiry?: string }): Promise<CurrentUser>;
  /** Registration step 1: the form is checked and a code texted to its phone (`demoCode` in demo mode only). */
  startRegistration(input: RegistrationInput): Promise<{ demoCode: string | null }>;
  /** Step 2: the form with the code. `existing`: the phone already had an account, now logged in as it is. */
  register(input: RegistrationInput, code: string): Promise<{ user: CurrentUser; existing: boolean }>;
  loginWithPassword(email: string, password: string): Promise<CurrentUser>;
  /**
   * Spec §4 Logout: end the session, clear the cart (no sync) and the user, then log in as a
   * guest again with the same licence type. `silent` skips the "You're logged out" notice.
   */
  logout(opts?: { silent?: boolean; reason?: string }): Promise<void>;
  /** Reload the current user (after an order: new points; after an upload). */
  refreshUser(): Promise<CurrentUser | null>;
  /** Spec §3: only email and addresses change. */
  updateMe(patch: MePatch): Promise<CurrentUser>;
  deleteAddress(id: number): Promise<CurrentUser>;
  /**
   * Run an API call with the current access token. On a 401 the token is refreshed under the
   * lock of spec §4 (other callers wait TOKEN_REFRESH_WAIT_MS and retry) and the call retried
   * once; a failed refresh logs out silently, shows the spec's notice and rethrows.
   */
  authorized<T>(call: (token: string) => Promise<T>): Promise<T>;
}
