/**
 * Purchase limits (issue 14, "Purchase-limit buckets"): the store's limit model — pick a state preset
 * (California, Colorado, Michigan, Illinois, Massachusetts, Nevada) or edit the buckets' caps, units
 * and windows — and the licence holder whose stores share a customer's earlier orders. Saved through
 * the settings section `limits` over the version read (a save made meanwhile answers 409: the current
 * value is shown, nothing overwritten). The model is edited as JSON in the shape of the stores file's
 * `settings.limits.model` (the same zod schema checks it here, on the server and at start).
 */
import { LIMIT_PRESETS, formatLimitAmount, safeParseLimitModel, type Cap, type LimitModelInput, type LimitPresetId } from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection, type FieldProblem, type SettingsSource } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

interface LimitsValue {
  preset: LimitPresetId | null;
  model: LimitModelInput;
  licence_holder: string | null;
}

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'today’s per-order limit (the default)',
};

/** The model as enforced (defaults filled in), or null while the draft's model is wrong. */
function parsedModel(json: unknown) {
  const checked = safeParseLimitModel(json);
  return checked.success ? { buckets: checked.data.buckets, share: checked.data.shareWithLicenceHolder } : null;
}

const capText = (c: Cap, unit: Parameters<typeof formatLimitAmount>[1]) =>
  c.kind === 'cap' ? formatLimitAmount(c.max, unit) : c.kind === 'no_cap' ? 'no cap' : 'not sold';

interface Draft {
  preset: LimitPresetId | '';
  text: string;
  holder: string;
}

const MODEL = 'limits-model';
const HOLDER = 'limits-holder';

/** The model's problems (not JSON, or the schema's first issue, naming the place in the model). */
function modelProblems(d: Draft): FieldProblem[] {
  let json: unknown;
  try {
    json = JSON.parse(d.text);
  } catch {
    return [{ field: MODEL, message: 'The model is not valid JSON.' }];
  }
  const checked = safeParseLimitModel(json);
  if (checked.success)
    return d.holder.trim().length > 120 ? [{ field: HOLDER, message: 'The licence holder is at most 120 characters.' }] : [];
  const issue = checked.error.issues[0];
  return [{ field: MODEL, message: `${issue.path.join('.') || 'model'}: ${issue.message}` }];
}

export function LimitsSettingsPage() {
  useTitle('Purchase limits');
  const form = useSettingsSection<LimitsValue, Draft>({
    section: 'limits',
    toDraft: (v) => ({ preset: v.preset ?? '', text: JSON.stringify(v.model, null, 2), holder: v.licence_holder ?? '' }),
    toValue: (d) => ({ preset: d.preset || null, model: JSON.parse(d.text) as LimitModelInput, licence_holder: d.holder.trim() || null }),
    validate: modelProblems,
    savedText: 'Purchase limits saved.',
    staleText: 'Someone saved the purchase limits meanwhile. Their value is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;
  const draft = form.draft;

  // The buckets as they will be enforced, and the sharing switch, from the draft when it parses.
  let model: ReturnType<typeof parsedModel> = null;
  try {
    model = parsedModel(JSON.parse(draft.text));
  } catch {
    model = null;
  }

  function choosePreset(id: LimitPresetId | '') {
    form.setDraft((d) => ({ ...d, preset: id, text: id ? JSON.stringify(LIMIT_PRESETS[id].model, null, 2) : d.text }));
  }

  /** The model's share_with_licence_holder, set in its JSON (only while the JSON parses). */
  function setShared(on: boolean) {
    form.setDraft((d) => {
      try {
        return { ...d, text: JSON.stringify({ ...(JSON.parse(d.text) as object), share_with_licence_holder: on }, null, 2) };
      } catch {
        return d;
      }
    });
  }

  return (
    <>
      <PageTitle>Purchase limits</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        What one customer may buy: buckets (flower, concentrate, THC, flower equivalent), each with a cap per customer type and residency
        and a window (the order, the calendar day in the store’s time zone, rolling days, the month). The cart and the server enforce the
        same model; a guest is counted per order only. The model now is {SOURCE[current.source]}.
      </p>
      <SettingsForm
        form={form}
        label="Purchase limits"
        problemsTitle="The purchase limits were not saved:"
        className="card grid max-w-3xl gap-3"
      >
        <label htmlFor="limits-preset" className="font-semibold">
          Start from a state preset
        </label>
        <select
          id="limits-preset"
          value={draft.preset}
          onChange={(e) => choosePreset(e.target.value as LimitPresetId | '')}
          className="field"
        >
          <option value="">— the store’s own model —</option>
          {(Object.keys(LIMIT_PRESETS) as LimitPresetId[]).map((id) => (
            <option key={id} value={id}>
              {LIMIT_PRESETS[id].name}
            </option>
          ))}
        </select>
        <label htmlFor="limits-model" className="font-semibold">
          Buckets (JSON)
        </label>
        <p id="limits-model-help" className="text-sm text-stone-700">
          Each bucket: <code>id</code>, <code>label</code>, <code>unit</code> (<code>"flower_g"</code>, <code>"concentrate_g"</code>,{' '}
          <code>"thc_mg"</code> or <code>"flower_equivalent_g"</code> with its <code>counts</code>), <code>caps</code> for{' '}
          <code>"recreational"</code> and <code>"medical"</code> in the bucket’s unit — a number, <code>"no_cap"</code> or{' '}
          <code>"not_sold"</code>, or split by residency <code>{'{ "resident": 30, "non_resident": 15 }'}</code> — and a <code>window</code>
          : <code>{'{ "type": "transaction" }'}</code>, <code>"day"</code>, <code>"month"</code> or{' '}
          <code>{'{ "type": "rolling_days", "days": 14 }'}</code>.
        </p>
        <textarea
          {...form.fieldProps(MODEL, 'limits-model-help')}
          value={draft.text}
          onChange={(e) => form.setDraft((d) => ({ ...d, text: e.target.value }))}
          rows={16}
          className="field font-mono text-sm"
          spellCheck={false}
        />
        <FieldProblems form={form} field={MODEL} />
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className="size-5"
            checked={model?.share ?? false}
            disabled={!model}
            onChange={(e) => setShared(e.target.checked)}
          />
          Count a customer’s orders at every store of the same licence holder (the model’s <code>share_with_licence_holder</code>)
        </label>
        <label htmlFor="limits-holder" className="font-semibold">
          Licence holder (stores naming the same holder share a customer’s orders when the model says so)
        </label>
        <input
          {...form.fieldProps(HOLDER)}
          value={draft.holder}
          onChange={(e) => form.setDraft((d) => ({ ...d, holder: e.target.value }))}
          className="field"
          maxLength={120}
        />
        <FieldProblems form={form} field={HOLDER} />
        {model && (
          <table className="text-sm">
            <caption className="text-left font-semibold">The buckets as they will be enforced</caption>
            <thead>
              <tr>
                <th scope="col">Bucket</th>
                <th scope="col">Window</th>
                <th scope="col">Recreational (resident / non-resident)</th>
                <th scope="col">Medical (resident / non-resident)</th>
              </tr>
            </thead>
            <tbody>
              {model.buckets.map((b) => (
                <tr key={b.id}>
                  <th scope="row">{b.label}</th>
                  <td>{b.window.type === 'rolling_days' ? `${b.window.days} days` : b.window.type}</td>
                  <td>
                    {capText(b.caps.recreational.resident, b.unit)} / {capText(b.caps.recreational.non_resident, b.unit)}
                  </td>
                  <td>
                    {capText(b.caps.medical.resident, b.unit)} / {capText(b.caps.medical.non_resident, b.unit)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
