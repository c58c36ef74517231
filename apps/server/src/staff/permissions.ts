/**
 * What each staff role may do in the console (issue 12 "Staff and access"). Every console route
 * declares one permission (`config: { console: { permission } }`); the guard (./guard.ts) refuses
 * a member whose role lacks it. `public` marks the few routes used before logging in.
 */
import type { StaffRole } from '../db/schema.ts';

export const STAFF_ROLES: readonly StaffRole[] = ['owner', 'manager', 'budtender', 'driver'];

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
  // Deals (issue 28): everyone reads them (a budtender answers "why didn't I get the deal?");
  // managers and owners create, edit, pause and end them.
  'deals:read',
  'deals:write',
  // Delivery (issue 29): see drivers, vehicles, the orders ready to go and every trip (budtenders);
  // manage drivers, vehicles and trips (managers, owners); read trips — a driver only its own
  // (the routes narrow a `driver` to the trips of its driver record).
  'delivery:read',
  'delivery:manage',
  'trips:read',
  // The driver's phone (issue 29): act on trips (start, deliver, fail, end) — a driver only its own
  // trips, managers and owners any — and report the phone's offline queue.
  'trips:drive',
  // Reviews (issue 30): approve or reject what the store publishes (a compliance call: managers, owners).
  'reviews:moderate',
  // Customer records (issue 31): look a customer up and open the counter view of the profile
  // (everyone but drivers: a budtender finds the customer at the counter, sees orders, points and
  // documents, the phone masked); the full record — phone, spend, consents, staff notes (managers,
  // owners); write a staff note (managers, owners). docs/operators/customers.md
  'customers:lookup',
  'customers:read',
  'customers:note',
  // The store-wide export (issue 31): every customer, consent, order, the menu and deals in one
  // download — owners only (the business's data leaving with whoever downloads it).
  'store:export',
  // Merge two profiles of one person and undo a merge within 24 h (managers, owners: it moves a
  // person's orders, points and documents; the platform never merges by itself).
  'customers:merge',
] as const;

export type Permission = (typeof PERMISSIONS)[number];
/** What a console route declares: a permission, or `public` (login, password reset). */
export type RoutePermission = Permission | 'public';

/** Permissions only owners hold. */
export const OWNER_ONLY: readonly Permission[] = ['store:export'];

/**
 * Owners hold every permission, managers every one but the owners' own (the store-wide export);
 * what else tells them apart (managers touch only their own stores and cannot make owners) is
 * checked by the guard's store check and the staff routes.
 */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, readonly Permission[]>> = {
  owner: PERMISSIONS,
  manager: PERMISSIONS.filter((p) => !OWNER_ONLY.includes(p)),
  budtender: ['self', 'orders:read', 'orders:write', 'customers:verify', 'customers:lookup', 'menu:read', 'menu:stock', 'deals:read', 'delivery:read', 'trips:read'],
  driver: ['self', 'trips:read', 'trips:drive'],
};

export function roleCan(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function isRoutePermission(value: unknown): value is RoutePermission {
  return value === 'public' || (PERMISSIONS as readonly unknown[]).includes(value);
}
