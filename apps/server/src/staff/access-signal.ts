/**
 * "A member's access may have changed": raised after a commit that revoked sessions (logout,
 * logout everywhere, password change, TOTP on/off, password reset) or changed a member (disabled,
 * role, stores). Listeners (the console streams, via the hub and Redis on every node) re-check the
 * member's open streams at once instead of waiting for their next ping. Listeners are called
 * synchronously and must not throw into the caller.
 */
import type { FastifyInstance } from 'fastify';

export type AccessListener = (staffId: number) => void;

export interface StaffAccessSignal {
  changed(staffId: number): void;
  /** Returns the unsubscribe. */
  on(listener: AccessListener): () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Raised after a member's sessions or access changed (staff/access-signal.ts). */
    staffAccess: StaffAccessSignal;
  }
}

export function createStaffAccessSignal(onError?: (err: Error) => void): StaffAccessSignal {
  const listeners = new Set<AccessListener>();
  return {
    changed(staffId) {
      for (const listener of [...listeners]) {
        try {
          listener(staffId);
        } catch (err) {
          onError?.(err as Error);
        }
      }
    },
    on(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The app's signal (decorated once by registerStaff; a bare instance gets one on first use). */
export function staffAccessOf(app: FastifyInstance): StaffAccessSignal {
  if (!app.hasDecorator('staffAccess')) app.decorate('staffAccess', createStaffAccessSignal((err) => app.log.warn({ err }, 'staff access listener')));
  return app.staffAccess;
}
