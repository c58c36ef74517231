import { Outlet } from 'react-router';
import { DefaultChrome } from '../components/layout/Chrome.tsx';
import { layoutClientLoader, layoutErrorBoundary, layoutLoader, layoutMeta } from './shared.tsx';

/** Default layout (spec §2): header, main, footer. */
export const loader = layoutLoader;
export const clientLoader = layoutClientLoader;
export const meta = layoutMeta;

export default function DefaultLayout() {
  return (
    <DefaultChrome>
      <Outlet />
    </DefaultChrome>
  );
}

export const ErrorBoundary = layoutErrorBoundary(DefaultChrome);
