import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import './app.css';
import { CONSOLE_BUNDLE_MARKER } from './marker.ts';
import {
  NavigationStatus,
  PageFallback,
  PageLoadError,
  PassContext,
  prefetchPages,
  page,
  StandaloneFallback,
  StandaloneLoadError,
} from './lib/lazy-routes.tsx';
import { HomeRedirect, Shell, StoreLayout } from './routes/layout.tsx';
import { LoginPage } from './routes/login.tsx';
import { QueuePage } from './routes/queue.tsx';
import { NotFound } from './routes/not-found.tsx';

document.documentElement.dataset.app = CONSOLE_BUNDLE_MARKER;

/**
 * The console's pages. In the entry (loads first): the shell, sign-in, the order queue and "not
 * found". Every other page is a lazy route, a chunk of its own (lib/lazy-routes.tsx), listed here
 * in the order they are fetched once the first page is shown: the order page first, the one a
 * budtender opens next.
 */
const lazyPages = {
  order: page(() => import('./routes/order-detail.tsx'), 'OrderPage'),
  menu: page(() => import('./routes/menu.tsx'), 'MenuPage'),
  account: page(() => import('./routes/account.tsx'), 'AccountPage'),
  reports: page(() => import('./routes/reports.tsx'), 'ReportsPage'),
  analytics: page(() => import('./routes/analytics.tsx'), 'AnalyticsPage'),
  settings: page(() => import('./routes/settings.tsx'), 'SettingsPage'),
  hours: page(() => import('./routes/settings-hours.tsx'), 'HoursSettingsPage'),
  zones: page(() => import('./routes/settings-zones.tsx'), 'ZonesSettingsPage'),
  limits: page(() => import('./routes/settings-limits.tsx'), 'LimitsSettingsPage'),
  tax: page(() => import('./routes/settings-tax.tsx'), 'TaxSettingsPage'),
  age: page(() => import('./routes/settings-age.tsx'), 'AgeSettingsPage'),
  curbside: page(() => import('./routes/settings-curbside.tsx'), 'CurbsideSettingsPage'),
  dealFloor: page(() => import('./routes/settings-deal-floor.tsx'), 'DealFloorSettingsPage'),
  dealDisplay: page(() => import('./routes/settings-deal-display.tsx'), 'DealDisplaySettingsPage'),
  deals: page(() => import('./routes/deals.tsx'), 'DealsPage'),
  deal: page(() => import('./routes/deal-editor.tsx'), 'DealEditorPage'),
  dealCalendar: page(() => import('./routes/deals-calendar.tsx'), 'DealCalendarPage'),
  webhooks: page(() => import('./routes/webhooks.tsx'), 'WebhooksPage'),
  apiKeys: page(() => import('./routes/api-keys.tsx'), 'ApiKeysPage'),
  staff: page(() => import('./routes/staff.tsx'), 'StaffPage'),
  dispatch: page(() => import('./routes/dispatch.tsx'), 'DispatchPage'),
  trip: page(() => import('./routes/dispatch.tsx'), 'TripPage'),
  drivers: page(() => import('./routes/fleet.tsx'), 'DriversPage'),
  vehicles: page(() => import('./routes/fleet.tsx'), 'VehiclesPage'),
  resetPassword: page(() => import('./routes/reset-password.tsx'), 'ResetPasswordPage'),
  // Delivery paperwork (issue 29): one module, four pages.
  deliveryRecords: page(() => import('./routes/delivery-records.tsx'), 'DeliveryRecordsPage'),
  tripManifest: page(() => import('./routes/delivery-records.tsx'), 'TripManifestPage'),
  deliveryReceipt: page(() => import('./routes/delivery-records.tsx'), 'DeliveryReceiptPage'),
  endOfDay: page(() => import('./routes/delivery-records.tsx'), 'EndOfDayPage'),
  recordRetention: page(() => import('./routes/settings-record-retention.tsx'), 'RecordRetentionSettingsPage'),
  dataRetention: page(() => import('./routes/settings-data-retention.tsx'), 'DataRetentionSettingsPage'),
  // Issue 31: the store-wide export (owners).
  storeData: page(() => import('./routes/store-data.tsx'), 'StoreDataPage'),
  loyalty: page(() => import('./routes/settings-loyalty.tsx'), 'LoyaltySettingsPage'),
  // Issue 30: review moderation and the store's switch for reviews.
  reviews: page(() => import('./routes/reviews.tsx'), 'ReviewsPage'),
  // Issue 31: customer records, one module, two pages.
  customers: page(() => import('./routes/customers.tsx'), 'CustomersPage'),
  customer: page(() => import('./routes/customers.tsx'), 'CustomerProfilePage'),
  // The driver's phone (issue 29): one chunk, its layout and pages.
  driverLayout: page(() => import('./routes/driver.tsx'), 'DriverLayout'),
  driverToday: page(() => import('./routes/driver.tsx'), 'DriverTodayPage'),
  driverTrip: page(() => import('./routes/driver.tsx'), 'DriverTripPage'),
  driverEnd: page(() => import('./routes/driver.tsx'), 'DriverEndTripPage'),
};
const lazy = (name: keyof typeof lazyPages) => ({ lazy: lazyPages[name].lazy });

const routes: RouteObject[] = [
  {
    element: (
      <>
        <Shell />
        <NavigationStatus />
      </>
    ),
    children: [
      { path: '/', element: <HomeRedirect /> },
      { path: '/login', element: <LoginPage /> },
      {
        // Pages outside a store: their own fallback and error in a main landmark.
        element: <PassContext />,
        hydrateFallbackElement: <StandaloneFallback />,
        errorElement: <StandaloneLoadError />,
        children: [
          { path: '/reset-password', ...lazy('resetPassword') },
          { path: '/account', ...lazy('account') },
          { path: '/staff', ...lazy('staff') },
        ],
      },
      {
        // The driver's phone (issue 29): its own slim layout, no order alerts; a driver sees only these.
        path: '/stores/:storeId/driver',
        ...lazy('driverLayout'),
        hydrateFallbackElement: <StandaloneFallback />,
        errorElement: <StandaloneLoadError />,
        children: [
          { index: true, ...lazy('driverToday') },
          { path: 'trips/:tripId', ...lazy('driverTrip') },
          { path: 'trips/:tripId/end', ...lazy('driverEnd') },
        ],
      },
      {
        path: '/stores/:storeId',
        element: <StoreLayout />,
        children: [
          {
            // A store's pages: fallback and error inside the store's layout (top bar stays).
            element: <PassContext />,
            hydrateFallbackElement: <PageFallback />,
            errorElement: <PageLoadError />,
            children: [
              { path: 'orders', element: <QueuePage /> },
              { path: 'orders/:orderId', ...lazy('order') },
              { path: 'menu', ...lazy('menu') },
              { path: 'reports', ...lazy('reports') },
              { path: 'analytics', ...lazy('analytics') },
              { path: 'settings', ...lazy('settings') },
              { path: 'settings-hours', ...lazy('hours') },
              { path: 'settings-age', ...lazy('age') },
              { path: 'settings-curbside', ...lazy('curbside') },
              { path: 'settings-deal-floor', ...lazy('dealFloor') },
              { path: 'settings-deal-display', ...lazy('dealDisplay') },
              { path: 'settings-zones', ...lazy('zones') },
              { path: 'settings-limits', ...lazy('limits') },
              { path: 'settings-tax', ...lazy('tax') },
              { path: 'deals', ...lazy('deals') },
              { path: 'deals/:dealId', ...lazy('deal') },
              { path: 'deals-calendar', ...lazy('dealCalendar') },
              { path: 'webhooks', ...lazy('webhooks') },
              { path: 'api-keys', ...lazy('apiKeys') },
              { path: 'delivery-records', ...lazy('deliveryRecords') },
              { path: 'delivery-records/trips/:tripId', ...lazy('tripManifest') },
              { path: 'delivery-records/orders/:orderId/receipt', ...lazy('deliveryReceipt') },
              { path: 'delivery-records/end-of-day', ...lazy('endOfDay') },
              { path: 'settings-record-retention', ...lazy('recordRetention') },
              { path: 'settings-data-retention', ...lazy('dataRetention') },
              { path: 'store-data', ...lazy('storeData') },
              { path: 'settings-loyalty', ...lazy('loyalty') },
              { path: 'reviews', ...lazy('reviews') },
              { path: 'customers', ...lazy('customers') },
              { path: 'customers/:customerId', ...lazy('customer') },
              { path: 'dispatch', ...lazy('dispatch') },
              { path: 'dispatch/trips/:tripId', ...lazy('trip') },
              { path: 'drivers', ...lazy('drivers') },
              { path: 'vehicles', ...lazy('vehicles') },
            ],
          },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

const router = createBrowserRouter(routes, { basename: '/console' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);

prefetchPages(Object.values(lazyPages).map((p) => p.load));
