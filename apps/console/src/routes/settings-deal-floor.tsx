/**
 * Lowest price after a deal (issue 28, "No line is ever below $0.01 (a store setting)"): the least a
 * unit may cost once deals apply, one cent at least — several states forbid giving cannabis away and
 * California forbids advertising free goods. Saved through the settings section `deal-floor` over the
 * version read (409: someone saved meanwhile; their value is shown). The amount is typed in dollars
 * and read with the delivery-zone form's reader, so "1,00", "$1" or "-1" are named at the field
 * before anything is sent; the server's schema checks again.
 */
import { useId } from 'react';
import { dealFloorSettingsSchema, readDollars, type DealFloorSettings } from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { money } from '../lib/format.ts';
import { useSettingsSection, type SettingsSource } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default',
};

const FIELD = 'deal-floor-min';
const RANGE = 'from 0.01 to 1000.00';

/** What is wrong with the amount as typed, in words (null: fine). */
export function floorProblem(text: string): string | null {
  const read = readDollars(text);
  if (!read.ok) return `Lowest price: ${read.problem}.`;
  if (read.cents === null) return `Enter the lowest price in dollars, ${RANGE}.`;
  if (!dealFloorSettingsSchema.safeParse({ minUnitCents: read.cents }).success) {
    return read.cents < 1 ? 'The lowest price is at least 0.01: no unit is ever given away.' : `Enter the lowest price in dollars, ${RANGE}.`;
  }
  return null;
}

export function DealFloorSettingsPage() {
  useTitle('Lowest price after a deal');
  const helpId = useId();
  const form = useSettingsSection<DealFloorSettings, string>({
    section: 'deal-floor',
    toDraft: (v) => (v.minUnitCents / 100).toFixed(2),
    toValue: (d) => ({ minUnitCents: (readDollars(d) as { cents: number }).cents }),
    validate: (d) => {
      const problem = floorProblem(d);
      return problem ? [{ field: FIELD, message: problem }] : [];
    },
    savedText: 'Lowest price after a deal saved.',
    staleText: 'Someone saved the lowest price meanwhile. Their value is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;

  return (
    <>
      <PageTitle>Lowest price after a deal</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        No deal takes a unit below this price: a deal that would go lower gives less, on the menu, in the cart and on the order alike.
        It is never below $0.01 — several states forbid giving cannabis away, and California forbids advertising anything as free.
        The price now is {money(current.value.minUnitCents)} ({SOURCE[current.source]}).
      </p>
      <SettingsForm
        form={form}
        label="Lowest price after a deal"
        problemsTitle="The lowest price was not saved:"
        className="card grid max-w-md gap-3"
        noValidate
      >
        <label htmlFor={FIELD} className="font-semibold">
          Lowest unit price after deals (dollars)
        </label>
        <p id={helpId} className="text-sm text-stone-700">
          For example 0.01, or 1.00 for “buy one, get one for $1”. {RANGE.replace('from', 'From')}.
        </p>
        <input
          {...form.fieldProps(FIELD, helpId)}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={form.draft}
          onChange={(e) => form.setDraft(e.target.value)}
          className="field max-w-32"
        />
        <FieldProblems form={form} field={FIELD} />
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
