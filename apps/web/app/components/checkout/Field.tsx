import type { InputHTMLAttributes } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  hint?: string;
}

/**
 * A labelled text field whose message sits right under it (spec §5 messages), tied to the input
 * with aria-invalid and aria-describedby so a screen reader reads it with the field.
 */
export function Field({ id, label, value, onChange, error, hint, className, ...input }: Props) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-stone-900">
        {label}
        {input.required ? <span className="font-normal text-stone-600"> (required)</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className="mt-1 block min-h-11 w-full rounded-lg border border-stone-400 bg-white px-3 text-stone-900 aria-invalid:border-red-700 aria-invalid:ring-1 aria-invalid:ring-red-700 disabled:bg-stone-100 disabled:text-stone-600"
        {...input}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

export const sectionClass = 'rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6';
export const sectionTitleClass = 'font-display text-xl font-bold text-stone-900';

/** A field's error under it; the field points at it with aria-describedby=`{id}-error`. */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  return error ? (
    <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
      {error}
    </p>
  ) : null;
}
