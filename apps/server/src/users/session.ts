/** Issuing a session (access + refresh token) for a customer or a guest. */
import type { LicenseType, Store } from '@verdant/domain';
import type { AccountsContext } from '../auth/context.ts';
import { issueRefresh, signAccess } from '../auth/tokens.ts';
import type { OrderType } from '../db/tables/commerce.ts';
import type { CustomerRow } from './customers.ts';

export interface Session {
  token: string;
  refreshToken: string;
}

export async function issueSession(
  ctx: AccountsContext,
  store: Store,
  customer: CustomerRow | null,
  licenseType: LicenseType,
  orderType: OrderType,
): Promise<Session> {
  const now = ctx.now();
  const token = await signAccess(
    ctx.secret,
    {
      storeId: store.storeId,
      customerId: customer?.id ?? null,
      licenseType,
      orderType,
      // Guests price at the store's group (as the cart does); customers at their own.
      groupId: customer ? customer.group_id : store.tax.userGroupId,
      phoneProven: customer?.phone_verified_at != null,
    },
    now,
  );
  const refresh = await issueRefresh(ctx.db, store.storeId, customer?.id ?? null, now);
  return { token, refreshToken: refresh.token };
}
