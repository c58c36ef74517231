/**
 * Curbside pickup (issue 29): whether the store offers it, its bays and the shopper's instructions,
 * saved through the settings section `curbside` over the version read (a save made meanwhile answers
 * 409: the current value is shown, nothing overwritten). Checked with the domain's schema before
 * sending; the server checks again.
 */
import { useId } from 'react';
import { curbsideSettingsSchema, type CurbsideSettings } from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

interface Draft {
  offered: boolean;
  bays: string;
  instructions: string;
}

const BAYS = 'curbside-bays';
const INSTRUCTIONS = 'curbside-instructions';
const splitBays = (text: string) =>
  text
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);

export function CurbsideSettingsPage() {
  useTitle('Curbside pickup');
  const baysHelp = useId();
  const instructionsHelp = useId();
  const form = useSettingsSection<CurbsideSettings, Draft>({
    section: 'curbside',
    toDraft: (v) => ({ offered: v.offered, bays: v.bays.join(', '), instructions: v.instructions }),
    toValue: (d) => ({ offered: d.offered, bays: splitBays(d.bays), instructions: d.instructions.trim() }),
    validate: (d) => {
      const bays = splitBays(d.bays);
      const problems = [];
      if (!curbsideSettingsSchema.shape.bays.safeParse(bays).success)
        problems.push({ field: BAYS, message: 'List each bay once, separated by commas, each at most 20 characters (at most 50 bays).' });
      if (d.instructions.trim().length > 500) problems.push({ field: INSTRUCTIONS, message: 'Write at most 500 characters.' });
      return problems;
    },
    savedText: 'Curbside pickup saved.',
    staleText: 'Someone saved curbside pickup meanwhile. Their value is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const draft = form.draft;

  return (
    <>
      <PageTitle>Curbside pickup</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        When the store offers it, the “ready for pickup” message of a pickup order carries an “I’m here” link: the shopper gives the car
        or the bay, and the order queue shows the arrival at once with a chime. Hand the order over with Complete and its ID check.
      </p>
      <SettingsForm form={form} label="Curbside pickup" problemsTitle="Curbside pickup was not saved:" className="card grid max-w-xl gap-3" noValidate>
        <label className="flex items-center gap-2 font-semibold">
          <input type="checkbox" checked={draft.offered} onChange={(e) => form.setDraft({ ...draft, offered: e.target.checked })} />
          Offer curbside pickup
        </label>
        <label htmlFor={BAYS} className="font-semibold">
          Bays
        </label>
        <p id={baysHelp} className="text-sm text-stone-700">
          The numbered bays a shopper may pick, separated by commas (e.g. 1, 2, 3). Leave empty if shoppers only describe the car.
        </p>
        <input {...form.fieldProps(BAYS, baysHelp)} value={draft.bays} onChange={(e) => form.setDraft({ ...draft, bays: e.target.value })} className="field" />
        <FieldProblems form={form} field={BAYS} />
        <label htmlFor={INSTRUCTIONS} className="font-semibold">
          Instructions for the shopper
        </label>
        <p id={instructionsHelp} className="text-sm text-stone-700">
          Shown on the “I’m here” page, e.g. where to park. At most 500 characters.
        </p>
        <textarea
          {...form.fieldProps(INSTRUCTIONS, instructionsHelp)}
          rows={3}
          value={draft.instructions}
          onChange={(e) => form.setDraft({ ...draft, instructions: e.target.value })}
          className="field"
        />
        <FieldProblems form={form} field={INSTRUCTIONS} />
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
