/**
 * Age check (issue 14, "Age on every order"): the minimum age of a medical order at this store,
 * 18 to 21 (recreational orders always need 21). Saved through the settings section `age` over the
 * version read (a save made meanwhile answers 409: the current value is shown, nothing overwritten).
 * A number field (not a list of four ages), checked here with the domain's schema and its figures,
 * so a wrong age is named at the field before anything is sent; the server checks again.
 */
import { useId } from 'react';
import { AGE_THRESHOLD, MEDICAL_MINIMUM_AGE_FLOOR, ageSettingsSchema, type AgeSettings } from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection, type SettingsSource } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default',
};

const FIELD = 'medical-minimum-age';
const AGE_PROBLEM = `Enter a whole number of years from ${MEDICAL_MINIMUM_AGE_FLOOR} to ${AGE_THRESHOLD}.`;

export function AgeSettingsPage() {
  useTitle('Age check');
  const helpId = useId();
  const form = useSettingsSection<AgeSettings, string>({
    section: 'age',
    toDraft: (v) => String(v.medicalMinimumAge),
    toValue: (d) => ({ medicalMinimumAge: Number(d) }),
    // The schema decides; its message names the JSON key, so the field gets words of its own.
    validate: (d) =>
      d.trim() !== '' && ageSettingsSchema.safeParse({ medicalMinimumAge: Number(d) }).success
        ? []
        : [{ field: FIELD, message: AGE_PROBLEM }],
    savedText: 'Age check saved.',
    staleText: 'Someone saved the age check meanwhile. Their value is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;

  return (
    <>
      <PageTitle>Age check</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Every order carries the shopper’s date of birth (asked at checkout from guests, taken from the account for customers), and the
        server refuses anyone younger than the minimum on the order date in the store’s time zone. Recreational orders always need{' '}
        {AGE_THRESHOLD}. The value now is {current.value.medicalMinimumAge} ({SOURCE[current.source]}).
      </p>
      <SettingsForm
        form={form}
        label="Age check"
        problemsTitle="The age check was not saved:"
        className="card grid max-w-md gap-3"
        noValidate
      >
        <label htmlFor={FIELD} className="font-semibold">
          Minimum age for medical orders
        </label>
        <p id={helpId} className="text-sm text-stone-700">
          {MEDICAL_MINIMUM_AGE_FLOOR} to {AGE_THRESHOLD}. Lower it only where the store’s state lets patients of that age buy for
          themselves.
        </p>
        <input
          {...form.fieldProps(FIELD, helpId)}
          type="number"
          inputMode="numeric"
          min={MEDICAL_MINIMUM_AGE_FLOOR}
          max={AGE_THRESHOLD}
          step={1}
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
