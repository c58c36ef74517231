/**
 * Data retention (issue 31): how long the store keeps ID and medical card images after staff decided
 * on them (0: not kept — deleted as soon as the decision is recorded, as Oregon requires), how long
 * orders are kept as sales records, and whether guests get customer profiles. Starts at the state's
 * preset (Oregon, Massachusetts, California, elsewhere) with its sources; saved through the settings
 * section `data-retention` over the version read. Below: the retention job's last runs. The delivery
 * records' own period is the sibling page "Record retention" (settings-record-retention), linked here.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import {
  DATA_RETENTION_PRESET_INFO,
  DATA_RETENTION_PRESETS,
  IMAGE_DAYS_MAX,
  SALES_RECORD_MAX_YEARS,
  SALES_RECORD_MIN_YEARS,
  type DataRetention,
  type DataRetentionPreset,
} from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import type { FieldProblem } from '../lib/use-settings-section.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSettingsSection } from '../lib/use-settings-section.ts';
import type { RetentionRun } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

const PRESET = 'data-retention-preset';
const ID_DAYS = 'data-retention-id-days';
const CARD_DAYS = 'data-retention-card-days';
const YEARS = 'data-retention-sales-years';
const GUESTS = 'data-retention-guests';

interface Draft {
  preset: DataRetentionPreset;
  idImageDays: string;
  medicalCardImageDays: string;
  salesRecordYears: string;
  guestProfiles: boolean;
}

function daysProblem(text: string, what: string): string | null {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) > IMAGE_DAYS_MAX) return `Enter the days the ${what} image is kept as a whole number from 0 (not kept) to ${IMAGE_DAYS_MAX}.`;
  return null;
}

function yearsProblem(text: string): string | null {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < SALES_RECORD_MIN_YEARS || Number(t) > SALES_RECORD_MAX_YEARS)
    return `Enter the years sales records are kept as a whole number from ${SALES_RECORD_MIN_YEARS} to ${SALES_RECORD_MAX_YEARS}.`;
  return null;
}

const toDraft = (v: DataRetention): Draft => ({
  preset: v.preset,
  idImageDays: String(v.idImageDays),
  medicalCardImageDays: String(v.medicalCardImageDays),
  salesRecordYears: String(v.salesRecordYears),
  guestProfiles: v.guestProfiles,
});

const kept = (days: number) => (days === 0 ? 'not kept: deleted as soon as the decision is recorded' : `kept ${days} day${days === 1 ? '' : 's'} after the decision`);

export function DataRetentionSettingsPage() {
  useTitle('Data retention');
  const { store } = useStore();
  const idHelp = useId();
  const yearsHelp = useId();
  const form = useSettingsSection<DataRetention, Draft>({
    section: 'data-retention',
    toDraft,
    toValue: (d) => ({
      preset: d.preset,
      idImageDays: Number(d.idImageDays.trim()),
      medicalCardImageDays: Number(d.medicalCardImageDays.trim()),
      salesRecordYears: Number(d.salesRecordYears.trim()),
      guestProfiles: d.guestProfiles,
    }),
    validate: (d) => {
      const problems: FieldProblem[] = [];
      const id = daysProblem(d.idImageDays, 'ID');
      if (id) problems.push({ field: ID_DAYS, message: id });
      const card = daysProblem(d.medicalCardImageDays, 'medical card');
      if (card) problems.push({ field: CARD_DAYS, message: card });
      const years = yearsProblem(d.salesRecordYears);
      if (years) problems.push({ field: YEARS, message: years });
      return problems;
    },
    savedText: 'Data retention saved.',
    staleText: 'Someone saved the data retention meanwhile. Their values are shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const draft = form.draft;
  const info = DATA_RETENTION_PRESET_INFO[draft.preset];
  const custom = (patch: Partial<Draft>) => form.setDraft({ ...draft, ...patch, preset: 'custom' });
  const saved = form.current.value;

  return (
    <>
      <PageTitle>Data retention</PageTitle>
      <p className="mb-2 max-w-3xl text-stone-700">
        What the store keeps about its shoppers and for how long. Now: ID images are {kept(saved.idImageDays)}; medical card images are{' '}
        {kept(saved.medicalCardImageDays)}; orders are kept whole {saved.salesRecordYears} years as sales records, then reduced to their anonymous totals (an order still on a delivery record waits for it). The decision on a document (verified or
        rejected, by whom, when) is always kept.
      </p>
      <p className="mb-4 max-w-3xl text-stone-700">
        Delivery records (trips, signatures, receipts) have their own period:{' '}
        <Link className="link" to={`/stores/${store.id}/settings-record-retention`}>
          record retention
        </Link>
        .
      </p>
      <SettingsForm form={form} label="Data retention" problemsTitle="The data retention was not saved:" className="card grid max-w-xl gap-3" noValidate>
        <label htmlFor={PRESET} className="font-semibold">
          State rule
        </label>
        <select
          id={PRESET}
          className="field"
          value={draft.preset}
          onChange={(e) => {
            const preset = e.target.value as DataRetentionPreset;
            form.setDraft(preset === 'custom' ? { ...draft, preset } : toDraft({ preset, ...DATA_RETENTION_PRESET_INFO[preset].value }));
          }}
        >
          {DATA_RETENTION_PRESETS.map((p) => (
            <option key={p} value={p}>
              {DATA_RETENTION_PRESET_INFO[p].title}
            </option>
          ))}
        </select>
        {info.sources.length > 0 && <p className="text-sm text-stone-700">Source: {info.sources.join('; ')}. Confirm with counsel.</p>}
        <p id={idHelp} className="text-sm text-stone-700">
          Days after staff verify or reject the document; 0: the image is not kept (deleted as soon as the decision is recorded). Changing a value makes
          the rule “The store’s own rules”.
        </p>
        <label htmlFor={ID_DAYS} className="font-semibold">
          ID images kept (days)
        </label>
        <input
          {...form.fieldProps(ID_DAYS, idHelp)}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={draft.idImageDays}
          onChange={(e) => custom({ idImageDays: e.target.value })}
          className="field max-w-32"
        />
        <FieldProblems form={form} field={ID_DAYS} />
        <label htmlFor={CARD_DAYS} className="font-semibold">
          Medical card images kept (days)
        </label>
        <input
          {...form.fieldProps(CARD_DAYS, idHelp)}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={draft.medicalCardImageDays}
          onChange={(e) => custom({ medicalCardImageDays: e.target.value })}
          className="field max-w-32"
        />
        <FieldProblems form={form} field={CARD_DAYS} />
        <label htmlFor={YEARS} className="font-semibold">
          Sales records kept (years)
        </label>
        <p id={yearsHelp} className="text-sm text-stone-700">
          An order stays this long after it was placed; a shopper who asks to be deleted has their personal data removed from it instead.
        </p>
        <input
          {...form.fieldProps(YEARS, yearsHelp)}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={draft.salesRecordYears}
          onChange={(e) => custom({ salesRecordYears: e.target.value })}
          className="field max-w-32"
        />
        <FieldProblems form={form} field={YEARS} />
        <label className="flex items-start gap-2 font-normal">
          <input id={GUESTS} type="checkbox" className="mt-1 size-5" checked={draft.guestProfiles} onChange={(e) => custom({ guestProfiles: e.target.checked })} />
          <span>
            Create customer profiles for guests. Off: a guest’s order keeps only what the order needs (“anonymous market”); a profile is made only
            when a shopper signs up.
          </span>
        </label>
        <SaveButton form={form} />
      </SettingsForm>
      <RetentionRuns storeId={store.id} timeZone={store.timezone} />
      <SettingsHistory form={form} />
    </>
  );
}

/** The job's last runs: one per day, on whichever server took it. */
function RetentionRuns({ storeId, timeZone }: { storeId: number; timeZone: string }) {
  const runs = useResource(String(storeId), () => api<RetentionRun[]>('GET', `/stores/${storeId}/data-retention/runs?limit=10`));
  return (
    <section aria-labelledby="retention-runs" className="mt-6 max-w-3xl">
      <h2 id="retention-runs" className="mb-2 text-lg font-semibold">
        Last runs of the retention job
      </h2>
      <p className="mb-2 text-sm text-stone-700">Once a day, on one of the servers: it deletes the images whose period is over.</p>
      {runs.error ? (
        <ErrorNote>{runs.error}</ErrorNote>
      ) : !runs.data ? (
        <Loading />
      ) : runs.data.length === 0 ? (
        <p>No run yet.</p>
      ) : (
        <div className="overflow-x-auto" role="region" aria-labelledby="retention-runs" tabIndex={0}>
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Finished</th>
                <th scope="col">Outcome</th>
                <th scope="col">ID images deleted</th>
                <th scope="col">Card images deleted</th>
                <th scope="col">Orders purged</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.map((r) => (
                <tr key={r.id}>
                  <td>{dateTime(r.started_at, timeZone)}</td>
                  <td>{r.finished_at ? dateTime(r.finished_at, timeZone) : '—'}</td>
                  <td className="[overflow-wrap:anywhere]">{r.status === 'failed' ? `Failed: ${r.error ?? ''}` : r.status === 'running' ? 'Running' : 'Done'}</td>
                  <td>{r.id_images_deleted}</td>
                  <td>{r.medcard_images_deleted}</td>
                  <td>{r.orders_purged ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
