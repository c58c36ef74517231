import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

interface Props {
  open: boolean;
  onClose: () => void;
  /** Id of the visible title that names the dialog. */
  labelledBy: string;
  className: string;
  /** Focused when the dialog opens (default: a `[data-autofocus]` element, else the first focusable one). */
  initialFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

/**
 * A modal panel on the native <dialog> (spec §2 UI flags: search, wishlist and filter panels turn
 * the overlay on — the ::backdrop is the overlay). showModal() makes the page inert and keeps
 * focus inside; Escape and a click on the overlay close it; focus returns to whatever opened it.
 * The content renders only while open, so a closed panel costs nothing and duplicates no ids.
 *
 * The owner hears of a close synchronously (Escape's 'cancel' event, a click on the overlay), not
 * only from the 'close' event: that one is queued as a task and the browser handles input first, so
 * Escape then Enter on the opener could click it while `open` was still true and nothing reopened.
 * A close we start also counts in `closes`, so the open effect runs again even when the owner's
 * `open` went false and back to true in one batch. A 'close' event that arrives after the dialog
 * was opened again is stale and ignored.
 */
export function Dialog({ open, onClose, labelledBy, className, initialFocus, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const [closes, setCloses] = useState(0);
  const closing = useRef(() => {
    setCloses((n) => n + 1);
    onCloseRef.current();
  }).current;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      const target =
        initialFocus?.current ??
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('input:not([type=hidden]), select, button, a[href], [tabindex]:not([tabindex="-1"])');
      target?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocus, closes]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const handleCancel = () => closing();
    const handleClose = () => {
      if (dialog.open) return;
      onCloseRef.current();
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected) back.focus();
    };
    dialog.addEventListener('cancel', handleCancel);
    dialog.addEventListener('close', handleClose);
    return () => {
      dialog.removeEventListener('cancel', handleCancel);
      dialog.removeEventListener('close', handleClose);
    };
  }, [closing]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      className={className}
      onClick={(event) => {
        // A click on the dialog element itself (not its content) is a click on the overlay.
        if (event.target !== event.currentTarget) return;
        closing();
        event.currentTarget.close();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}

/** The look of a panel that slides in from the right edge (microcart, wishlist): full height, phone-wide. */
export const SIDE_PANEL_CLASS = 'mr-0 ml-auto h-full max-h-none w-full max-w-md overflow-y-auto bg-white p-0 text-stone-900 shadow-2xl';
