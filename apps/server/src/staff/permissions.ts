/**
 * What each staff role may do in the console (issue 12 "Staff and access"). Every console route
 * declares one permission (`config: { console: { permission } }`); the guard (./guard.ts) refuses
 * a member whose role lacks it. `public` marks the few routes used before logging in.
 */
import type { StaffRole } from '../db/schema.ts';

export const STAFF_ROLES: readonly StaffRole[] = ['owner', 'manager', 'budtender'];

export const PERMISSIONS = [
  'self',
  'orders:read',
  'orders:write',
  'customers:verify',
  'reports:read',
  'settings:write',
  'staff:manage',
  'webhooks:manage',
  // Menu (issue 13): read the menu; mark items sold out / back in stock and orderable (budtenders);
  // change prices, status, run imports (managers, owners).
  'menu:read',
  'menu:stock',
  'menu:write',
  // The integration API's keys (issue 13): create, list, revoke (managers, owners).
  'api-keys:manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];
/** What a console route declares: a permission, or `public` (login, password reset). */
export type RoutePermission = Permission | 'public';

/**
 * Owners and managers hold every permission; what tells them apart (managers touch only their own
 * stores and cannot make owners) is checked by the guard's store check and the staff routes.
 */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, readonly Permission[]>> = {
  owner: PERMISSIONS,
  manager: PERMISSIONS,
  budtender: ['self', 'orders:read', 'orders:write', 'customers:verify', 'menu:read', 'menu:stock'],
};

export function roleCan(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function isRoutePermission(value: unknown): value is RoutePermission {
  return value === 'public' || (PERMISSIONS as readonly unknown[]).includes(value);
}
