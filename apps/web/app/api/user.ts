/**
 * The user calls of spec §7, typed as apps/server answers them (apps/server/src/users/*,
 * newsletter/routes.ts, uploads/routes.ts). Login answers carry their tokens in `meta`.
 *
 * Calls that need the shopper's access token take it as their first argument and send it as a
 * Bearer header (spec §6: token in header). Callers go through the auth store's `authorized()`
 * (../state/auth-store.ts), which adds the token and runs the 401 refresh of spec §4.
 */
import type { DocumentStatus, LicenseType, TimelineStep } from '@verdant/domain';
import { ApiError, NetworkError, apiUrl, callApi, callApiEnvelope } from './envelope.ts';
import type { TotalsTaxLine } from './cart.ts';

export type OrderType = 'pickup' | 'delivery';

export interface Address {
  id: number;
  title: string | null;
  firstname: string | null;
  lastname: string | null;
  street: string;
  house_number: string | null;
  apt_ste: string | null;
  city: string;
  region: string | null;
  postcode: string;
  country_id: string | null;
  phone: string | null;
  lat: number | null;
  lng: number | null;
  is_default: boolean;
}

export type AddressInput = Partial<Omit<Address, 'id' | 'street' | 'city' | 'postcode'>> & {
  id?: number;
  street: string;
  city: string;
  postcode: string;
};

/**
 * What `POST /api/user/me` takes: the e-mail and addresses, and the first and last name together,
 * once, while the account has none (onboarding of a phone account; server me-routes.ts).
 */
export interface MePatch {
  email?: string;
  addresses?: AddressInput[];
  firstname?: string;
  lastname?: string;
}

/** `GET /api/user/me` (spec §3 current user). `credits` is the reward-point balance. */
export interface CurrentUser {
  id: number;
  phone: string;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  license_type: LicenseType;
  birthday: string | null;
  group_id: number;
  medcard_number: string | null;
  medcard_expiry: string | null;
  id_verified: boolean;
  /** Staff's review of the uploads (issue 12); absent from answers of servers before it. */
  id_status?: DocumentStatus;
  id_review_reason?: string | null;
  medcard_status?: DocumentStatus;
  medcard_review_reason?: string | null;
  created_from: string | null;
  credits: number;
  addresses: Address[];
}

export interface Tokens {
  token: string;
  refreshToken: string;
}

export interface OrderLine {
  sku: string;
  name: string;
  qty: number;
  size: number | null;
  price: number;
  row_total: number;
  discount: number;
}

/** One order as the account pages show it (cents). */
export interface AccountOrder {
  increment_id: string;
  status: string;
  created_at: string;
  order_type: OrderType;
  license_type: LicenseType;
  payment_method: string;
  coupon_code: string | null;
  subtotal: number;
  discount: number;
  excise_taxes: number;
  sales_taxes: number;
  /** Each named tax line as charged (issue 14); empty for orders placed before the store's lines were kept. */
  tax_lines?: TotalsTaxLine[];
  shipping: number;
  total: number;
  credits_used: number;
  items: OrderLine[];
  /** Issue 12 lifecycle (GET /api/user/order/:id; the history list carries `status_label` only). */
  status_label?: string;
  ready_by?: string | null;
  status_changed_at?: string | null;
  timeline?: TimelineStep[];
  cancel_reason?: string | null;
  cancel_message?: string | null;
  hold?: ('id' | 'medcard')[];
  /** The booked time slot (issue 14; GET /api/user/order/:id), label in the store's zone; null: as soon as possible. */
  slot?: { start: string; end: string; label: string } | null;
  /** Issue 29: on a started trip, "Your driver is on the way — you are stop 3, about 25 minutes"; else null. */
  trip?: { stop: number; minutes: number; text: string } | null;
}

export interface OrderHistoryPage {
  items: AccountOrder[];
  total_count: number;
  page_size: number;
  current_page: number;
}

export interface RegistrationInput {
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  birthday: string;
  license_type: LicenseType;
  medcard_number?: string;
  medcard_expiry?: string;
  order_type?: OrderType;
}

export interface UploadedDocument {
  id: number;
  kind: 'id' | 'medcard';
  mime: string;
  size_bytes: number;
  sha256: string;
  original_name?: string | null;
  created_at: string;
  /** Issue 31: the image was deleted after the check (the store's data retention); the result is kept. */
  deleted_at?: string | null;
}

/** What confirming an SMS code came to: logged in, or a new phone that must give licence and birthday. */
export type ConfirmResult = { kind: 'tokens'; tokens: Tokens } | { kind: 'needs'; needs: string[]; pendingToken: string };

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function tokensOf(meta: Partial<Tokens>): Tokens {
  if (typeof meta.token !== 'string' || typeof meta.refreshToken !== 'string') throw new ApiError(500, 'Unhandled error, wrong response format!');
  return { token: meta.token, refreshToken: meta.refreshToken };
}

export const userApi = {
  async loginGuest(licenseType: LicenseType, storeId?: number): Promise<Tokens> {
    const { meta } = await callApiEnvelope<string, Tokens>('/api/user/login-guest', { method: 'POST', body: { license_type: licenseType, storeId } });
    return tokensOf(meta);
  },
  /** Sends the SMS code. In demo mode the server also answers the code (`demoCode`), never otherwise. */
  async sendCode(phone: string, storeId?: number): Promise<{ demoCode: string | null }> {
    const { meta } = await callApiEnvelope<string, { demo_code: string }>('/api/user/login', { method: 'POST', body: { phone, storeId } });
    return { demoCode: typeof meta.demo_code === 'string' ? meta.demo_code : null };
  },
  async confirmCode(phone: string, code: string, orderType: OrderType = 'pickup'): Promise<ConfirmResult> {
    const { result, meta } = await callApiEnvelope<unknown, Tokens & { pendingToken: string }>('/api/user/login', {
      method: 'POST',
      body: { phone, code, order_type: orderType },
    });
    if (result && typeof result === 'object' && 'needs' in result && typeof meta.pendingToken === 'string') {
      return { kind: 'needs', needs: (result as { needs: string[] }).needs, pendingToken: meta.pendingToken };
    }
    return { kind: 'tokens', tokens: tokensOf(meta) };
  },
  async completeLicense(input: {
    phone: string;
    licenseType: LicenseType;
    birthday: string;
    pendingToken: string;
    orderType?: OrderType;
    medcardNumber?: string;
    medcardExpiry?: string;
  }): Promise<Tokens> {
    const card = input.licenseType === 'medical' ? { medcard_number: input.medcardNumber?.trim(), medcard_expiry: input.medcardExpiry } : {};
    const { meta } = await callApiEnvelope<string, Tokens>('/api/user/login', {
      method: 'POST',
      body: { phone: input.phone, license_type: input.licenseType, birthday: input.birthday, pendingToken: input.pendingToken, order_type: input.orderType ?? 'pickup', ...card },
    });
    return tokensOf(meta);
  },
  /** Password login (our addition; the spec's login is by phone code — see docs/developers/decisions.md, "Passwords"). */
  async loginWithPassword(email: string, password: string): Promise<Tokens> {
    const { meta } = await callApiEnvelope<string, Tokens>('/api/user/login', { method: 'POST', body: { email, password } });
    return tokensOf(meta);
  },
  /**
   * Registration step 1: the server checks the form and texts a code to the phone (the same answer
   * whether the phone has an account or not). In demo mode it also answers the code.
   */
  async startRegistration(input: RegistrationInput): Promise<{ demoCode: string | null }> {
    const { meta } = await callApiEnvelope<string, { demo_code: string }>('/api/user/create', { method: 'POST', body: { ...input, created_from: 'portal_online' } });
    return { demoCode: typeof meta.demo_code === 'string' ? meta.demo_code : null };
  },
  /**
   * Step 2: the form again with the code. The account is made only now; when the phone already had
   * one, its (now proven) holder is logged into it as it is: `existing`.
   */
  async register(input: RegistrationInput, code: string): Promise<Tokens & { existing?: boolean }> {
    const { meta } = await callApiEnvelope<string, Tokens & { existing: boolean }>('/api/user/create', {
      method: 'POST',
      body: { ...input, code, created_from: 'portal_online' },
    });
    return { ...tokensOf(meta), existing: meta.existing === true };
  },
  /** Spec §7: `{refreshToken}` → the new access token in `result`, the rotated refresh token in `meta`. */
  async refresh(refreshToken: string, licenseType?: LicenseType): Promise<Tokens> {
    const { result, meta } = await callApiEnvelope<string, { refreshToken: string }>('/api/user/refresh', {
      method: 'POST',
      body: { refreshToken, ...(licenseType ? { license_type: licenseType } : {}) },
    });
    if (typeof result !== 'string' || typeof meta.refreshToken !== 'string') throw new ApiError(500, 'Unhandled error, wrong response format!');
    return { token: result, refreshToken: meta.refreshToken };
  },
  me: (token: string) => callApi<CurrentUser>('/api/user/me', { headers: bearer(token) }),
  /** Spec §3: only the e-mail address and addresses can change. */
  updateMe: (token: string, patch: MePatch) =>
    callApi<CurrentUser>('/api/user/me', { method: 'POST', headers: bearer(token), body: patch }),
  deleteAddress: (token: string, id: number) => callApi<CurrentUser>(`/api/user/me/addresses/${id}`, { method: 'DELETE', headers: bearer(token) }),
};

export type UserApi = typeof userApi;
