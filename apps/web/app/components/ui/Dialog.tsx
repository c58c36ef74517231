import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

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
 */
export function Dialog({ open, onClose, labelledBy, className, initialFocus, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

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
  }, [open, initialFocus]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const handleClose = () => {
      onCloseRef.current();
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected) back.focus();
    };
    dialog.addEventListener('close', handleClose);
    return () => dialog.removeEventListener('close', handleClose);
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      className={className}
      onClick={(event) => {
        // A click on the dialog element itself (not its content) is a click on the overlay.
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}

/** The look of a panel that slides in from the right edge (microcart, wishlist): full height, phone-wide. */
export const SIDE_PANEL_CLASS = 'mr-0 ml-auto h-full max-h-none w-full max-w-md overflow-y-auto bg-white p-0 text-stone-900 shadow-2xl';
