import type { ReactNode } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';

interface Props {
  open: boolean;
  onClose: () => void;
  title: string;
  /** The filter panel (from the category page's own code). */
  children: ReactNode;
  resultText: string;
  total: number;
}

/** The phone filter drawer itself, loaded the first time the "Filters" button opens it (./FiltersDrawer.tsx). */
export function FiltersDrawerDialog({ open, onClose, title, children, resultText, total }: Props) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy="filters-drawer-title"
      className="mr-0 ml-auto h-full max-h-none w-full max-w-sm overflow-y-auto bg-white p-0 text-stone-900 shadow-2xl"
    >
      <div className="flex min-h-full flex-col">
        <div className="sticky top-0 z-10 flex items-center justify-between gap-4 border-b border-stone-200 bg-white px-4 py-3">
          <h2 id="filters-drawer-title" className="font-display text-2xl font-bold">
            {title}
          </h2>
          <CloseButton onClose={onClose} label="Close filters" />
        </div>
        <div className="flex-1 px-4 py-4">
          {children}
        </div>
        <div className="sticky bottom-0 border-t border-stone-200 bg-white px-4 py-3">
          <p role="status" aria-live="polite" className="mb-2 text-sm text-stone-700">
            {resultText}
          </p>
          <button
            type="button"
            onClick={onClose}
            className="inline-flex min-h-12 w-full items-center justify-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90"
          >
            {total === 1 ? 'Show 1 product' : `Show ${total} products`}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
