import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A modal on the native <dialog>: showModal() makes the rest inert and Escape closes it; focus
 * goes to the first field (or the dialog) on open and back to what had it on close.
 *
 * The owner's `open` state is told synchronously, on Escape (the 'cancel' event) and on the Close
 * button, not from the 'close' event: that one is queued as a task, and the browser handles input
 * first, so Escape then Enter on the opener could run the opener's click while `open` was still
 * true — the click changed nothing and the dialog stayed shut. A close we start also counts in
 * `closes`, so the open effect runs again even when the owner's `open` went false and back to true
 * in one batch. A 'close' event that arrives after the dialog was opened again is stale and ignored.
 */
export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useRef(`dialog-${Math.random().toString(36).slice(2)}`).current;
  const [closes, setCloses] = useState(0);
  const closing = useRef(() => {
    setCloses((n) => n + 1);
    onCloseRef.current();
  }).current;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      // A field marked data-autofocus first (wherever it is), else the first field.
      const first =
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('input, select, textarea, button:not([data-close])');
      (first ?? dialog).focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, closes]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape: the owner hears it now, before the next key; the browser then closes the dialog.
    const cancelled = () => closing();
    // Back to the opener, unless the page already put focus somewhere on purpose (e.g. a heading after a move).
    const giveFocusBack = () => {
      const active = document.activeElement;
      const unplaced = !active || active === document.body || dialog.contains(active);
      if (unplaced && opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    };
    const closed = () => {
      if (dialog.open) return;
      onCloseRef.current();
      giveFocusBack();
    };
    dialog.addEventListener('cancel', cancelled);
    dialog.addEventListener('close', closed);
    return () => {
      dialog.removeEventListener('cancel', cancelled);
      dialog.removeEventListener('close', closed);
      // Unmounted while open (an owner keyed by what it edits remounts it on close): the browser
      // sends no 'close' event for a removed dialog, so focus goes back here.
      if (dialog.open) {
        dialog.close();
        giveFocusBack();
      }
    };
  }, [closing]);

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
            <button
              type="button"
              data-close
              className="btn-ghost"
              onClick={() => {
                closing();
                ref.current?.close();
              }}
            >
              Close
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
