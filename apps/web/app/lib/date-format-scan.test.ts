/**
 * Spec §1: every date a shopper sees reads M/D/YYYY HH:mm, in the store's time zone, and comes from
 * the one formatter (`formatDateTime`/`formatDate` in packages/domain/src/dates.ts). This scans the
 * shopper's side (the storefront, its service worker, the server's messages and answers, the domain
 * rules they share) and the journeys' expectations for any other way of turning a date into text:
 * `toLocale…String`, `Intl.DateTimeFormat`, date libraries, month-name or 12-hour date literals,
 * and journeys that take their expected text from the product's own formatting code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatDateTime } from '@verdant/domain';
import { describe, expect, it } from 'vitest';
import { readyByText, stepTime } from './order-status.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

/** Where `Intl.DateTimeFormat` may be used, and why (none of them shows its result to anyone). */
const DATE_TIME_FORMAT_ALLOWED: Record<string, string> = {
  'packages/domain/src/dates.ts': 'the one formatter',
  'packages/domain/src/store-hours.ts': 'reads the weekday and minutes of the store clock to decide open/closed',
  'packages/domain/src/medical-card.ts': "today's YYYY-MM-DD in the store zone, compared with the card expiry",
  'packages/domain/src/forms.ts': "today's YYYY-MM-DD in the store zone, for birthday/expiry validation",
  'apps/server/src/users/customers.ts': "today's YYYY-MM-DD in the store zone, for validation",
  'apps/server/src/orders/lifecycle/store-facts.ts': "the zone's UTC offset, to find where a store day starts",
  'packages/domain/src/limits/window.ts': "the store zone's calendar day, where a purchase-limit window starts",
  'packages/domain/src/deals/match.ts': "the store zone's weekday, wall clock and month, for a deal's day, hour and birthday-month windows (nothing shown)",
  'packages/domain/src/hours/slots.ts': "the store zone's wall clock, to turn opening hours into instants (labels use formatDateTime)",
  'apps/server/src/analytics/cells.ts': "the store zone's day and hour an order was placed in, for the analytics rollups (nothing shown)",
  'e2e/fixtures/console.ts': 'storeClock(): the journeys’ own M/D/YYYY HH:mm, worked out independently of the product',
};

const SHOPPER_SIDE = ['apps/web/app', 'apps/web/sw', 'apps/server/src', 'packages/domain/src'];
const JOURNEYS = ['e2e'];

function filesUnder(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { recursive: true, withFileTypes: true }).flatMap((e) => {
    if (!e.isFile() || !/\.(ts|tsx|js|mjs)$/.test(e.name)) return [];
    const rel = path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    return rel.includes('/node_modules/') ? [] : [rel];
  });
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Code without its comments (a rough cut: block comments and `//` comments not inside a URL). */
function code(file: string): string {
  return fs
    .readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every line of `text` matching `pattern`, as `file:line: text`. */
function hits(file: string, text: string, pattern: RegExp): string[] {
  return text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

/** Ways of turning a date into text other than the shared formatter. */
const DATE_TO_TEXT =
  /\.toLocale(Date|Time)?String\(|\.to(Date|Time|UTC|GMT)String\(|RelativeTimeFormat|from ['"](date-fns|dayjs|moment|luxon)/;
const DATE_TIME_FORMAT = /DateTimeFormat\(/;
/** Intl options that only make sense for text a person reads in another format. */
const TEXT_OPTIONS =
  /hour: ['"]numeric['"]|hour12|hourCycle: ['"]h1[12]['"]|month: ['"](short|long|narrow)['"]|weekday: ['"](short|narrow)['"]|dateStyle|timeStyle/;
/** A date written another way: `Nov 25`, `Thu, Nov 26`, `11/25/2026, 5:40 PM`, `Jun 15, 3:30 PM`. */
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\\.?';
const OTHER_DATE_LITERAL = new RegExp(
  `['"\`/][^'"\`]*(\\b${MONTH} \\d{1,2}\\b|\\b\\d{1,2}/\\d{1,2}/\\d{4},? \\d{1,2}:\\d{2}\\s?[AP]M|\\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), ${MONTH})`,
);

describe('every date the shopper sees is M/D/YYYY HH:mm from the one formatter (spec §1)', () => {
  const all = SHOPPER_SIDE.flatMap(filesUnder);
  const shopper = all.filter((f) => !isTest(f));
  /** Unit tests of the shopper side: what they expect the shopper to read. */
  const tests = all.filter(isTest).filter((f) => f !== 'apps/web/app/lib/date-format-scan.test.ts');
  const journeys = JOURNEYS.flatMap(filesUnder);

  it('finds the files it scans', () => {
    expect(shopper).toContain('apps/web/app/lib/order-status.ts');
    expect(shopper).toContain('apps/server/src/notifications/templates.ts');
    expect(journeys).toContain('e2e/fixtures/console.ts');
    expect(journeys).toContain('e2e/tests/order-status.spec.ts');
  });

  it('no shopper-side code or journey turns a date into text another way', () => {
    const found = [...shopper, ...journeys].flatMap((f) => hits(f, code(f), DATE_TO_TEXT));
    expect(found).toEqual([]);
  });

  it('Intl.DateTimeFormat only in the formatter and where nothing is shown', () => {
    const found = [...shopper, ...journeys].filter((f) => DATE_TIME_FORMAT.test(code(f))).filter((f) => !(f in DATE_TIME_FORMAT_ALLOWED));
    expect(found).toEqual([]);
  });

  it('where Intl.DateTimeFormat is allowed it asks for no month names, short weekdays or 12-hour clock', () => {
    const found = Object.keys(DATE_TIME_FORMAT_ALLOWED).flatMap((f) => hits(f, code(f), TEXT_OPTIONS));
    expect(found).toEqual([]);
  });

  it('no shopper text, test or journey expectation writes a date with a month name, a weekday or a 12-hour clock', () => {
    // Staff read the console's own style (`Nov 25, 2026, 2:05 PM`, apps/console/src/lib/format.ts and its
    // format.test.ts, issue 26); a console journey may expect that text. Spec §1's format is the shopper's.
    const shopperJourneys = journeys.filter((f) => !/^e2e\/tests\/console-[^/]+\.spec\.ts$/.test(f));
    const found = [...shopper, ...tests, ...shopperJourneys].flatMap((f) => hits(f, code(f), OTHER_DATE_LITERAL));
    expect(found).toEqual([]);
  });

  it("journeys work out the dates they expect themselves, not with the storefront's formatting code", () => {
    const found = journeys.flatMap((f) => hits(f, code(f), /from ['"][./]*apps\/web\/app\/lib\/order-status/));
    expect(found).toEqual([]);
  });

  it('the order timeline and its ready-by time use the one formatter in the store zone', () => {
    for (const iso of ['2026-01-09T08:05:00.000Z', '2026-03-08T10:30:00.000Z', '2026-11-26T07:59:00.000Z']) {
      for (const zone of ['America/Los_Angeles', 'America/New_York', 'UTC']) {
        expect(stepTime(iso, zone)).toBe(formatDateTime(iso, zone));
        expect(stepTime(iso, zone)).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4} \d{2}:\d{2}$/);
        expect(readyByText(iso, zone)).toBe(`Ready by ${formatDateTime(iso, zone)}`);
      }
    }
  });
});
