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
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { money } from '../lib/format.ts';
import { useSettingsSection, type SettingsSource } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

const FIELD = 'zones-json';

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default: the store’s delivery radius at the spec’s fee',
};

/** The schema's problems, one line each, naming the field (`zones.1.zips.0: a ZIP code is 5 digits`). */
function problemsOf(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return [`Not valid JSON: ${err instanceof Error ? err.message : String(err)}`];
  }
  const parsed = zonesSchema.safeParse(json);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || 'document'}: ${i.message}`);
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
    validate: (text) => problemsOf(text).map((message) => ({ field: FIELD, message })),
    savedText: 'Delivery zones saved.',
    staleText: 'Someone saved these zones meanwhile. Their version is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;

  return (
    <>
      <PageTitle>Delivery zones</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        The checkout finds the zone of a delivery address from its ZIP code; the first zone listed that contains it is used. An address
        outside every zone is refused and pickup is offered. These zones are {SOURCE[current.source]}.
      </p>
      <div className="card mb-4 max-w-4xl overflow-x-auto">
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
