/**
 * Delivery zones (issue 14): a store's zones — ZIP lists, distance tiers from the store, GeoJSON
 * polygons — each with its fee, minimum order, free-delivery threshold and estimated time. Edited
 * as one JSON document (GeoJSON does not fit a form), checked here with the same schema the
 * server validates with (packages/domain/src/zones/) so mistakes are named before saving; the
 * server checks again and its answer is shown as well. Saves over the version read (a save made
 * meanwhile answers 409: the current zones are shown, nothing is overwritten).
 */
import { useId } from 'react';
import { ZONE_MESSAGES, zonesSchema, type DeliveryZone, type DeliveryZones } from '@verdant/domain';
import { ParsedInput } from '../components/settings/ParsedInput.tsx';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { money } from '../lib/format.ts';
import { useSettingsSection, type FieldProblem, type SettingsSource } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

const FIELD = 'zones-json';

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default: the store’s delivery radius at the spec’s fee',
};

// The details table edits the zones' JSON as written (amounts in cents there, in dollars in the table).
type RawZone = Record<string, unknown> & { type?: string; name?: unknown };
type Cell = 'name' | 'zips' | 'min_miles' | 'max_miles' | 'fee_incl_tax' | 'fee' | 'minimum_order' | 'free_over' | 'eta_minutes';
const cellField = (i: number, key: Cell) => `zone-${i}-${key}`;
const CELL_PROBLEM: Record<Cell, string> = {
  name: 'Give the zone a name (at most 80 characters), different from the others.',
  zips: 'List 5-digit ZIP codes, separated by commas.',
  min_miles: 'Enter miles from 0, under the “to” miles.',
  max_miles: 'Enter miles above 0, at most 500.',
  fee_incl_tax: 'Enter an amount in dollars, e.g. 4.00.',
  fee: 'Enter an amount in dollars, at most the fee including tax.',
  minimum_order: 'Enter an amount in dollars (0 for none).',
  free_over: 'Enter an amount in dollars, or leave it empty: never free.',
  eta_minutes: 'Enter whole minutes.',
};

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
/** Cents from "4", "4.5" or "4.50"; anything else stays text (the schema names it). Empty: null. */
function cents(text: string): unknown {
  const t = text.trim().replace(/^\$/, '');
  if (t === '') return null;
  return /^\d+(\.\d{1,2})?$/.test(t) ? Math.round(Number(t) * 100) : text;
}
const plainNumber = (text: string): unknown => (/^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : text);

/**
 * The schema's problems: each at the JSON editor, naming the place (`zones.1.zips.0: a ZIP code is 5
 * digits`), and, where a cell of the details table holds it, at that cell too in words (not listed twice).
 */
function problemsOf(text: string): FieldProblem[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return [{ field: FIELD, message: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` }];
  }
  const parsed = zonesSchema.safeParse(json);
  if (parsed.success) return [];
  const zones = rawZones(text);
  return parsed.error.issues.flatMap((issue) => {
    const listed: FieldProblem = { field: FIELD, message: `${issue.path.join('.') || 'document'}: ${issue.message}` };
    const [head, i, key] = issue.path;
    const zone = typeof i === 'number' ? zones?.[i] : undefined;
    const cell = (key ?? (issue.message === 'zone names must be different' ? 'name' : undefined)) as Cell | undefined;
    if (head !== 'zones' || !zone || !cell || !(cell in CELL_PROBLEM)) return [listed];
    if ((cell === 'zips' && zone.type !== 'zips') || ((cell === 'min_miles' || cell === 'max_miles') && zone.type !== 'distance'))
      return [listed];
    return [listed, { field: cellField(i as number, cell), message: CELL_PROBLEM[cell], quiet: true }];
  });
}

function where(zone: DeliveryZone): string {
  if (zone.type === 'zips') return `ZIP ${zone.zips.join(', ')}`;
  if (zone.type === 'distance') return zone.min_miles > 0 ? `${zone.min_miles}–${zone.max_miles} miles` : `up to ${zone.max_miles} miles`;
  const rings = zone.geometry.type === 'Polygon' ? 1 : zone.geometry.coordinates.length;
  return `polygon (${rings === 1 ? 'one area' : `${rings} areas`})`;
}

export function ZonesSettingsPage() {
  useTitle('Delivery zones');
  const helpId = useId();
  const form = useSettingsSection<DeliveryZones, string>({
    section: 'zones',
    toDraft: (v) => JSON.stringify(v, null, 2),
    toValue: (text) => JSON.parse(text) as DeliveryZones,
    validate: problemsOf,
    savedText: 'Delivery zones saved.',
    staleText: 'Someone saved these zones meanwhile. Their version is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;
  const zones = rawZones(form.draft);

  /** Change one zone in the draft's JSON (only while it parses). */
  function editZone(i: number, key: Cell, value: unknown) {
    form.setDraft((text) => {
      try {
        const json = JSON.parse(text) as { zones: RawZone[] };
        (json.zones[i] as Record<string, unknown>)[key] = value;
        return JSON.stringify(json, null, 2);
      } catch {
        return text;
      }
    });
  }
  const cellInput = (i: number, key: Cell, label: string, value: unknown, money: boolean, className = 'field w-24') => (
    <td>
      <ParsedInput
        {...form.fieldProps(cellField(i, key))}
        aria-label={label}
        inputMode={money ? 'decimal' : 'numeric'}
        className={className}
        value={value}
        format={money ? dollars : (v) => (v == null ? '' : String(v))}
        parse={money ? cents : plainNumber}
        onValue={(v) => editZone(i, key, v)}
      />
      <FieldProblems form={form} field={cellField(i, key)} />
    </td>
  );

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
      <SettingsForm form={form} label="Delivery zones" problemsTitle="The zones were not saved:" className="grid max-w-4xl gap-3">
        {zones && zones.length > 0 && (
          <div className="overflow-x-auto">
            <table className="text-sm">
              <caption className="text-left font-semibold">Zone details</caption>
              <thead>
                <tr>
                  <th scope="col">Zone</th>
                  <th scope="col">Where</th>
                  <th scope="col">Fee incl. tax ($)</th>
                  <th scope="col">Fee before tax ($)</th>
                  <th scope="col">Minimum order ($)</th>
                  <th scope="col">Free from ($)</th>
                  <th scope="col">Estimated time (min)</th>
                </tr>
              </thead>
              <tbody>
                {zones.map((z, i) => {
                  const name = typeof z.name === 'string' && z.name.trim() ? z.name : `Zone ${i + 1}`;
                  return (
                    <tr key={i}>
                      <td>
                        <input
                          {...form.fieldProps(cellField(i, 'name'))}
                          aria-label={`Zone ${i + 1}: name`}
                          className="field w-36"
                          value={typeof z.name === 'string' ? z.name : ''}
                          onChange={(e) => editZone(i, 'name', e.target.value)}
                        />
                        <FieldProblems form={form} field={cellField(i, 'name')} />
                      </td>
                      {z.type === 'zips' ? (
                        <td>
                          <ParsedInput
                            {...form.fieldProps(cellField(i, 'zips'))}
                            aria-label={`${name}: ZIP codes`}
                            className="field w-48"
                            value={z.zips}
                            format={(v) => (Array.isArray(v) ? v.join(', ') : '')}
                            parse={(t) =>
                              t
                                .split(',')
                                .map((x) => x.trim())
                                .filter(Boolean)
                            }
                            onValue={(v) => editZone(i, 'zips', v)}
                          />
                          <FieldProblems form={form} field={cellField(i, 'zips')} />
                        </td>
                      ) : z.type === 'distance' ? (
                        <td className="whitespace-nowrap">
                          <div className="flex items-center gap-1">
                            <ParsedInput
                              {...form.fieldProps(cellField(i, 'min_miles'))}
                              aria-label={`${name}: from miles`}
                              inputMode="decimal"
                              className="field w-16"
                              value={z.min_miles ?? 0}
                              format={(v) => (v == null ? '' : String(v))}
                              parse={plainNumber}
                              onValue={(v) => editZone(i, 'min_miles', v)}
                            />
                            to
                            <ParsedInput
                              {...form.fieldProps(cellField(i, 'max_miles'))}
                              aria-label={`${name}: to miles`}
                              inputMode="decimal"
                              className="field w-16"
                              value={z.max_miles}
                              format={(v) => (v == null ? '' : String(v))}
                              parse={plainNumber}
                              onValue={(v) => editZone(i, 'max_miles', v)}
                            />
                            miles
                          </div>
                          <FieldProblems form={form} field={cellField(i, 'min_miles')} />
                          <FieldProblems form={form} field={cellField(i, 'max_miles')} />
                        </td>
                      ) : (
                        <td>GeoJSON polygon: in the JSON below</td>
                      )}
                      {cellInput(i, 'fee_incl_tax', `${name}: fee including tax, dollars`, z.fee_incl_tax, true)}
                      {cellInput(i, 'fee', `${name}: fee before tax, dollars`, z.fee, true)}
                      {cellInput(i, 'minimum_order', `${name}: minimum order, dollars`, z.minimum_order, true)}
                      {cellInput(i, 'free_over', `${name}: free from, dollars (empty: never)`, z.free_over, true)}
                      {cellInput(i, 'eta_minutes', `${name}: estimated time, minutes`, z.eta_minutes, false, 'field w-20')}
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <p className="text-sm text-stone-700">Amounts in dollars here, in cents in the JSON below, which follows the table.</p>
          </div>
        )}
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
        <SaveButton form={form}>Save zones</SaveButton>
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
