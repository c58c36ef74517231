/**
 * Small shared pieces of the account forms: button styles, the form's error line, a file field,
 * the licence radio group and a hook that runs one submission at a time.
 */
import { FieldError } from '../checkout/Field.tsx';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { LICENSE_LABELS, type LicenseType } from '@verdant/domain';
import { ApiError, NetworkError } from '../../api/envelope.ts';

export const primaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90 disabled:opacity-70';
export const secondaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-full border border-stone-300 px-5 font-medium text-stone-800 hover:bg-stone-100 disabled:opacity-70';
export const linkButton = 'inline-flex min-h-11 items-center font-medium text-brand-ink underline underline-offset-2 hover:no-underline';
export const panelTitle = 'font-display text-2xl font-bold text-stone-900';

/** What to tell the shopper about a failed call: the server's words, or that it could not be reached. */
export function errorMessage(error: unknown): string {
  if (error instanceof NetworkError) return 'The store could not be reached. Check your connection and try again.';
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Try again in a few seconds.';
}

/** The form's own error (a refusal of the server), read out at once. */
export function FormError({ message, id }: { message: string | null; id?: string }) {
  return message ? (
    <p id={id} role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
      {message}
    </p>
  ) : null;
}

/**
 * One submission at a time: `run(fn)` sets busy, catches the failure into `error` (the server's
 * words) and returns whether it went through.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const run = useCallback(async (fn: () => Promise<unknown>): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}

/** Focus a field by id on the next frame (after React rendered its error). */
export function focusField(id: string | undefined): void {
  if (!id) return;
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

export const ACCEPTED_DOCUMENTS = '.png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf';

/** A labelled file input with its message, like Field (spec §3 ID and medical card uploads). */
export function FileField({
  id,
  label,
  required,
  error,
  hint = 'PNG, JPEG or PDF, up to 10 MB.',
  onChange,
}: {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: string;
  onChange(file: File | null): void;
}) {
  const described = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-stone-900">
        {label}
        {required ? <span className="font-normal text-stone-600"> (required)</span> : null}
      </label>
      <p id={`${id}-hint`} className="text-xs text-stone-600">
        {hint}
      </p>
      <input
        id={id}
        name={id}
        type="file"
        accept={ACCEPTED_DOCUMENTS}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => onChange(e.currentTarget.files?.[0] ?? null)}
        className="mt-1 block w-full rounded-lg border border-stone-400 bg-white text-sm text-stone-900 file:mr-3 file:min-h-11 file:border-0 file:bg-stone-100 file:px-4 file:font-medium aria-invalid:border-red-700"
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** The licence type radio group (a single-licence store just says which one it is). */
export function LicenseRadios({
  idPrefix,
  licenseTypes,
  value,
  onChange,
  error,
  legend = 'Licence type',
}: {
  idPrefix: string;
  licenseTypes: LicenseType[];
  value: LicenseType | '';
  onChange(value: LicenseType): void;
  error?: string;
  legend?: string;
}) {
  if (licenseTypes.length === 1) {
    return (
      <p className="rounded-xl bg-stone-100 px-4 py-3 text-sm text-stone-800">
        This store serves <strong>{LICENSE_LABELS[licenseTypes[0]].toLowerCase()}</strong> customers.
      </p>
    );
  }
  const errorId = `${idPrefix}-license-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-semibold text-stone-900">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {licenseTypes.map((lt) => (
          <label
            key={lt}
            className="flex cursor-pointer items-center gap-3 rounded-xl border-2 border-stone-200 bg-white px-4 py-3 has-[:checked]:border-brand has-[:checked]:bg-brand/5"
          >
            <input
              type="radio"
              id={`${idPrefix}-${lt}`}
              name={`${idPrefix}-license`}
              value={lt}
              checked={value === lt}
              onChange={() => onChange(lt)}
              className="size-4 shrink-0 accent-brand"
            />
            <span className="font-semibold text-stone-900">{LICENSE_LABELS[lt]}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A titled block of the account page. */
export function Block({ id, title, children, actions }: { id: string; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="font-display text-xl font-bold text-stone-900">
          {title}
        </h2>
        {actions}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}
