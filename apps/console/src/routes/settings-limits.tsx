/**
 * Purchase limits (issue 14, "Purchase-limit buckets"): the store's limit model — pick a state preset
 * (California, Colorado, Michigan, Illinois, Massachusetts, Nevada) or edit the buckets' caps, units
 * and windows — and the licence holder whose stores share a customer's earlier orders. Saved through
 * the settings section `limits` over the version read (a save made meanwhile answers 409: the current
 * value is shown, nothing overwritten). The model is edited as JSON in the shape of the stores file's
 * `settings.limits.model` (the same zod schema checks it here, on the server and at start).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { LIMIT_PRESETS, formatLimitAmount, safeParseLimitModel, type Cap, type LimitModelInput, type LimitPresetId } from '@verdant/domain';
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { ApiFailure, api, errorText } from '../lib/api.ts';
import { useResource } from '../lib/use-resource.ts';
import { useStore, useTitle } from './layout.tsx';

interface LimitsValue {
  preset: LimitPresetId | null;
  model: LimitModelInput;
  licence_holder: string | null;
}

interface Section {
  value: LimitsValue;
  version: number;
  source: 'saved' | 'stores-file' | 'default';
  updatedAt: string | null;
}

const SOURCE: Record<Section['source'], string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'today’s per-order limit (the default)',
};

const capText = (c: Cap, unit: Parameters<typeof formatLimitAmount>[1]) =>
  c.kind === 'cap' ? formatLimitAmount(c.max, unit) : c.kind === 'no_cap' ? 'no cap' : 'not sold';

export function LimitsSettingsPage() {
  useTitle('Purchase limits');
  const { store } = useStore();
  const path = `/stores/${store.id}/settings/sections/limits`;
  const section = useResource(String(store.id), () => api<Section>('GET', path));
  const [text, setText] = useState('');
  const [preset, setPreset] = useState<LimitPresetId | ''>('');
  const [holder, setHolder] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!section.data) return;
    setText(JSON.stringify(section.data.value.model, null, 2));
    setPreset(section.data.value.preset ?? '');
    setHolder(section.data.value.licence_holder ?? '');
  }, [section.data]);

  if (!section.data) return section.error ? <ErrorNote>{section.error}</ErrorNote> : <Loading />;
  const current = section.data;

  let parsedJson: unknown = null;
  let problem: string | null = null;
  try {
    parsedJson = JSON.parse(text);
  } catch {
    problem = 'The model is not valid JSON.';
  }
  const checked = problem ? null : safeParseLimitModel(parsedJson);
  if (checked && !checked.success) {
    const issue = checked.error.issues[0];
    problem = `${issue.path.join('.') || 'model'}: ${issue.message}`;
  }
  const model = checked && checked.success ? checked.data : null;

  function choosePreset(id: LimitPresetId | '') {
    setPreset(id);
    if (id) setText(JSON.stringify(LIMIT_PRESETS[id].model, null, 2));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    setError(null);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      const value = { preset: preset || null, model: parsedJson, licence_holder: holder.trim() || null };
      const answer = await api<Section>('PUT', path, { value, version: current.version });
      section.setData(answer);
      setSaved('Purchase limits saved.');
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 409) {
        setError('Someone saved the purchase limits meanwhile. Their value is shown now; make your change again.');
        await section.reload();
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageTitle>Purchase limits</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        What one customer may buy: buckets (flower, concentrate, THC, flower equivalent), each with a cap per customer type and residency
        and a window (the order, the calendar day in the store’s time zone, rolling days, the month). The cart and the server enforce the
        same model; a guest is counted per order only. The model now is {SOURCE[current.source]}.
      </p>
      <form onSubmit={submit} className="card grid max-w-3xl gap-3" aria-label="Purchase limits">
        <ErrorNote>{error}</ErrorNote>
        <div role="status">{saved}</div>
        <label htmlFor="limits-preset" className="font-semibold">
          Start from a state preset
        </label>
        <select id="limits-preset" value={preset} onChange={(e) => choosePreset(e.target.value as LimitPresetId | '')} className="field">
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
          Edit caps in the bucket’s unit (grams or mg); <code>"no_cap"</code> or <code>"not_sold"</code> instead of a number; a cap may be
          split <code>{'{ "resident": 30, "non_resident": 15 }'}</code>.
        </p>
        <textarea
          id="limits-model"
          aria-describedby="limits-model-help limits-model-problem"
          aria-invalid={problem != null}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={16}
          className="field font-mono text-sm"
          spellCheck={false}
        />
        <p id="limits-model-problem" className="text-sm text-red-800" aria-live="polite">
          {problem}
        </p>
        <label htmlFor="limits-holder" className="font-semibold">
          Licence holder (stores naming the same holder share a customer’s orders when the model says so)
        </label>
        <input id="limits-holder" value={holder} onChange={(e) => setHolder(e.target.value)} className="field" maxLength={120} />
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
        <div>
          <button type="submit" className="btn" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </>
  );
}
