/**
 * The account pages' calls (order history, documents, newsletter, passwords). Apart from ./user.ts
 * (the session's calls, which every page loads with the session store) so that this code loads
 * only with the account components that use it.
 */
import { ApiError, NetworkError, apiUrl, callApi } from './envelope.ts';
import type { LoyaltyAccountView } from '@verdant/domain';
import { bearer, type AccountOrder, type CurrentUser, type OrderHistoryPage, type UploadedDocument } from './user.ts';

export const accountApi = {
  orderHistory: (token: string, currentPage = 1, pageSize = 5) =>
    callApi<OrderHistoryPage>('/api/user/order-history', { headers: bearer(token), query: { pageSize, currentPage } }),
  /** Issue 30: balance, tier, expiry and history of the customer's points. */
  loyalty: (token: string) => callApi<LoyaltyAccountView>('/api/user/loyalty', { headers: bearer(token) }),
  order: (token: string, incrementId: string) => callApi<AccountOrder>(`/api/user/order/${encodeURIComponent(incrementId)}`, { headers: bearer(token) }),
  /** A medical account adds or corrects its card (issue 26); changed details go back to staff review. */
  saveMedcard: (token: string, medcardNumber: string, medcardExpiry: string) =>
    callApi<CurrentUser>('/api/user/me/medcard', { method: 'POST', headers: bearer(token), body: { medcard_number: medcardNumber, medcard_expiry: medcardExpiry } }),
  uploads: (token: string) => callApi<UploadedDocument[]>('/api/user/uploads', { headers: bearer(token) }),
  async upload(token: string, kind: 'id' | 'medcard', file: Blob, fileName = 'document'): Promise<UploadedDocument> {
    const form = new FormData();
    form.append('file', file, fileName);
    let res: Response;
    try {
      res = await fetch(apiUrl('/api/user/upload', { kind }), { method: 'POST', headers: { ...bearer(token), accept: 'application/json' }, body: form, credentials: 'same-origin' });
    } catch {
      throw new NetworkError();
    }
    const body = (await res.json().catch(() => null)) as { code?: number; result?: unknown } | null;
    if (!res.ok || body?.code !== 200) throw new ApiError(body?.code ?? res.status, typeof body?.result === 'string' ? body.result : `HTTP ${res.status}`);
    return body.result as UploadedDocument;
  },
  /** Issue 31: everything the store holds about the customer, as one zip (docs/operators/privacy.md). */
  async dataExport(token: string): Promise<{ blob: Blob; filename: string }> {
    let res: Response;
    try {
      res = await fetch(apiUrl('/api/user/data-export'), { headers: { ...bearer(token) }, credentials: 'same-origin' });
    } catch {
      throw new NetworkError();
    }
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { code?: number; result?: unknown } | null;
      throw new ApiError(body?.code ?? res.status, typeof body?.result === 'string' ? body.result : `HTTP ${res.status}`);
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'my-data.zip';
    return { blob: await res.blob(), filename: name };
  },
  /** Issue 31: delete the account (sales records kept anonymised); refused while an order is open. */
  deleteAccount: (token: string) =>
    callApi<{ deleted: boolean; orders_kept: number; retention_years: number }>('/api/user/delete', { method: 'POST', headers: bearer(token), body: { confirm: true } }),
  /** The customer's own subscription (the server answers only for the session's e-mail, or a signed link's). */
  newsletterStatus: (token: string, email: string) => callApi<{ isSubscribed: boolean }>('/api/newsletter', { headers: bearer(token), query: { email } }),
  subscribe: (token: string, email: string) => callApi<{ isSubscribed: boolean; skipped: boolean }>('/api/newsletter', { method: 'POST', headers: bearer(token), body: { email } }),
  unsubscribe: (token: string, email: string) => callApi<{ isSubscribed: boolean; skipped: boolean }>('/api/newsletter', { method: 'DELETE', headers: bearer(token), body: { email } }),
  /** With the signed link of a newsletter mail (`/newsletter?linkToken=`), no session needed. */
  newsletterByLink: (linkToken: string) => callApi<{ isSubscribed: boolean; email: string }>('/api/newsletter', { query: { linkToken } }),
  changeByLink: (linkToken: string, subscribe: boolean) =>
    callApi<{ isSubscribed: boolean; skipped: boolean }>('/api/newsletter', { method: subscribe ? 'POST' : 'DELETE', body: { linkToken } }),
  resetPassword: (email: string) => callApi<string>('/api/user/reset-password', { method: 'POST', body: { email } }),
  createPassword: (email: string, newPassword: string, resetToken: string) =>
    callApi<string>('/api/user/create-password', { method: 'POST', body: { email, newPassword, resetToken } }),
  changePassword: (token: string, currentPassword: string, newPassword: string) =>
    callApi<string>('/api/user/change-password', { method: 'POST', headers: bearer(token), body: { currentPassword, newPassword } }),
};
