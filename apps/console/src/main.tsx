import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import './app.css';
import { CONSOLE_BUNDLE_MARKER } from './marker.ts';
import { AccountPage } from './routes/account.tsx';
import { HomeRedirect, Shell, StoreLayout } from './routes/layout.tsx';
import { LoginPage } from './routes/login.tsx';
import { MenuPage } from './routes/menu.tsx';
import { OrderPage } from './routes/order-detail.tsx';
import { QueuePage } from './routes/queue.tsx';
import { ReportsPage } from './routes/reports.tsx';
import { ResetPasswordPage } from './routes/reset-password.tsx';
import { SettingsPage } from './routes/settings.tsx';
import { HoursSettingsPage } from './routes/settings-hours.tsx';
import { AgeSettingsPage } from './routes/settings-age.tsx';
import { ZonesSettingsPage } from './routes/settings-zones.tsx';
import { LimitsSettingsPage } from './routes/settings-limits.tsx';
import { TaxSettingsPage } from './routes/settings-tax.tsx';
import { StaffPage } from './routes/staff.tsx';
import { WebhooksPage } from './routes/webhooks.tsx';
import { ApiKeysPage } from './routes/api-keys.tsx';
import { NotFound } from './routes/not-found.tsx';

document.documentElement.dataset.app = CONSOLE_BUNDLE_MARKER;

const router = createBrowserRouter(
  [
    {
      element: <Shell />,
      children: [
        { path: '/', element: <HomeRedirect /> },
        { path: '/login', element: <LoginPage /> },
        { path: '/reset-password', element: <ResetPasswordPage /> },
        { path: '/account', element: <AccountPage /> },
        { path: '/staff', element: <StaffPage /> },
        {
          path: '/stores/:storeId',
          element: <StoreLayout />,
          children: [
            { path: 'orders', element: <QueuePage /> },
            { path: 'orders/:orderId', element: <OrderPage /> },
            { path: 'menu', element: <MenuPage /> },
            { path: 'reports', element: <ReportsPage /> },
            { path: 'settings', element: <SettingsPage /> },
            { path: 'settings-hours', element: <HoursSettingsPage /> },
            { path: 'settings-age', element: <AgeSettingsPage /> },
            { path: 'settings-zones', element: <ZonesSettingsPage /> },
            { path: 'settings-limits', element: <LimitsSettingsPage /> },
            { path: 'settings-tax', element: <TaxSettingsPage /> },
            { path: 'webhooks', element: <WebhooksPage /> },
            { path: 'api-keys', element: <ApiKeysPage /> },
          ],
        },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/console' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
