import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useLocation, useNavigate } from 'react-router';
import { notifications, type Notification, type NotificationAction } from '../../state/notifications.ts';
import { useStorePath } from '../../lib/root-data.ts';
import { headerInset, useLastControl, type Edge, pickEdge } from './notice-placement.ts';

const TONE: Record<Notification['type'], string> = {
  success: 'border-brand bg-white',
  info: 'border-stone-400 bg-white',
  warning: 'border-amber-600 bg-amber-50',
  error: 'border-red-700 bg-red-50',
};

/**
 * The page's notices (spec §4 Notifications, §8): two live regions rendered with the page (so they
 * exist before the first notice) — errors in role="alert", the rest in a polite role="status".
 * Each notice has OK; success notices also Proceed to checkout. Clocks pause while the pointer
 * or focus is inside.
 *
 * Notices sit at the bottom edge, or at the top (below the header while it shows) when the
 * bottom would cover the control the shopper just used (on a phone the product page's quantity and Add to cart are often low on the
 * screen). Notices belong to the page they were raised on: leaving it dismisses them, so none
 * follows the shopper onto checkout.
 */
export function Notifications() {
  const items = useStore(notifications, (s) => s.items);
  const { pause, resume, dismiss } = notifications.getState();
  const { pathname } = useLocation();
  const stackRef = useRef<HTMLDivElement>(null);
  const lastControl = useLastControl(stackRef);
  const [edge, setEdge] = useState<Edge>('bottom');
  const [inset, setInset] = useState(0);

  // Dismiss what was on screen before the page changed (a notice raised with the change stays).
  const shown = useRef<number[]>([]);
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    for (const id of shown.current) dismiss(id);
  }, [pathname, dismiss]);
  useEffect(() => {
    shown.current = items.map((n) => n.id);
  }, [items]);

  // Place the stack away from the control just used, again when the page scrolls or resizes.
  useLayoutEffect(() => {
    if (items.length === 0) return;
    const place = () => {
      const stack = stackRef.current;
      const control = lastControl.current;
      if (!stack) return;
      const top = headerInset();
      setInset(top);
      setEdge((current) => pickEdge(current, stack, control && control.isConnected ? control.getBoundingClientRect() : null, top));
    };
    place();
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
    };
  }, [items, lastControl]);

  const regionClass = 'pointer-events-auto flex flex-col gap-2 empty:hidden';
  return (
    <div
      ref={stackRef}
      data-notices-edge={edge}
      // At the top the stack starts below the header while it is in view (see headerInset).
      style={edge === 'top' ? { top: inset } : undefined}
      className={`pointer-events-none fixed inset-x-0 z-40 flex flex-col items-center gap-2 p-3 sm:items-end sm:p-5 ${edge === 'top' ? '' : 'bottom-0'}`}
      onMouseEnter={pause}
      onMouseLeave={resume}
      onFocus={pause}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) resume();
      }}
    >
      <div role="alert" className={regionClass} data-notifications="alert">
        {items.filter((n) => n.type === 'error').map((n) => (
          <Notice key={n.id} notice={n} />
        ))}
      </div>
      <div role="status" aria-live="polite" className={regionClass} data-notifications="status">
        {items.filter((n) => n.type !== 'error').map((n) => (
          <Notice key={n.id} notice={n} />
        ))}
      </div>
    </div>
  );
}

function Notice({ notice }: { notice: Notification }) {
  const navigate = useNavigate();
  const storePath = useStorePath();
  const dismiss = () => notifications.getState().dismiss(notice.id);
  const act = (action: NotificationAction) => {
    dismiss();
    if (action.href) navigate(storePath(action.href));
  };
  return (
    <div className={`w-full max-w-sm rounded-xl border-l-4 px-4 py-3 text-stone-900 shadow-lg ring-1 ring-stone-200 sm:w-96 ${TONE[notice.type]}`}>
      <p className="text-sm font-medium">{notice.message}</p>
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        {[notice.action1 ?? { label: 'OK' }, notice.action2].map((action) =>
          action ? (
            <button
              key={action.label}
              type="button"
              onClick={() => act(action)}
              className={
                action.href
                  ? 'inline-flex min-h-11 items-center rounded-full bg-brand px-4 text-sm font-semibold text-on-brand hover:opacity-90'
                  : 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-full border border-stone-300 bg-white px-4 text-sm font-medium hover:bg-stone-100'
              }
            >
              {action.label}
            </button>
          ) : null,
        )}
      </div>
    </div>
  );
}
