import { describe, expect, it } from 'vitest';
import { MESSAGES, parseStoresFile } from '@verdant/domain';
import demo from '../../../server/config/stores.demo.json' with { type: 'json' };
import { evaluateAgeGate, LICENSE_TYPE_REQUIRED, outcomeFromSearch, withOutcome, withoutOutcome } from './age-gate.ts';

const file = parseStoresFile(demo);
const store = (code: string) => file.stores.find((s) => s.storeCode === code)!;
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('evaluateAgeGate', () => {
  it('requires the certification, with the spec message', () => {
    const r = evaluateAgeGate(form({ intent: 'enter', licenseType: 'recreational' }), store('downtown'));
    expect(r).toEqual({ ok: false, intent: 'enter', errors: { certify: MESSAGES.ageGateMustCertify } });
    expect(evaluateAgeGate(form({ certify: 'on', licenseType: 'medical' }), store('downtown')).ok).toBe(false);
  });

  it('enters with a certified age and an offered licence type', () => {
    expect(evaluateAgeGate(form({ intent: 'enter', certify: 'yes', licenseType: 'medical' }), store('downtown'))).toEqual({
      ok: true,
      intent: 'enter',
      licenseType: 'medical',
    });
  });

  it('refuses licence types the store does not offer', () => {
    const r = evaluateAgeGate(form({ certify: 'yes', licenseType: 'medical' }), store('eastside'));
    expect(r).toEqual({ ok: false, intent: 'enter', errors: { licenseType: LICENSE_TYPE_REQUIRED } });
    expect(evaluateAgeGate(form({ certify: 'yes', licenseType: 'both' }), store('downtown')).ok).toBe(false);
    expect(evaluateAgeGate(form({ certify: 'yes' }), store('downtown')).ok).toBe(false);
  });

  it("uses a single-licence store's own type when none is sent", () => {
    expect(evaluateAgeGate(form({ certify: 'yes' }), store('wellness'))).toMatchObject({ ok: true, licenseType: 'medical' });
    expect(evaluateAgeGate(form({ certify: 'yes' }), store('eastside'))).toMatchObject({ ok: true, licenseType: 'recreational' });
  });

  it('treats "I am under 21" as a refusal, whatever else is sent', () => {
    expect(evaluateAgeGate(form({ intent: 'refuse', certify: 'yes', licenseType: 'medical' }), store('downtown'))).toEqual({
      ok: false,
      intent: 'refuse',
      refused: true,
    });
  });

  it('changes the licence without the certification', () => {
    expect(evaluateAgeGate(form({ intent: 'license', licenseType: 'medical' }), store('harbor'))).toEqual({
      ok: true,
      intent: 'license',
      licenseType: 'medical',
    });
    expect(evaluateAgeGate(form({ intent: 'license', licenseType: 'medical' }), store('eastside')).ok).toBe(false);
  });
});

describe('the outcome marker of a native age-gate post', () => {
  it('carries a refusal or the fields in error back to the page, keeping its own query', () => {
    const refused = withOutcome('/flower?sort=price#top', { ok: false, intent: 'refuse', refused: true });
    expect(refused).toBe('/flower?sort=price&age_gate=refused#top');
    expect(outcomeFromSearch(new URL(refused, 'http://x').search)).toEqual({ refused: true, errors: { certify: undefined, licenseType: undefined } });

    const both = withOutcome('/', { ok: false, intent: 'enter', errors: { certify: 'x', licenseType: 'y' } });
    const outcome = outcomeFromSearch(new URL(both, 'http://x').search);
    expect(outcome).toEqual({ refused: false, errors: { certify: MESSAGES.ageGateMustCertify, licenseType: LICENSE_TYPE_REQUIRED } });
    expect(withoutOutcome('?sort=price&age_gate=certify')).toBe('?sort=price');
    expect(withoutOutcome('?age_gate=refused')).toBe('');
  });

  it('reads nothing from an address without it, or with a made-up value', () => {
    expect(outcomeFromSearch('?sort=price')).toEqual({ refused: false, errors: { certify: undefined, licenseType: undefined } });
    expect(outcomeFromSearch('?age_gate=<script>')).toEqual({ refused: false, errors: { certify: undefined, licenseType: undefined } });
  });
});
