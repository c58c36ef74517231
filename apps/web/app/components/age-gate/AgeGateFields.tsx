import { type LicenseType } from '@verdant/domain';
import { AGE_GATE_FIELD, CERTIFY_VALUE } from '../../lib/age-gate.ts';
import { LicenseChoice } from './LicenseChoice.tsx';

export const CERTIFY_LABEL = 'I certify that I am 21 years old or older';
export const ENTER_LABEL = 'Enter store';
export const UNDER_21_LABEL = 'I am under 21';

interface Props {
  idPrefix: string;
  licenseTypes: LicenseType[];
  defaultLicenseType: LicenseType;
  redirectTo: string;
  certifyError?: string;
  licenseError?: string;
  /** Add the `js=1` marker (a fetcher submission answers with data instead of a redirect). */
  js?: boolean;
  pending?: boolean;
  onCertifyChange?: (checked: boolean) => void;
}

/** The inside of the age-gate form: the certification, the licence choice and the two answers. */
export function AgeGateFields({
  idPrefix,
  licenseTypes,
  defaultLicenseType,
  redirectTo,
  certifyError,
  licenseError,
  js = false,
  pending = false,
  onCertifyChange,
}: Props) {
  const certifyId = `${idPrefix}-certify`;
  const errorId = `${idPrefix}-certify-error`;
  return (
    <>
      <input type="hidden" name={AGE_GATE_FIELD.redirectTo} value={redirectTo} />
      {js ? <input type="hidden" name={AGE_GATE_FIELD.js} value="1" /> : null}
      <div className="space-y-5">
        <div>
          <div
            className={`flex items-start gap-3 rounded-xl border-2 px-4 py-3 ${certifyError ? 'border-red-700 bg-red-50' : 'border-stone-200'}`}
          >
            <input
              id={certifyId}
              type="checkbox"
              name={AGE_GATE_FIELD.certify}
              value={CERTIFY_VALUE}
              required
              aria-invalid={certifyError ? true : undefined}
              aria-describedby={certifyError ? errorId : undefined}
              onChange={(e) => onCertifyChange?.(e.currentTarget.checked)}
              className="mt-0.5 size-5 shrink-0 accent-brand"
            />
            <label htmlFor={certifyId} className="cursor-pointer font-medium text-stone-900">
              {CERTIFY_LABEL}
            </label>
          </div>
          {certifyError ? (
            <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-red-700">
              {certifyError}
            </p>
          ) : null}
        </div>
        <LicenseChoice
          idPrefix={idPrefix}
          licenseTypes={licenseTypes}
          defaultValue={defaultLicenseType}
          error={licenseError}
        />
        <div className="flex flex-col gap-3 pt-1 sm:flex-row-reverse sm:items-center sm:justify-between">
          <button
            type="submit"
            name={AGE_GATE_FIELD.intent}
            value="enter"
            disabled={pending}
            className="inline-flex min-h-12 items-center justify-center rounded-full bg-brand px-8 text-base font-semibold text-on-brand shadow-sm hover:opacity-90 disabled:opacity-70"
          >
            {ENTER_LABEL}
          </button>
          <button
            type="submit"
            name={AGE_GATE_FIELD.intent}
            value="refuse"
            formNoValidate
            className="inline-flex min-h-12 items-center justify-center rounded-full border border-stone-300 px-6 font-medium text-stone-800 hover:bg-stone-100"
          >
            {UNDER_21_LABEL}
          </button>
        </div>
      </div>
    </>
  );
}
