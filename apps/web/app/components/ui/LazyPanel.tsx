import { Component, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { notify } from '../../state/notifications.ts';

/**
 * A panel (modal dialog) whose code loads only when a shopper first opens it: most page views
 * never open the cart, search, wishlist or licence panel, so their code stays out of the initial
 * JavaScript. `preload` starts the download on intent (pointer over, or focus on, the opener), so
 * by the click it is usually there. The loaded panel opens itself on mount (ui/Dialog.tsx moves
 * focus in, and back to the opener on close), exactly as the eagerly loaded one did.
 *
 * A failed download (a flaky phone connection) must not take the page down with it: the panel
 * renders nothing, says so, and the next opening tries again.
 */
export function lazyPanel<P extends object>(load: () => Promise<ComponentType<P>>) {
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    pending ??= load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  let Loaded = lazy(preload);
  const retry = () => {
    Loaded = lazy(preload);
  };

  /** `onLoadError` should close the panel (set `open` back to false), so that the next opening is a new attempt. */
  function Panel({ load: { wanted, attempt }, onLoadError, ...props }: P & { load: PanelLoad; onLoadError: () => void }) {
    if (!wanted) return null;
    return (
      <LoadBoundary
        attempt={attempt}
        onError={() => {
          retry();
          onLoadError();
        }}
      >
        <Suspense fallback={null}>
          <Loaded {...(props as unknown as P)} />
        </Suspense>
      </LoadBoundary>
    );
  }
  return { Panel, preload };
}

export interface PanelLoad {
  /** The panel has been opened at least once: its code is (being) loaded and stays mounted. */
  wanted: boolean;
  /** Counts openings, so an opening after a failed download tries again. */
  attempt: number;
}

export function usePanelLoad(open: boolean): PanelLoad {
  const [state, setState] = useState<PanelLoad>({ wanted: false, attempt: 0 });
  useEffect(() => {
    if (open) setState((s) => ({ wanted: true, attempt: s.attempt + 1 }));
  }, [open]);
  return state;
}

interface BoundaryProps {
  attempt: number;
  onError: () => void;
  children: ReactNode;
}

class LoadBoundary extends Component<BoundaryProps, { failed: boolean; failedAt: number }> {
  state = { failed: false, failedAt: -1 };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { failed: boolean; failedAt: number }) {
    return state.failed && state.failedAt !== -1 && props.attempt !== state.failedAt ? { failed: false, failedAt: -1 } : null;
  }

  componentDidCatch() {
    this.props.onError();
    this.setState({ failedAt: this.props.attempt });
    notify({ type: 'error', message: 'This panel could not be loaded. Check your connection and try again.' });
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
