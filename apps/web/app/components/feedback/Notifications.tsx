import { useStore } from 'zustand';
import { useNavigate } from 'react-router';
import { notifications, type Notification, type NotificationAction } from '../../state/notifications.ts';
import { useStorePath } from '../../lib/root-data.ts';

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
 */
export function Notifications() {
  const items = useStore(notifications, (s) => s.items);
  const { pause, resume } = notifications.getState();
  const regionClass = 'pointer-events-auto flex flex-col gap-2 empty:hidden';
  return (
    <div
      className="pointer-events-none fixed inset-x-0 bottom-0 z-40 flex flex-col items-center gap-2 p-3 sm:items-end sm:p-5"
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
