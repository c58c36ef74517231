/**
 * The console's one date style (issue 26: four formats and the raw zone name showed): every helper
 * reads an instant in the store's zone, a calendar day as that day, and names the zone in words.
 */
import { describe, expect, it } from 'vitest';
import { date, dateTime, dayRange, slotRange, time, zoneLabel } from './format.ts';

const LA = 'America/Los_Angeles';
/** ICU may put narrow or thin spaces around AM/PM and dashes; compare with plain ones. */
const plain = (s: string) => s.replace(/[\u2009\u202f\u00a0]/g, ' ');

describe('console date format', () => {
  it('shows an instant in the store’s zone, in one style', () => {
    const at = '2026-11-25T22:05:00.000Z'; // 2:05 PM in Los Angeles (UTC−8)
    expect(plain(date(at, LA))).toBe('Nov 25, 2026');
    expect(plain(date(at, LA, { weekday: true }))).toBe('Wed, Nov 25, 2026');
    expect(plain(dateTime(at, LA))).toBe('Nov 25, 2026, 2:05 PM');
    expect(plain(time(at, LA))).toBe('2:05 PM');
    // 11:30 PM on the 25th in Los Angeles is already the 26th in New York.
    expect(plain(dateTime('2026-11-26T07:30:00.000Z', LA))).toBe('Nov 25, 2026, 11:30 PM');
    expect(plain(date('2026-11-26T07:30:00.000Z', 'America/New_York'))).toBe('Nov 26, 2026');
    expect(plain(dateTime(new Date('2026-06-15T19:00:00.000Z'), LA))).toBe('Jun 15, 2026, 12:00 PM'); // summer: UTC−7
    expect(plain(dateTime(Date.parse('2026-06-15T19:00:00.000Z'), LA))).toBe('Jun 15, 2026, 12:00 PM');
  });

  it('shows a calendar day as that day, whatever the zone', () => {
    for (const zone of [LA, 'Pacific/Honolulu', 'Asia/Tokyo', 'UTC']) {
      expect(plain(date('2026-11-25', zone))).toBe('Nov 25, 2026');
      expect(plain(date('2026-01-01', zone, { weekday: true }))).toBe('Thu, Jan 1, 2026');
    }
    expect(plain(dayRange('2026-11-19', '2026-11-25'))).toBe('Nov 19 – 25, 2026');
    expect(plain(dayRange('2026-11-25', '2026-11-25'))).toBe('Nov 25, 2026');
    expect(plain(dayRange('2026-12-30', '2027-01-02'))).toBe('Dec 30, 2026 – Jan 2, 2027');
  });

  it('shows a slot with its date once, and over midnight with both dates', () => {
    expect(plain(slotRange('2026-11-25T22:00:00.000Z', '2026-11-25T22:30:00.000Z', LA))).toBe('Nov 25, 2026, 2:00 – 2:30 PM');
    expect(plain(slotRange('2026-11-25T19:30:00.000Z', '2026-11-25T20:30:00.000Z', LA))).toBe('Nov 25, 2026, 11:30 AM – 12:30 PM');
    expect(plain(slotRange('2026-11-26T07:30:00.000Z', '2026-11-26T08:30:00.000Z', LA))).toBe(
      'Nov 25, 2026, 11:30 PM – Nov 26, 2026, 12:30 AM',
    );
    expect(plain(slotRange('2026-11-25T22:00:00.000Z', null, LA))).toBe('Nov 25, 2026, 2:00 PM');
  });

  it('shows a missing or broken value as an em dash', () => {
    for (const v of [null, undefined, '', 'not a date']) {
      expect(date(v, LA)).toBe('—');
      expect(dateTime(v, LA)).toBe('—');
      expect(time(v, LA)).toBe('—');
      expect(slotRange(v, '2026-11-25T22:30:00.000Z', LA)).toBe('—');
    }
  });

  it('names the zone in words, never the raw zone id', () => {
    expect(zoneLabel(LA)).toBe('Pacific time');
    expect(zoneLabel('America/Denver')).toBe('Mountain time');
    expect(zoneLabel('America/New_York')).toBe('Eastern time');
    expect(zoneLabel('America/Chicago')).toBe('Central time');
    expect(zoneLabel('America/Phoenix')).toBe('Mountain standard time');
    expect(zoneLabel('UTC')).toBe('UTC');
    expect(zoneLabel('Etc/UTC')).toBe('UTC');
    for (const zone of [LA, 'America/Denver', 'Europe/Berlin', 'Asia/Kolkata', 'America/Puerto_Rico']) {
      expect(zoneLabel(zone)).not.toContain('/');
      expect(zoneLabel(zone)).toMatch(/time/);
    }
    expect(zoneLabel('Not/A_Zone')).toBe('Not/A_Zone');
  });
});
