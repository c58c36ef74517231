import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES, MESSAGES } from '@verdant/domain';
import { readTrackingForm, refusalOf } from './order-tracking.ts';

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe('readTrackingForm', () => {
  it('trims both fields and upper-cases the number', () => {
    expect(readTrackingForm(form({ number: ' do-100042 ', phone: ' (555) 010-2030 ' }))).toEqual({
      query: { number: 'DO-100042', phone: '(555) 010-2030' },
      errors: null,
    });
  });

  it('asks for both fields and a valid phone number', () => {
    expect(readTrackingForm(form({})).errors).toEqual({ number: MESSAGES.fieldRequired, phone: MESSAGES.fieldRequired });
    expect(readTrackingForm(form({ number: 'DO-1', phone: 'abc' })).errors).toEqual({ phone: FIELD_MESSAGES.phone });
  });
});

describe('refusalOf', () => {
  it('passes on a 4xx text as the server worded it, nothing else', () => {
    expect(refusalOf(Object.assign(new Error('We could not find it.'), { statusCode: 404 }))).toEqual({
      status: 404,
      message: 'We could not find it.',
    });
    expect(refusalOf(Object.assign(new Error('Too many.'), { status: 429 }))).toEqual({ status: 429, message: 'Too many.' });
    expect(refusalOf(Object.assign(new Error('boom'), { statusCode: 500 }))).toBeNull();
    expect(refusalOf(new Error('no status'))).toBeNull();
    expect(refusalOf(null)).toBeNull();
  });
});
