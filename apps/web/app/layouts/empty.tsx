import { Outlet } from 'react-router';
import { EmptyChrome } from '../components/layout/Chrome.tsx';
import { layoutClientLoader, layoutErrorBoundary, layoutLoader, layoutMeta } from './shared.tsx';

/** Empty layout (spec §2): no chrome; used by the stand-alone age-gate page. */
export const loader = layoutLoader;
export const clientLoader = layoutClientLoader;
export const meta = layoutMeta;

export default function EmptyLayout() {
  return (
    <EmptyChrome>
      <Outlet />
    </EmptyChrome>
  );
}

export const ErrorBoundary = layoutErrorBoundary(EmptyChrome);
