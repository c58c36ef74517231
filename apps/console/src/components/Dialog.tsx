import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native <dialog>: showModal() makes the rest inert and Escape closes it; focus
 * goes to the first field (or the dialog) on open and back to what had it on close.
 */
export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useRef(`dialog-${Math.random().toString(36).slice(2)}`).current;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      const first = dialog.querySelector<HTMLElement>('[data-autofocus], input, select, textarea, button:not([data-close])');
      (first ?? dialog).focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape (the 'cancel' event) and close() both end here: tell the owner, give focus back.
    const closed = () => {
      onClose();
      // Back to the opener, unless the page already put focus somewhere on purpose (e.g. a heading after a move).
      const active = document.activeElement;
      const unplaced = !active || active === document.body || dialog.contains(active);
      if (unplaced && opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    };
    dialog.addEventListener('close', closed);
    return () => dialog.removeEventListener('close', closed);
  }, [onClose]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-stone-900/50"
    >
      {open && (
        <div className="p-5">
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            <button type="button" data-close className="btn-ghost" onClick={() => ref.current?.close()}>
              Close
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
