import { LICENSE_LABELS, type LicenseType } from '@verdant/domain';
import { AGE_GATE_FIELD } from '../../lib/age-gate.ts';

interface Props {
  idPrefix: string;
  licenseTypes: LicenseType[];
  defaultValue: LicenseType;
  error?: string;
  /** In a dialog: the checked licence takes the focus when it opens (components/ui/Dialog.tsx `data-autofocus`). */
  autoFocusChecked?: boolean;
}

export const LICENSE_LEGEND = 'How are you shopping today?';
export const MEDICAL_HELP = 'Requires a valid medical card at checkout.';

/**
 * The licence part of the age gate, reused by the header's licence change. A store with both
 * licence types gets a radio group; a single-licence store just says which customers it serves.
 */
export function LicenseChoice({ idPrefix, licenseTypes, defaultValue, error, autoFocusChecked }: Props) {
  if (licenseTypes.length === 1) {
    const only = licenseTypes[0];
    return (
      <div className="rounded-xl bg-stone-100 px-4 py-3 text-sm text-stone-800">
        <input type="hidden" name={AGE_GATE_FIELD.licenseType} value={only} />
        <p>
          This store serves <strong>{LICENSE_LABELS[only].toLowerCase()}</strong> customers.
          {only === 'medical' ? ` A valid medical card is required at checkout.` : null}
        </p>
      </div>
    );
  }
  const errorId = `${idPrefix}-license-error`;
  const helpId = `${idPrefix}-medical-help`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-semibold text-stone-900">{LICENSE_LEGEND}</legend>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {licenseTypes.map((lt) => (
          <label
            key={lt}
            className="flex cursor-pointer items-start gap-3 rounded-xl border-2 border-stone-200 bg-white px-4 py-3 has-[:checked]:border-brand has-[:checked]:bg-brand/5 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-ink"
          >
            <input
              type="radio"
              name={AGE_GATE_FIELD.licenseType}
              value={lt}
              defaultChecked={lt === defaultValue}
              data-autofocus={autoFocusChecked && lt === defaultValue ? '' : undefined}
              aria-describedby={lt === 'medical' ? helpId : undefined}
              className="mt-1 size-4 shrink-0 accent-brand focus-visible:outline-none"
            />
            <span>
              <span className="block font-semibold text-stone-900">{LICENSE_LABELS[lt]}</span>
              {lt === 'medical' ? (
                <span id={helpId} className="block text-sm text-stone-600">
                  {MEDICAL_HELP}
                </span>
              ) : (
                <span className="block text-sm text-stone-600">Adult use, 21 and older.</span>
              )}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
