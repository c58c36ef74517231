import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, ApiFailure, onSessionLost, setCsrfToken } from './api.ts';
import type { ConsoleStore, SessionAnswer, StaffView } from './types.ts';

interface SessionState {
  staff: StaffView | null;
  stores: ConsoleStore[];
  /** True until the first session check answered. */
  checking: boolean;
  signedIn(answer: SessionAnswer): Promise<void>;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside <SessionProvider>');
  return value;
}

/**
 * Whether the member's role holds a permission, as the server checks it (the console only hides
 * what the server would refuse anyway): budtenders work orders and documents, the rest is managers'.
 */
export type ManagerPermission = 'reports:read' | 'settings:write' | 'staff:manage' | 'webhooks:manage' | 'deals:write' | 'reviews:moderate';
export function can(staff: StaffView | null, _permission: ManagerPermission): boolean {
  return staff?.role === 'owner' || staff?.role === 'manager';
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [staff, setStaff] = useState<StaffView | null>(null);
  const [stores, setStores] = useState<ConsoleStore[]>([]);
  const [checking, setChecking] = useState(true);
  const navigate = useNavigate();
  const location = useLocation();

  const load = useCallback(async (answer: SessionAnswer) => {
    setCsrfToken(answer.csrfToken);
    const list = await api<ConsoleStore[]>('GET', '/stores');
    setStores(list);
    setStaff(answer.staff);
  }, []);

  const refresh = useCallback(async () => {
    try {
      await load(await api<SessionAnswer>('GET', '/session'));
    } catch (err) {
      if (!(err instanceof ApiFailure) || err.status !== 401) throw err;
      setCsrfToken(null);
      setStaff(null);
    }
  }, [load]);

  useEffect(() => {
    refresh()
      .catch(() => setStaff(null))
      .finally(() => setChecking(false));
  }, [refresh]);

  useEffect(() => {
    onSessionLost(() => {
      setStaff(null);
      setCsrfToken(null);
      navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    });
    return () => onSessionLost(null);
  }, [navigate, location.pathname, location.search]);

  const value = useMemo<SessionState>(
    () => ({
      staff,
      stores,
      checking,
      signedIn: load,
      refresh,
      async signOut() {
        try {
          await api('DELETE', '/session');
        } finally {
          setCsrfToken(null);
          setStaff(null);
          setStores([]);
        }
      },
    }),
    [staff, stores, checking, load, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
