import { isLicenseType, MESSAGES, offeredLicenseTypes, type LicenseType, type Store } from '@verdant/domain';

/**
 * The age gate's form contract (spec §1, §5; research §6). One action route (`/age-gate`, also
 * under the store-code prefix) takes three intents:
 *  - `enter`: the certify checkbox is required, the licence type must be one the store offers;
 *    success sets both cookies;
 *  - `refuse` ("I am under 21"): nothing is stored, the store stays locked;
 *  - `license`: the header's licence change; sets the licence cookie only.
 */
export const AGE_GATE_PATH = '/age-gate';

export const AGE_GATE_FIELD = {
  intent: 'intent',
  certify: 'certify',
  licenseType: 'licenseType',
  redirectTo: 'redirectTo',
  /** Present (value `1`) when the browser submitted with a fetcher: answer with data, not a redirect. */
  js: 'js',
  /** Present (value `1`) on the stand-alone gate page's form: failures render on that page. */
  page: 'page',
} as const;

export const CERTIFY_VALUE = 'yes';

/**
 * The header's licence change (components/age-gate/LicenseSwitcher.tsx) and its dialog
 * (LicenseDialog.tsx, loaded on first open) share one fetcher, keyed by this id; the dialog and
 * the stand-alone licence page (routes/age-gate.tsx) carry the same title.
 */
export const LICENSE_SWITCH_ID = 'license-switch';
export const LICENSE_DIALOG_TITLE = 'Change shopping type';

export type AgeGateIntent = 'enter' | 'refuse' | 'license';

export const LICENSE_TYPE_REQUIRED = 'Choose how you are shopping today: Recreational or Medical.';

export interface AgeGateErrors {
  certify?: string;
  licenseType?: string;
}

export type AgeGateResult =
  | { ok: true; intent: 'enter' | 'license'; licenseType: LicenseType }
  | { ok: false; intent: 'refuse'; refused: true }
  | { ok: false; intent: 'enter' | 'license'; errors: AgeGateErrors };

interface FieldSource {
  get(name: string): FormDataEntryValue | null;
}

export function parseIntent(value: unknown): AgeGateIntent {
  return value === 'refuse' || value === 'license' ? value : 'enter';
}

/**
 * Validates an age-gate submission against the store (the server never trusts the browser's own
 * check). A store with one licence type accepts a missing licence field and uses its own type.
 */
export function evaluateAgeGate(fields: FieldSource, store: Pick<Store, 'dispensarySettings'>): AgeGateResult {
  const intent = parseIntent(fields.get(AGE_GATE_FIELD.intent));
  if (intent === 'refuse') return { ok: false, intent, refused: true };

  const offered = offeredLicenseTypes(store);
  const raw = fields.get(AGE_GATE_FIELD.licenseType);
  const chosen = raw == null || raw === '' ? (offered.length === 1 ? offered[0] : null) : raw;
  const errors: AgeGateErrors = {};
  if (intent === 'enter' && fields.get(AGE_GATE_FIELD.certify) !== CERTIFY_VALUE) {
    errors.certify = MESSAGES.ageGateMustCertify;
  }
  if (!isLicenseType(chosen) || !offered.includes(chosen)) errors.licenseType = LICENSE_TYPE_REQUIRED;
  if (errors.certify || errors.licenseType || !isLicenseType(chosen)) return { ok: false, intent, errors };
  return { ok: true, intent, licenseType: chosen };
}

/**
 * An answer sent without the gate's JavaScript (no JS, or a tap before the gate's code arrived) is a
 * native form post. A refusal or a missing field then comes back as a redirect to the page the
 * shopper was on with this marker (`refused`, or the fields in error), so the gate stays the same
 * dialog over the same page and shows the outcome there — a reload keeps it — instead of moving the
 * shopper to the stand-alone gate page. Nothing is stored (spec §1). The stand-alone page's own form
 * (`page=1`) keeps its answers on that page.
 */
export const AGE_GATE_OUTCOME_PARAM = 'age_gate';
const REFUSED = 'refused';

export type AgeGateFailure = Extract<AgeGateResult, { ok: false }>;

export function withOutcome(path: string, result: AgeGateFailure): string {
  const url = new URL(path, 'http://x');
  const value =
    'refused' in result
      ? REFUSED
      : [result.errors.certify ? 'certify' : '', result.errors.licenseType ? 'license' : ''].filter(Boolean).join(',');
  url.searchParams.set(AGE_GATE_OUTCOME_PARAM, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The outcome a marker in the address carries (nothing when there is none). */
export function outcomeFromSearch(search: string): { refused: boolean; errors: AgeGateErrors } {
  const value = new URLSearchParams(search).get(AGE_GATE_OUTCOME_PARAM) ?? '';
  const parts = value.split(',');
  return {
    refused: value === REFUSED,
    errors: {
      certify: parts.includes('certify') ? MESSAGES.ageGateMustCertify : undefined,
      licenseType: parts.includes('license') ? LICENSE_TYPE_REQUIRED : undefined,
    },
  };
}

/** The search string without the marker ('' or '?…'). */
export function withoutOutcome(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(AGE_GATE_OUTCOME_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** What the age-gate action answers (fetcher data, or the stand-alone page's action data). */
export interface AgeGateActionData {
  result: AgeGateResult;
  redirectTo: string;
}
