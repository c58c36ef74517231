import { useEffect, useId, useState } from 'react';

interface Props {
  /** `Quantity of Blue Dream 3.5 g`: names the field; the buttons add "Decrease" / "Increase". */
  label: string;
  value: number;
  onChange(qty: number): void;
  min?: number;
  max?: number;
  disabled?: boolean;
  /** Show the label above the field (product page); the cart keeps it for screen readers only. */
  showLabel?: boolean;
}

/** Spec §5: 'Quantity must be positive integer'. */
export const QTY_MESSAGE = 'Quantity must be positive integer';

/**
 * − [n] + : the buttons change the quantity by one; a typed quantity counts on Enter or when the
 * field is left. Whole numbers from `min` to `max` only; anything else is refused with the spec's
 * message and the last good quantity comes back.
 */
export function QtyStepper({ label, value, onChange, min = 1, max = 99, disabled = false, showLabel = true }: Props) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(String(value)), [value]);

  const commit = () => {
    const n = /^\s*\d+\s*$/.test(draft) ? Number(draft) : NaN;
    if (!Number.isInteger(n) || n < min) {
      setError(QTY_MESSAGE);
      setDraft(String(value));
      return;
    }
    setError(null);
    const next = Math.min(n, max);
    setDraft(String(next));
    if (next !== value) onChange(next);
  };
  const step = (delta: number) => {
    setError(null);
    const next = Math.min(max, Math.max(min, value + delta));
    if (next !== value) onChange(next);
  };
  const buttonClass =
    'inline-flex h-11 w-11 items-center justify-center text-lg font-semibold text-stone-800 hover:bg-stone-100 disabled:cursor-not-allowed disabled:text-stone-400';

  return (
    <div>
      <label htmlFor={id} className={showLabel ? 'mb-1 block text-sm font-semibold text-stone-900' : 'sr-only'}>
        {label}
      </label>
      <div className="inline-flex items-center overflow-hidden rounded-full border border-stone-300 bg-white">
        <button type="button" className={buttonClass} disabled={disabled || value <= min} onClick={() => step(-1)}>
          <span aria-hidden="true">−</span>
          <span className="sr-only">Decrease {label.replace(/^Quantity/, 'quantity')}</span>
        </button>
        <input
          id={id}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          value={draft}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
          className="h-11 w-12 border-x border-stone-300 text-center font-semibold tabular-nums focus-visible:outline-offset-[-3px]"
        />
        <button type="button" className={buttonClass} disabled={disabled || value >= max} onClick={() => step(1)}>
          <span aria-hidden="true">+</span>
          <span className="sr-only">Increase {label.replace(/^Quantity/, 'quantity')}</span>
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
