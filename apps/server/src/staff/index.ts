/**
 * Staff accounts and the console's access guard (issue 12 "Staff and access"). buildApp calls
 * `registerStaff(app, …)` before any other console route is registered: the guard's onRoute hook
 * must see every /api/console route.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { RateLimiter } from '../auth/rate-limit.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { staffAccessOf } from './access-signal.ts';
import { registerStaffGuard } from './guard.ts';
import { registerStaffConsoleRoutes } from './console-routes.ts';

export interface StaffDeps {
  db: Kysely<Database>;
  now?: () => Date;
  /** Default: the accounts' mailer and limiter (app.accounts). */
  mailer?: Mailer;
  limiter?: RateLimiter;
}

export function registerStaff(app: FastifyInstance, deps: StaffDeps): void {
  const now = deps.now ?? (() => new Date());
  staffAccessOf(app);
  registerStaffGuard(app, { db: deps.db, now });
  registerStaffConsoleRoutes(app, { ...deps, now });
}

export { consoleRoutesOf, registerStaffGuard, staffOf, type ConsoleRoute, type StaffContext } from './guard.ts';
export { PERMISSIONS, ROLE_PERMISSIONS, roleCan, type Permission, type RoutePermission } from './permissions.ts';
export type { StaffView } from './members.ts';
export { ensureDemoStaff, DEMO_STAFF, DEMO_STAFF_PASSWORD } from './demo.ts';
