import { Outlet } from 'react-router';
import { MinimalChrome } from '../components/layout/Chrome.tsx';
import { layoutClientLoader, layoutErrorBoundary, layoutLoader, layoutMeta } from './shared.tsx';

/** Minimal layout (spec §2): logo and main; used by /error. */
export const loader = layoutLoader;
export const clientLoader = layoutClientLoader;
export const meta = layoutMeta;

export default function MinimalLayout() {
  return (
    <MinimalChrome>
      <Outlet />
    </MinimalChrome>
  );
}

export const ErrorBoundary = layoutErrorBoundary(MinimalChrome);
