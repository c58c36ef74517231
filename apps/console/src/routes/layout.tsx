import { Fragment, useEffect, useMemo, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import { Loading, PageTitle } from '../components/ui.tsx';
import { AlertsProvider, storeAlerts, useAlerts, useOptionalAlerts, waitingText, type StoreAlerts } from '../lib/alerts.tsx';
import { can, SessionProvider, useSession } from '../lib/session.tsx';
import type { ConsoleStore } from '../lib/types.ts';
import { zoneLabel } from '../lib/format.ts';

const PUBLIC_PATHS = new Set(['/login', '/reset-password']);
/** A driver login (issue 29) sees only its phone's pages and its account. */
const DRIVER_PATH = /^\/(?:stores\/\d+\/driver(?:\/|$)|account$)/;

/** Sets the tab title: `Page · Verdant console`. */
export function useTitle(title: string): void {
  // With the count of new orders in front while any waits unopened (lib/alerts.tsx).
  const count = useOptionalAlerts()?.unseen.size ?? 0;
  useEffect(() => {
    document.title = `${count > 0 ? `(${count}) ` : ''}${title} · Verdant console`;
  }, [title, count]);
}

export function Shell() {
  return (
    <SessionProvider>
      <Guard />
    </SessionProvider>
  );
}

function Guard() {
  const { staff, stores, checking } = useSession();
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
  // A driver: its trips (the store's own, or the choice of stores), never the order pages or their alerts.
  if (staff?.role === 'driver') {
    if (DRIVER_PATH.test(location.pathname) || PUBLIC_PATHS.has(location.pathname)) return <Outlet />;
    return stores.length === 1 ? <Navigate to={`/stores/${stores[0].id}/driver`} replace /> : <DriverStores />;
  }
  // Signed in: one live stream and the new-order alerts for every page (issue 26).
  if (staff)
    return (
      <AlertsProvider>
        <Outlet />
      </AlertsProvider>
    );
  return <Outlet />;
}

/** A driver of several stores (or none): which store's trips. */
function DriverStores() {
  const { stores } = useSession();
  useTitle('Choose a store');
  return (
    <main id="main" className="mx-auto max-w-xl p-4">
      <PageTitle>Choose a store</PageTitle>
      {stores.length === 0 ? (
        <p>No store is assigned to you yet. Ask a manager to add you to a store.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Your stores">
          {stores.map((store) => (
            <li key={store.id}>
              <Link to={`/stores/${store.id}/driver`} className="card block text-lg font-semibold text-green-900 underline">
                {store.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
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

/** Header of every signed-in page: who is signed in, the member's pages and sign-out, and the new-order alerts. */
export function TopBar({ store: storeProp }: { store?: ConsoleStore }) {
  const { staff, stores, signOut } = useSession();
  // A driver has no order alerts (issue 29): the bar then shows its account and its trips only.
  const alerts = useOptionalAlerts();
  // Staff and Account pages keep the store last worked in: its Orders and the rest stay one click away.
  const store = storeProp ?? alerts?.store ?? undefined;
  const navigate = useNavigate();
  const location = useLocation();
  // Phones: the pages behind a disclosure button; closed again after every navigation.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);
  const onQueue = !!store && location.pathname === `/stores/${store.id}/orders`;
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `block rounded px-2 py-2 md:py-1 ${isActive ? 'bg-green-800 text-white' : 'text-stone-900 underline hover:bg-stone-100'}`;
  const item = (to: string, label: string, end = true) => (
    <li>
      <NavLink to={to} end={end} className={linkClass}>
        {label}
      </NavLink>
    </li>
  );
  return (
    <>
      <header className="border-b border-stone-300 bg-white">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:bg-white focus:p-2">
          Skip to content
        </a>
        {onQueue && (
          <a
            href="#orders-list"
            className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:bg-white focus:p-2"
            onClick={(event) => {
              // Straight to the current order of the list (its roving focus, queue.tsx).
              const target = document.querySelector<HTMLElement>('#orders-list a[tabindex="0"]');
              if (target) {
                event.preventDefault();
                target.focus();
              }
            }}
          >
            Skip to the orders list
          </a>
        )}
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <p className="min-w-0 font-semibold">
            Verdant console
            {store ? (
              <span className="font-normal">
                {' '}
                · {store.name} <span className="whitespace-nowrap text-stone-700">({zoneLabel(store.timezone)})</span>
              </span>
            ) : null}
          </p>
          <div className="ml-auto flex items-center gap-2">
            {alerts?.store && <MuteButton />}
            <button
              type="button"
              className="btn-secondary md:hidden"
              aria-expanded={menuOpen}
              aria-controls="console-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MenuIcon open={menuOpen} />
              Menu
            </button>
          </div>
          <div id="console-menu" className={`${menuOpen ? 'flex' : 'hidden'} w-full flex-col gap-2 md:flex md:flex-row md:items-center`}>
            <nav aria-label="Console" className="md:flex-1">
              <ul className="flex flex-col gap-1 md:flex-row md:flex-wrap md:items-center">
                {store && (
                  <>
                    {item(`/stores/${store.id}/orders`, 'Orders', false)}
                    {item(`/stores/${store.id}/menu`, 'Menu')}
                    {item(`/stores/${store.id}/deals`, 'Deals', false)}
                    {/* Issue 29: delivery dispatch (budtenders read it; a driver has its own view). */}
                    {staff?.role !== 'driver' && item(`/stores/${store.id}/dispatch`, 'Dispatch', false)}
                    {/* Issue 31: customers:lookup (everyone but drivers; budtenders get the counter view). */}
                    {staff?.role !== 'driver' && item(`/stores/${store.id}/customers`, 'Customers', false)}
                    {can(staff, 'reports:read') && item(`/stores/${store.id}/reports`, 'Reports')}
                    {/* Issue 31: analytics (owners and managers). */}
                    {can(staff, 'reports:read') && item(`/stores/${store.id}/analytics`, 'Analytics')}
                    {/* Issue 30: reviews:moderate (managers and owners, as the server checks it). */}
                    {can(staff, 'reviews:moderate') && item(`/stores/${store.id}/reviews`, 'Reviews')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings`, 'Settings')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-hours`, 'Hours and slots')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-zones`, 'Delivery zones')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-limits`, 'Purchase limits')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-tax`, 'Tax lines')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-age`, 'Age check')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-curbside`, 'Curbside pickup')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-deal-floor`, 'Lowest deal price')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-deal-display`, 'Deal display')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-loyalty`, 'Loyalty')}
                    {item(`/stores/${store.id}/delivery-records`, 'Delivery records', false)}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-record-retention`, 'Record retention')}
                    {can(staff, 'settings:write') && item(`/stores/${store.id}/settings-data-retention`, 'Data retention')}
                    {/* store:export: owners only, as the server checks it (issue 31). */}
                    {staff?.role === 'owner' && item(`/stores/${store.id}/store-data`, 'Download store data')}
                    {can(staff, 'webhooks:manage') && item(`/stores/${store.id}/webhooks`, 'Webhooks')}
                    {/* api-keys:manage: managers and owners, as the server checks it. */}
                    {(staff?.role === 'owner' || staff?.role === 'manager') && item(`/stores/${store.id}/api-keys`, 'API keys')}
                  </>
                )}
                {staff?.role === 'driver' && stores.map((s) => <Fragment key={s.id}>{item(`/stores/${s.id}/driver`, stores.length > 1 ? `Trips · ${s.name}` : 'Trips', false)}</Fragment>)}
                {can(staff, 'staff:manage') && item('/staff', 'Staff')}
                {item('/account', 'Account')}
                {stores.length > 1 && staff?.role !== 'driver' && item('/', 'Switch store')}
              </ul>
            </nav>
            {staff && (
              <div className="flex flex-wrap items-center gap-2">
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
        </div>
      </header>
      {alerts && <NewOrdersBar />}
    </>
  );
}

function BellIcon({ off = false }: { off?: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      {off && <path d="M3 3l18 18" />}
    </svg>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="mr-1 size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 6h16M4 12h16M4 18h16" />}
    </svg>
  );
}

/** Sound on or off for this tab's session: a toggle whose state shows (icon, colours, aria-pressed). */
function MuteButton() {
  const { muted, setMuted } = useAlerts();
  return (
    <button
      type="button"
      aria-pressed={muted}
      onClick={() => setMuted(!muted)}
      className={`inline-flex min-h-10 items-center gap-1 rounded border px-3 py-2 font-semibold ${
        muted ? 'border-stone-900 bg-stone-800 text-white hover:bg-stone-900' : 'border-stone-500 bg-white text-stone-900 hover:bg-stone-100'
      }`}
    >
      <BellIcon off={muted} />
      Mute sound
      <span className="sr-only md:not-sr-only md:font-normal">{muted ? ' (muted)' : ' (sound on)'}</span>
    </button>
  );
}

/**
 * On every signed-in page: the orders nobody opened yet, how long each has waited, links to open
 * them, and the offer of system notifications (asked on a click, as browsers require).
 */
function NewOrdersBar() {
  const { store, newOrders, now, notifications, enableNotifications, markAllSeen, announcements } = useAlerts();
  const location = useLocation();
  const onQueue = !!store && location.pathname === `/stores/${store.id}/orders`;
  return (
    <>
      <div role="status" aria-live="polite" className="sr-only" data-testid="live-announcer">
        {announcements.map((a) => (
          <p key={a.id}>{a.text}</p>
        ))}
      </div>
      {store && newOrders.length > 0 && (
        <section aria-labelledby="new-orders-title" className="border-b border-amber-400 bg-amber-50">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
            <h2 id="new-orders-title" className="flex items-center gap-1 font-semibold">
              <BellIcon />
              {newOrders.length === 1 ? '1 new order' : `${newOrders.length} new orders`} waiting
            </h2>
            <ul className="flex flex-wrap gap-x-4 gap-y-1" aria-label="New orders">
              {/* Newest first: the order the chime just rang for is always in view; the longest-waiting
                  ones are first in the queue itself ("waiting N min", sortable by slot). */}
              {[...newOrders].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id).slice(0, 5).map((o) => (
                <li key={o.id}>
                  {/* On the queue the rows below are the links; elsewhere each new order opens from here. */}
                  {onQueue ? (
                    <strong>#{o.increment_id}</strong>
                  ) : (
                    <Link to={`/stores/${store.id}/orders/${o.id}`} className="link font-semibold">
                      #{o.increment_id}
                    </Link>
                  )}{' '}
                  <span className="text-sm">
                    {o.order_type} · {waitingText(o.created_at, now)}
                  </span>
                </li>
              ))}
              {newOrders.length > 5 && <li className="text-sm">and {newOrders.length - 5} more in the queue</li>}
            </ul>
            <div className="flex flex-wrap gap-2 md:ml-auto">
              {notifications === 'default' && (
                <button type="button" className="btn-ghost" onClick={enableNotifications}>
                  Turn on desktop alerts
                </button>
              )}
              <button type="button" className="btn-ghost" onClick={markAllSeen}>
                Mark all as seen
              </button>
            </div>
          </div>
        </section>
      )}
      {store && newOrders.length === 0 && notifications === 'default' && (
        <div className="mx-auto flex max-w-6xl justify-end px-4 pt-2">
          <button type="button" className="btn-ghost text-sm" onClick={enableNotifications}>
            Turn on desktop alerts for new orders
          </button>
        </div>
      )}
    </>
  );
}

/** A store's pages get the store and its alerts (lib/alerts.tsx: the one place the alerts' shape is declared). */
export type StoreOutlet = StoreAlerts & { store: ConsoleStore };

export function useStore(): StoreOutlet {
  return useOutletContext<StoreOutlet>();
}

export function StoreLayout() {
  const { storeId } = useParams();
  const { stores } = useSession();
  const store = stores.find((s) => String(s.id) === storeId);
  // The live stream and the alerts live above every page (lib/alerts.tsx); the store's pages read them here.
  const alerts = useAlerts();
  const same = !!store && alerts.store?.id === store.id;
  const context = useMemo<StoreOutlet | null>(
    () =>
      store
        ? { store, ...storeAlerts(alerts, same) }
        : null,
    [store, same, alerts],
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
      <main id="main" className="mx-auto max-w-6xl p-4">
        <Outlet context={context} />
      </main>
    </>
  );
}
