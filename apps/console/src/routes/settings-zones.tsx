/**
 * Delivery zones (issue 14; the form, issue 26): a store's zones — ZIP lists, distance tiers from
 * the store, GeoJSON polygons — each with its fee, minimum order, free-delivery threshold and
 * estimated time. Edited in a form (amounts in dollars, a fieldset per zone, zones added and
 * removed with buttons, each field's problem named at it as soon as it is left), or as one JSON
 * document for power users (a toggle; polygons are edited there). Both edit one draft: the JSON
 * text, checked with the schema the server validates with (packages/domain/src/zones/), so
 * mistakes are named before saving; the server checks again and its answer is shown as well.
 * Saves over the version read (a save made meanwhile answers 409: the current zones are shown,
 * nothing is overwritten).
 */
import { useEffect, useId, useRef, useState } from 'react';
import {
  amountProblem,
  readDollars,
  readZipList,
  zipListProblem,
  ZONE_MESSAGES,
  zonesSchema,
  type DeliveryZone,
  type DeliveryZones,
} from '@verdant/domain';
import { JsonToggle, jsonShown } from '../components/settings/JsonToggle.tsx';
import { ParsedInput } from '../components/settings/ParsedInput.tsx';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { money } from '../lib/format.ts';
import { useSettingsSection, type FieldProblem, type SettingsSource } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

const FIELD = 'zones-json';
/** The form/JSON switch: where a problem no form field shows is sent (the JSON has it). */
const TOGGLE = 'zones-json-toggle';

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default: the store’s delivery radius at the spec’s fee',
};

// The form edits the zones' JSON as written (amounts in cents there, in dollars in the form).
type RawZone = Record<string, unknown> & { type?: string; name?: unknown };
type Cell = 'name' | 'zips' | 'min_miles' | 'max_miles' | 'fee_incl_tax' | 'fee' | 'minimum_order' | 'free_over' | 'eta_minutes';
const cellField = (i: number, key: Cell) => `zone-${i}-${key}`;
/** Each field's label: shown at the field and naming it in its problem ("Fee including tax: cannot be negative"). */
const LABEL: Record<Cell, string> = {
  name: 'Zone name',
  zips: 'ZIP codes',
  min_miles: 'From (miles)',
  max_miles: 'To (miles)',
  fee_incl_tax: 'Fee including tax ($)',
  fee: 'Fee before tax ($)',
  minimum_order: 'Minimum order ($)',
  free_over: 'Free delivery from ($)',
  eta_minutes: 'Estimated time (minutes)',
};
/** A field's name in its problem: the label without its unit ("Fee including tax: cannot be negative."). */
const named = (key: Cell) => LABEL[key].replace(/ \((\$|minutes)\)$/, '');
const HELP: Partial<Record<Cell, string>> = {
  zips: '5-digit codes, separated by commas',
  fee_incl_tax: 'what the shopper pays, e.g. 5.00',
  minimum_order: '0 for none',
  free_over: 'empty: never free',
};
const MONEY: Cell[] = ['fee_incl_tax', 'fee', 'minimum_order', 'free_over'];

/** The zones of the draft's JSON as written, or null when it is not JSON with a list of zones. */
function rawZones(text: string): RawZone[] | null {
  try {
    const json = JSON.parse(text) as { zones?: unknown };
    return Array.isArray(json?.zones) ? (json.zones as RawZone[]) : null;
  } catch {
    return null;
  }
}

const dollars = (cents: unknown) => (typeof cents === 'number' ? (cents / 100).toFixed(2) : cents == null ? '' : String(cents));
/** Cents from "4", "4.5" or "4.50"; anything else stays as typed (its problem is named at the field). Empty: null. */
function cents(text: string): unknown {
  const read = readDollars(text);
  return read.ok ? read.cents : text;
}
const plainNumber = (text: string): unknown => (/^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : text.trim() === '' ? null : text);

/** What is wrong with one field of a zone as written, in words (null: nothing). */
function cellProblem(zone: RawZone, key: Cell, names: unknown[]): string | null {
  const v = zone[key];
  switch (key) {
    case 'name': {
      const name = typeof v === 'string' ? v.trim() : '';
      if (!name) return 'give the zone a name';
      if (name.length > 80) return 'at most 80 characters';
      return names.filter((n) => typeof n === 'string' && n.trim() === name).length > 1 ? `another zone is called “${name}”: names must differ` : null;
    }
    case 'zips':
      return zipListProblem(v);
    case 'min_miles':
      if (v === undefined || v === null) return null;
      if (typeof v !== 'number' || v < 0) return 'enter miles from the store, 0 or more';
      return typeof zone.max_miles === 'number' && v >= zone.max_miles ? 'must be under the “to” miles' : null;
    case 'max_miles':
      return typeof v === 'number' && v > 0 && v <= 500 ? null : 'enter miles above 0, at most 500';
    case 'eta_minutes':
      return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 7 * 24 * 60 ? null : 'enter whole minutes, 1 to 10080';
    case 'fee': {
      const p = amountProblem(v, true);
      if (p) return p;
      return typeof v === 'number' && typeof zone.fee_incl_tax === 'number' && v > zone.fee_incl_tax
        ? 'cannot be more than the fee including tax'
        : null;
    }
    default:
      return amountProblem(v, key === 'fee_incl_tax');
  }
}

/** The cells a zone of this type shows in the form. */
function cellsOf(zone: RawZone): Cell[] {
  const area: Cell[] = zone.type === 'zips' ? ['zips'] : zone.type === 'distance' ? ['min_miles', 'max_miles'] : [];
  return ['name', ...area, 'fee_incl_tax', 'fee', 'minimum_order', 'free_over', 'eta_minutes'];
}

/** "Zone 2 (Midtown)": where a problem is, in the list of problems. */
const zoneWhere = (zone: RawZone, i: number) => `Zone ${i + 1}${typeof zone.name === 'string' && zone.name.trim() ? ` (${zone.name.trim()})` : ''}`;
const zoneTitle = (zone: RawZone, i: number) => `Zone ${i + 1}${typeof zone.name === 'string' && zone.name.trim() ? `: ${zone.name.trim()}` : ''}`;

/**
 * The draft's problems. As JSON: each of the schema's problems at the JSON editor, naming its place
 * (`zones.1.zips.0: a ZIP code is 5 digits`). In the form: each at its field, naming the field
 * (`ZIP codes: “9460” is not a 5-digit ZIP code`) and listed under its zone; a problem no field
 * shows (a polygon's geometry) is listed and sent to the switch to the JSON.
 */
function problemsOf(text: string, asJson: boolean): FieldProblem[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return [{ field: FIELD, message: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` }];
  }
  const parsed = zonesSchema.safeParse(json);
  const zones = rawZones(text);
  if (asJson || !zones) {
    if (parsed.success) return [];
    return parsed.error.issues.map((issue) => ({ field: FIELD, message: `${issue.path.join('.') || 'document'}: ${issue.message}` }));
  }
  const names = zones.map((z) => z.name);
  const found: FieldProblem[] = [];
  zones.forEach((zone, i) => {
    for (const key of cellsOf(zone)) {
      const problem = cellProblem(zone, key, names);
      if (problem) found.push({ field: cellField(i, key), message: `${named(key)}: ${problem}.`, where: zoneWhere(zone, i) });
    }
  });
  // What the schema finds beyond the form's own checks (a polygon, a field the form does not show).
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const [head, i, key] = issue.path;
      const zone = head === 'zones' && typeof i === 'number' ? zones[i] : undefined;
      const shown = zone && typeof key === 'string' && (cellsOf(zone) as string[]).includes(key);
      if (shown && found.some((p) => p.field === cellField(i as number, key as Cell))) continue;
      if (issue.message === 'zone names must be different' && found.some((p) => p.field.endsWith('-name'))) continue;
      found.push({
        field: shown ? cellField(i as number, key as Cell) : TOGGLE,
        message: shown ? `${named(key as Cell)}: ${issue.message}.` : `${issue.path.join('.') || 'document'}: ${issue.message} (in the JSON)`,
        where: zone ? zoneWhere(zone, i as number) : undefined,
      });
    }
  return found;
}

function where(zone: DeliveryZone): string {
  if (zone.type === 'zips') return `ZIP ${zone.zips.join(', ')}`;
  if (zone.type === 'distance') return zone.min_miles > 0 ? `${zone.min_miles}–${zone.max_miles} miles` : `up to ${zone.max_miles} miles`;
  const rings = zone.geometry.type === 'Polygon' ? 1 : zone.geometry.coordinates.length;
  return `polygon (${rings === 1 ? 'one area' : `${rings} areas`})`;
}

/** A new zone: the spec's fee (4.00 before tax, 5.00 with it), no minimum, never free, about an hour. */
function newZone(type: 'zips' | 'distance', zones: RawZone[]): RawZone {
  const taken = new Set(zones.map((z) => z.name));
  let n = zones.length + 1;
  while (taken.has(`Zone ${n}`)) n++;
  const common = { name: `Zone ${n}`, fee: 400, fee_incl_tax: 500, minimum_order: 0, free_over: null, eta_minutes: 60 };
  return type === 'zips' ? { type, ...common, zips: [] } : { type, ...common, min_miles: 0, max_miles: 5 };
}

export function ZonesSettingsPage() {
  useTitle('Delivery zones');
  const helpId = useId();
  const [asJson, setAsJson] = useState(false);
  // After adding or removing a zone: the field to focus once it is rendered.
  const focusNext = useRef<string | null>(null);
  const form = useSettingsSection<DeliveryZones, string>({
    section: 'zones',
    toDraft: (v) => JSON.stringify(v, null, 2),
    toValue: (text) => JSON.parse(text) as DeliveryZones,
    validate: (text) => problemsOf(text, asJson || rawZones(text) === null),
    validateOnBlur: true,
    savedText: 'Delivery zones saved.',
    staleText: 'Someone saved these zones meanwhile. Their version is shown now; make your change again.',
  });
  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;
  const zones = rawZones(form.draft);
  // The form needs the JSON to parse: while it does not, the JSON editor stays open.
  const showJson = jsonShown(asJson, zones !== null);

  /** Change the draft's zones (only while its JSON parses). */
  function editZones(edit: (zones: RawZone[]) => void) {
    form.setDraft((text) => {
      try {
        const json = JSON.parse(text) as { zones: RawZone[] };
        edit(json.zones);
        return JSON.stringify(json, null, 2);
      } catch {
        return text;
      }
    });
  }
  const editZone = (i: number, key: Cell, value: unknown) =>
    editZones((list) => {
      (list[i] as Record<string, unknown>)[key] = value;
    });
  function addZone(type: 'zips' | 'distance') {
    if (!zones) return;
    focusNext.current = cellField(zones.length, type === 'zips' ? 'zips' : 'max_miles');
    editZones((list) => void list.push(newZone(type, list)));
  }
  function removeZone(i: number) {
    if (!zones) return;
    focusNext.current = zones.length > 1 ? cellField(Math.min(i, zones.length - 2), 'name') : 'zones-add-zips';
    editZones((list) => void list.splice(i, 1));
  }

  const field = (i: number, zone: RawZone, key: Cell) => {
    const id = cellField(i, key);
    const help = HELP[key] ? `${id}-help` : undefined;
    const isMoney = MONEY.includes(key);
    const common = { ...form.fieldProps(id, ...(help ? [help] : [])), className: 'field' };
    return (
      <div key={key} className={key === 'zips' || key === 'name' ? 'sm:col-span-2' : undefined}>
        <label htmlFor={id} className="text-sm font-semibold">
          {LABEL[key]}
        </label>
        {key === 'name' ? (
          <input
            {...common}
            autoComplete="off"
            value={typeof zone.name === 'string' ? zone.name : ''}
            onChange={(e) => editZone(i, 'name', e.target.value)}
          />
        ) : key === 'zips' ? (
          <ParsedInput
            {...common}
            inputMode="numeric"
            autoComplete="off"
            value={zone.zips}
            format={(v) => (Array.isArray(v) ? v.join(', ') : '')}
            parse={readZipList}
            onValue={(v) => editZone(i, 'zips', v)}
          />
        ) : (
          <ParsedInput
            {...common}
            inputMode={isMoney || key.endsWith('miles') ? 'decimal' : 'numeric'}
            autoComplete="off"
            value={zone[key]}
            format={isMoney ? dollars : (v) => (v == null ? '' : String(v))}
            parse={isMoney ? (t) => (key === 'minimum_order' && t.trim() === '' ? 0 : cents(t)) : plainNumber}
            onValue={(v) => editZone(i, key, v)}
          />
        )}
        {help && (
          <p id={help} className="text-sm text-stone-700">
            {HELP[key]}
          </p>
        )}
        <FieldProblems form={form} field={id} />
      </div>
    );
  };

  return (
    <>
      <PageTitle>Delivery zones</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        The checkout finds the zone of a delivery address from its ZIP code; the first zone listed that contains it is used. An address
        outside every zone is refused and pickup is offered. These zones are {SOURCE[current.source]}.
      </p>
      <div className="card mb-4 max-w-4xl overflow-x-auto" role="region" aria-label="Zones now, scrollable" tabIndex={0}>
        <table className="data-table">
          <caption className="text-left font-semibold">Zones now</caption>
          <thead>
            <tr>
              <th scope="col">Zone</th>
              <th scope="col">Where</th>
              <th scope="col">Fee incl. tax</th>
              <th scope="col">Minimum order</th>
              <th scope="col">Free from</th>
              <th scope="col">Estimated time</th>
            </tr>
          </thead>
          <tbody>
            {current.value.zones.length === 0 && (
              <tr>
                <td colSpan={6}>No zones: the store offers pickup only.</td>
              </tr>
            )}
            {current.value.zones.map((zone) => (
              <tr key={zone.name}>
                <th scope="row" className="font-normal">
                  {zone.name}
                </th>
                <td>{where(zone)}</td>
                <td>{money(zone.fee_incl_tax)}</td>
                <td>{zone.minimum_order > 0 ? money(zone.minimum_order) : 'none'}</td>
                <td>{zone.free_over != null ? money(zone.free_over) : 'never free'}</td>
                <td>{ZONE_MESSAGES.eta(zone)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <SettingsForm form={form} label="Delivery zones" problemsTitle="The zones were not saved:" className="grid max-w-4xl gap-4" noValidate>
        <JsonToggle
          id={TOGGLE}
          asJson={asJson}
          parses={zones !== null}
          onChange={setAsJson}
          formHint={'Amounts in dollars. Polygon zones are edited as JSON.'}
          jsonHint={'For power users: amounts in cents, polygons as GeoJSON.'}
        />
        {!showJson && zones && (
          <>
            {zones.length === 0 && <p>No zones: the store offers pickup only.</p>}
            {zones.map((zone, i) => (
              <fieldset key={i} className="card grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                <legend className="px-1 font-semibold">
                  {zoneTitle(zone, i)}{' '}
                  <span className="font-normal text-stone-700">
                    ({zone.type === 'zips' ? 'ZIP codes' : zone.type === 'distance' ? 'distance from the store' : 'polygon'})
                  </span>
                </legend>
                {cellsOf(zone).map((key) => field(i, zone, key))}
                {zone.type !== 'zips' && zone.type !== 'distance' && (
                  <p className="text-sm text-stone-700 sm:col-span-2">Its area is a GeoJSON polygon: edit it as JSON.</p>
                )}
                <div className="sm:col-span-2 lg:col-span-4">
                  <button type="button" className="btn-secondary" onClick={() => removeZone(i)}>
                    Remove {zoneTitle(zone, i).replace(/^Zone \d+: /, 'zone ')}
                  </button>
                </div>
              </fieldset>
            ))}
            <div className="flex flex-wrap gap-2">
              <button id="zones-add-zips" type="button" className="btn-secondary" onClick={() => addZone('zips')}>
                Add a ZIP code zone
              </button>
              <button type="button" className="btn-secondary" onClick={() => addZone('distance')}>
                Add a distance zone
              </button>
            </div>
          </>
        )}
        {showJson && (
          <>
            <label htmlFor={FIELD} className="font-semibold">
              Zones (JSON)
            </label>
            <p id={helpId} className="text-sm text-stone-700">
              <code>{'{ "zones": [ … ] }'}</code>, each zone with <code>type</code> <code>"zips"</code> (<code>zips</code>: 5-digit codes),{' '}
              <code>"distance"</code> (<code>min_miles</code>, <code>max_miles</code> from the store) or <code>"polygon"</code> (
              <code>geometry</code>: a GeoJSON Polygon or MultiPolygon, positions as [longitude, latitude]), and <code>name</code>,{' '}
              <code>fee</code> and <code>fee_incl_tax</code> (cents), <code>minimum_order</code> (cents, 0 for none), <code>free_over</code>{' '}
              (cents or null), <code>eta_minutes</code>.
            </p>
            <textarea
              {...form.fieldProps(FIELD, helpId)}
              className="field min-h-96 font-mono text-sm"
              spellCheck={false}
              value={form.draft}
              onChange={(e) => form.setDraft(e.target.value)}
            />
            <FieldProblems form={form} field={FIELD} />
          </>
        )}
        <SaveButton form={form}>Save zones</SaveButton>
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
