import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import { Loading, PageTitle } from '../components/ui.tsx';
import { chime, useMute, useStoreEvents, type LiveOrderEvent, type LiveState } from '../lib/live.ts';
import { can, SessionProvider, useSession } from '../lib/session.tsx';
import type { ConsoleStore } from '../lib/types.ts';
import { zoneLabel } from '../lib/format.ts';

const PUBLIC_PATHS = new Set(['/login', '/reset-password']);

/** Sets the tab title: `Page · Verdant console`. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Verdant console`;
  }, [title]);
}

export function Shell() {
  return (
    <SessionProvider>
      <Guard />
    </SessionProvider>
  );
}

function Guard() {
  const { staff, checking } = useSession();
  const location = useLocation();
  if (checking)
    return (
      <main id="main" className="p-6">
        <Loading label="Checking your session…" />
      </main>
    );
  if (!staff && !PUBLIC_PATHS.has(location.pathname)) {
    const next = location.pathname === '/' ? '' : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/login${next}`} replace />;
  }
  return <Outlet />;
}

/** `/console/`: the member's only store's queue, or a choice of stores. */
export function HomeRedirect() {
  const { stores } = useSession();
  useTitle('Choose a store');
  if (stores.length === 1) return <Navigate to={`/stores/${stores[0].id}/orders`} replace />;
  return (
    <>
      <TopBar />
      <main id="main" className="mx-auto max-w-3xl p-6">
        <PageTitle>Choose a store</PageTitle>
        {stores.length === 0 ? (
          <p>No store is assigned to you yet. Ask a manager to add you to a store.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2" aria-label="Your stores">
            {stores.map((store) => (
              <li key={store.id}>
                <Link to={`/stores/${store.id}/orders`} className="card block hover:border-green-800">
                  <span className="block text-lg font-semibold text-green-900 underline">{store.name}</span>
                  <span className="text-stone-700">{zoneLabel(store.timezone)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}

/** Header of every signed-in page: who is signed in, the member's pages and sign-out. */
export function TopBar({ store }: { store?: ConsoleStore }) {
  const { staff, stores, signOut } = useSession();
  const navigate = useNavigate();
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `rounded px-2 py-1 ${isActive ? 'bg-green-800 text-white' : 'text-stone-900 underline hover:bg-stone-100'}`;
  return (
    <header className="border-b border-stone-300 bg-white">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2">
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <p className="font-semibold">Verdant console{store ? <span className="font-normal"> · {store.name}</span> : null}</p>
        <nav aria-label="Console" className="flex flex-1 flex-wrap items-center gap-1">
          {store && (
            <>
              <NavLink to={`/stores/${store.id}/orders`} end={false} className={linkClass}>
                Orders
              </NavLink>
              <NavLink to={`/stores/${store.id}/menu`} className={linkClass}>
                Menu
              </NavLink>
              {can(staff, 'reports:read') && (
                <NavLink to={`/stores/${store.id}/reports`} className={linkClass}>
                  Reports
                </NavLink>
              )}
              {can(staff, 'settings:write') && (
                <NavLink to={`/stores/${store.id}/settings`} className={linkClass}>
                  Settings
                </NavLink>
              )}
              {can(staff, 'settings:write') && (
                <NavLink to={`/stores/${store.id}/settings-hours`} className={linkClass}>
                  Hours and slots
                </NavLink>
              )}
              {can(staff, 'settings:write') && (
                <NavLink to={`/stores/${store.id}/settings-zones`} className={linkClass}>
                  Delivery zones
                </NavLink>
              )}
              {can(staff, 'settings:write') && (
                <NavLink to={`/stores/${store.id}/settings-limits`} className={linkClass}>
                  Purchase limits
                </NavLink>
              )}
              {can(staff, 'settings:write') && (
                <NavLink to={`/stores/${store.id}/settings-tax`} className={linkClass}>
                  Tax lines
                </NavLink>
              )}
              {can(staff, 'settings:write') && (
                <NavLink to={`/stores/${store.id}/settings-age`} className={linkClass}>
                  Age check
                </NavLink>
              )}
              {can(staff, 'webhooks:manage') && (
                <NavLink to={`/stores/${store.id}/webhooks`} className={linkClass}>
                  Webhooks
                </NavLink>
              )}
              {/* api-keys:manage: managers and owners, as the server checks it. */}
              {(staff?.role === 'owner' || staff?.role === 'manager') && (
                <NavLink to={`/stores/${store.id}/api-keys`} className={linkClass}>
                  API keys
                </NavLink>
              )}
            </>
          )}
          {can(staff, 'staff:manage') && (
            <NavLink to="/staff" className={linkClass}>
              Staff
            </NavLink>
          )}
          <NavLink to="/account" className={linkClass}>
            Account
          </NavLink>
          {stores.length > 1 && (
            <NavLink to="/" end className={linkClass}>
              Switch store
            </NavLink>
          )}
        </nav>
        {staff && (
          <div className="flex items-center gap-2">
            <span className="text-stone-700">{staff.name}</span>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => {
                void signOut().finally(() => navigate('/login', { replace: true }));
              }}
            >
              Sign out
            </button>
          </div>
        )}
      </div>
    </header>
  );
}

export interface StoreOutlet {
  store: ConsoleStore;
  /** Bumped on every live order event and reconnect: screens read their data again when it changes. */
  liveTick: number;
  lastEvent: LiveOrderEvent | null;
  liveState: LiveState;
  /** New orders (ids) not opened yet. */
  unseen: ReadonlySet<number>;
  markSeen(orderId: number): void;
  markAllSeen(): void;
  muted: boolean;
  setMuted(muted: boolean): void;
}

export function useStore(): StoreOutlet {
  return useOutletContext<StoreOutlet>();
}

export function StoreLayout() {
  const { storeId } = useParams();
  const { stores } = useSession();
  const store = stores.find((s) => String(s.id) === storeId);
  const [liveTick, setLiveTick] = useState(0);
  const [lastEvent, setLastEvent] = useState<LiveOrderEvent | null>(null);
  const [unseen, setUnseen] = useState<ReadonlySet<number>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const [muted, setMuted] = useMute();

  const onEvent = useCallback(
    (event: LiveOrderEvent) => {
      setLastEvent(event);
      setLiveTick((n) => n + 1);
      if (event.type === 'order.created') {
        setUnseen((set) => new Set(set).add(event.order_id));
        setAnnouncement(`New ${event.order_type} order #${event.increment_id}.`);
        if (!muted) chime();
      }
    },
    [muted],
  );
  const onConnected = useCallback(() => setLiveTick((n) => n + 1), []);
  const liveState = useStoreEvents(store ? store.id : null, onEvent, onConnected);

  // The tab title carries the count of new orders until each is opened (or all marked seen).
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, '');
    document.title = unseen.size > 0 ? `(${unseen.size}) ${base}` : base;
  });

  const context = useMemo<StoreOutlet | null>(
    () =>
      store
        ? {
            store,
            liveTick,
            lastEvent,
            liveState,
            unseen,
            markSeen: (orderId) =>
              setUnseen((set) => {
                if (!set.has(orderId)) return set;
                const next = new Set(set);
                next.delete(orderId);
                return next;
              }),
            markAllSeen: () => setUnseen(new Set()),
            muted,
            setMuted,
          }
        : null,
    [store, liveTick, lastEvent, liveState, unseen, muted, setMuted],
  );

  if (!store || !context) {
    return (
      <>
        <TopBar />
        <main id="main" className="mx-auto max-w-3xl p-6">
          <PageTitle>Store not available</PageTitle>
          <p>
            This store is not one of yours.{' '}
            <Link to="/" className="link">
              Choose one of your stores
            </Link>
          </p>
        </main>
      </>
    );
  }
  return (
    <>
      <TopBar store={store} />
      <div role="status" aria-live="polite" className="sr-only" data-testid="live-announcer">
        {announcement}
      </div>
      <main id="main" className="mx-auto max-w-6xl p-4">
        <Outlet context={context} />
      </main>
    </>
  );
}
