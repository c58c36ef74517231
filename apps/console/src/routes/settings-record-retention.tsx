/**
 * Delivery record retention (issue 29 "Paperwork"): how many years the store keeps its delivery
 * records — trips and their manifests, stops with the ID check and the customer's signature,
 * receipts. Starts at the state's preset (California 7 years, New Jersey 4, elsewhere 7); saved
 * through the settings section `record-retention` over the version read. Records younger than the
 * period cannot be deleted; older ended trips are purged every hour.
 */
import { useId } from 'react';
import {
  RECORD_RETENTION_MAX_YEARS,
  RECORD_RETENTION_MIN_YEARS,
  RECORD_RETENTION_PRESET_INFO,
  RECORD_RETENTION_PRESETS,
  type RecordRetention,
  type RecordRetentionPreset,
} from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection } from '../lib/use-settings-section.ts';
import { useStore, useTitle } from './layout.tsx';
import { Link } from 'react-router';

const YEARS = 'retention-years';
const PRESET = 'retention-preset';

interface Draft {
  preset: RecordRetentionPreset;
  years: string;
}

/** What is wrong with the years as typed (null: fine). */
export function yearsProblem(text: string): string | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `Enter the years as a whole number from ${RECORD_RETENTION_MIN_YEARS} to ${RECORD_RETENTION_MAX_YEARS}.`;
  const n = Number(t);
  if (n < RECORD_RETENTION_MIN_YEARS) return `Records are kept at least ${RECORD_RETENTION_MIN_YEARS} year.`;
  if (n > RECORD_RETENTION_MAX_YEARS) return `Records are kept at most ${RECORD_RETENTION_MAX_YEARS} years.`;
  return null;
}

export function RecordRetentionSettingsPage() {
  useTitle('Delivery record retention');
  const { store } = useStore();
  const helpId = useId();
  const form = useSettingsSection<RecordRetention, Draft>({
    section: 'record-retention',
    toDraft: (v) => ({ preset: v.preset, years: String(v.years) }),
    toValue: (d) => ({ preset: d.preset, years: Number(d.years.trim()) }),
    validate: (d) => {
      const problem = yearsProblem(d.years);
      return problem ? [{ field: YEARS, message: problem }] : [];
    },
    savedText: 'Record retention saved.',
    staleText: 'Someone saved the record retention meanwhile. Their value is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const draft = form.draft;
  const info = RECORD_RETENTION_PRESET_INFO[draft.preset];

  return (
    <>
      <PageTitle>Delivery record retention</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        How long the store keeps its delivery records: trips and their manifests, each stop’s ID check and the customer’s signature, and
        the delivery receipts. A record younger than this cannot be deleted; ended trips older than this are removed with their
        signatures every hour. Orders themselves are kept as sales records, and ID and medical card images as long as the store’s{' '}
        <Link className="link" to={`/stores/${store.id}/settings-data-retention`}>
          data retention
        </Link>{' '}
        says.
      </p>
      <SettingsForm form={form} label="Delivery record retention" problemsTitle="The record retention was not saved:" className="card grid max-w-md gap-3" noValidate>
        <label htmlFor={PRESET} className="font-semibold">
          State rule
        </label>
        <select
          id={PRESET}
          className="field"
          value={draft.preset}
          onChange={(e) => {
            const preset = e.target.value as RecordRetentionPreset;
            form.setDraft({ preset, years: preset === 'custom' ? draft.years : String(RECORD_RETENTION_PRESET_INFO[preset].years) });
          }}
        >
          {RECORD_RETENTION_PRESETS.map((p) => (
            <option key={p} value={p}>
              {RECORD_RETENTION_PRESET_INFO[p].title}
            </option>
          ))}
        </select>
        {info.sources.length > 0 && <p className="text-sm text-stone-700">Source: {info.sources.join('; ')}. Confirm with counsel.</p>}
        <label htmlFor={YEARS} className="font-semibold">
          Years kept
        </label>
        <p id={helpId} className="text-sm text-stone-700">
          A whole number from {RECORD_RETENTION_MIN_YEARS} to {RECORD_RETENTION_MAX_YEARS}. Changing it makes the rule “The store’s own period”.
        </p>
        <input
          {...form.fieldProps(YEARS, helpId)}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={draft.years}
          onChange={(e) => form.setDraft({ preset: 'custom', years: e.target.value })}
          className="field max-w-32"
        />
        <FieldProblems form={form} field={YEARS} />
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
