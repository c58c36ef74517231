import { describe, expect, it } from 'vitest';
import { decideMessage, isStartReply, isStopReply, nextAllowedTime, type ConsentRecord, type MessageDecision, type MessageQuestion } from './consent.ts';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';
const g = (purpose: ConsentRecord['purpose'], at: string, channel: ConsentRecord['channel'] = 'sms'): ConsentRecord => ({ channel, purpose, action: 'granted', at });
const w = (purpose: ConsentRecord['purpose'], at: string, channel: ConsentRecord['channel'] = 'sms'): ConsentRecord => ({ channel, purpose, action: 'withdrawn', at });

// 2026-11-20 is PST (UTC−8): 18:00Z is 10:00 local.
const NOON_LA = new Date('2026-11-20T20:00:00Z');

describe('decideMessage', () => {
  const cases: { name: string; q: Partial<MessageQuestion>; want: MessageDecision }[] = [
    { name: 'marketing without any record', q: { purpose: 'marketing', records: [] }, want: { send: false, reason: 'no_consent' } },
    { name: 'marketing with a grant', q: { purpose: 'marketing', records: [g('marketing', '2026-11-01T00:00:00Z')] }, want: { send: true, at: NOON_LA, deferred: false } },
    {
      name: 'marketing granted, then STOP',
      q: { purpose: 'marketing', records: [g('marketing', '2026-11-01T00:00:00Z'), w('marketing', '2026-11-02T00:00:00Z')] },
      want: { send: false, reason: 'withdrawn' },
    },
    {
      name: 'a withdrawal at the same instant as the grant, recorded after it, counts',
      q: { purpose: 'marketing', records: [g('marketing', '2026-11-02T00:00:00Z'), w('marketing', '2026-11-02T00:00:00Z')] },
      want: { send: false, reason: 'withdrawn' },
    },
    {
      name: 'withdrawn, then granted again on a later form',
      q: { purpose: 'marketing', records: [w('marketing', '2026-11-02T00:00:00Z'), g('marketing', '2026-11-03T00:00:00Z')] },
      want: { send: true, at: NOON_LA, deferred: false },
    },
    {
      name: 'rows out of order: the newest counts',
      q: { purpose: 'marketing', records: [w('marketing', '2026-11-05T00:00:00Z'), g('marketing', '2026-11-03T00:00:00Z')] },
      want: { send: false, reason: 'withdrawn' },
    },
    {
      name: 'an e-mail grant does not let an SMS go',
      q: { purpose: 'marketing', records: [g('marketing', '2026-11-01T00:00:00Z', 'email')] },
      want: { send: false, reason: 'no_consent' },
    },
    {
      name: 'a transactional grant does not let marketing go',
      q: { purpose: 'marketing', records: [g('transactional', '2026-11-01T00:00:00Z')] },
      want: { send: false, reason: 'no_consent' },
    },
    { name: 'transactional without records goes', q: { purpose: 'transactional', records: [] }, want: { send: true, at: NOON_LA, deferred: false } },
    {
      name: 'transactional after STOP does not go',
      q: { purpose: 'transactional', records: [w('transactional', '2026-11-02T00:00:00Z')] },
      want: { send: false, reason: 'withdrawn' },
    },
    {
      name: 'marketing at 22:30 local waits for 08:00 the next day',
      q: { purpose: 'marketing', records: [g('marketing', '2026-11-01T00:00:00Z')], now: new Date('2026-11-21T06:30:00Z') },
      want: { send: true, at: new Date('2026-11-21T16:00:00Z'), deferred: true },
    },
    {
      name: 'marketing at 06:00 local waits for 08:00 the same day',
      q: { purpose: 'marketing', records: [g('marketing', '2026-11-01T00:00:00Z')], now: new Date('2026-11-20T14:00:00Z') },
      want: { send: true, at: new Date('2026-11-20T16:00:00Z'), deferred: true },
    },
    {
      name: 'transactional at 22:30 local goes at once',
      q: { purpose: 'transactional', records: [], now: new Date('2026-11-21T06:30:00Z') },
      want: { send: true, at: new Date('2026-11-21T06:30:00Z'), deferred: false },
    },
    {
      name: 'the same instant is quiet in New York (23:00) and not in Los Angeles (20:00)',
      q: { purpose: 'marketing', records: [g('marketing', '2026-11-01T00:00:00Z')], now: new Date('2026-11-21T04:00:00Z'), timeZone: NY },
      want: { send: true, at: new Date('2026-11-21T13:00:00Z'), deferred: true },
    },
    {
      name: 'a store’s stricter window (Florida: 20:00–08:00)',
      q: { purpose: 'marketing', records: [g('marketing', '2026-11-01T00:00:00Z')], now: new Date('2026-11-21T04:30:00Z'), quietHours: { start: '20:00', end: '08:00' } },
      want: { send: true, at: new Date('2026-11-21T16:00:00Z'), deferred: true },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(decideMessage({ channel: 'sms', purpose: 'marketing', records: [], now: NOON_LA, timeZone: LA, ...c.q })).toEqual(c.want);
    });
});

describe('nextAllowedTime', () => {
  const cases: [string, string, string][] = [
    // [now (UTC), zone, expected (UTC)]
    ['2026-11-20T16:00:00Z', LA, '2026-11-20T16:00:00Z'], // 08:00 exactly: allowed
    ['2026-11-21T04:59:00Z', LA, '2026-11-21T04:59:00Z'], // 20:59: allowed
    ['2026-11-21T05:00:00Z', LA, '2026-11-21T16:00:00Z'], // 21:00: quiet until 08:00
    ['2026-11-21T07:59:00Z', LA, '2026-11-21T16:00:00Z'], // 23:59
    ['2026-11-21T08:00:00Z', LA, '2026-11-21T16:00:00Z'], // 00:00
    ['2026-03-08T09:30:00Z', LA, '2026-03-08T15:00:00Z'], // 01:30 PST on the spring-forward night: 08:00 PDT
    ['2026-11-01T07:30:00Z', LA, '2026-11-01T16:00:00Z'], // 00:30 PDT on the fall-back night: 08:00 PST
  ];
  for (const [now, zone, want] of cases)
    it(`${now} in ${zone} → ${want}`, () => {
      expect(nextAllowedTime(new Date(now), zone).toISOString()).toBe(new Date(want).toISOString());
    });
});

describe('isStopReply', () => {
  it.each([
    ['STOP', true],
    [' stop ', true],
    ['Unsubscribe', true],
    ['stop please', false],
    ['YES', false],
  ])('%s → %s', (text, want) => expect(isStopReply(text)).toBe(want));
});

describe('isStartReply', () => {
  it.each([
    ['START', true],
    [' unstop ', true],
    ['start please', false],
    ['STOP', false],
  ])('%s → %s', (text, want) => expect(isStartReply(text)).toBe(want));
});
