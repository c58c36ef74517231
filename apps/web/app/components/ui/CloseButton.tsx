import { CloseIcon } from './Icons.tsx';

/** The round × of a dialog or panel; `label` is its accessible name ("Close cart", "Close search"…). */
export function CloseButton({ onClose, label = 'Close' }: { onClose(): void; label?: string }) {
  return (
    <button type="button" onClick={onClose} className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-full hover:bg-stone-100">
      <CloseIcon />
      <span className="sr-only">{label}</span>
    </button>
  );
}
