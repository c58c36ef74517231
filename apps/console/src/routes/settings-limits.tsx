/**
 * Purchase limits (issue 14, "Purchase-limit buckets"): the store's limit model — pick a state preset
 * (California, Colorado, Michigan, Illinois, Massachusetts, Nevada) or edit the buckets' caps, units
 * and windows — and the licence holder whose stores share a customer's earlier orders. Saved through
 * the settings section `limits` over the version read (a save made meanwhile answers 409: the current
 * value is shown, nothing overwritten). The model is edited as JSON in the shape of the stores file's
 * `settings.limits.model` (the same zod schema checks it here, on the server and at start).
 */
import type { ComponentProps } from 'react';
import { LIMIT_PRESETS, formatLimitAmount, safeParseLimitModel, type Cap, type LimitModelInput, type LimitPresetId } from '@verdant/domain';
import { ParsedInput } from '../components/settings/ParsedInput.tsx';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection, type FieldProblem, type SettingsSource } from '../lib/use-settings-section.ts';
import { useStore, useTitle } from './layout.tsx';
import { api } from '../lib/api.ts';
import { useResource } from '../lib/use-resource.ts';

interface LimitsValue {
  preset: LimitPresetId | null;
  model: LimitModelInput;
  licence_holder: string | null;
}

/** GET /stores/:id/limits/in-force (issue 26): which model is in force, why, and which products count by a derivation. */
interface LimitsInForce {
  model: 'per_order' | 'preset' | 'own';
  reason: string;
  counting: 'spec' | 'menu';
  derived_products: { id: number; sku: string; name: string; kind: string | null; derived: string[] }[];
}

/** The model in force and why; the products whose limit facts are derived from their kind (the menu gives none). */
function InForce({ version }: { version: number }) {
  const { store } = useStore();
  const answer = useResource(`${store.id}:${version}`, () => api<LimitsInForce>('GET', `/stores/${store.id}/limits/in-force`));
  const a = answer.data;
  if (!a) return null;
  return (
    <section aria-labelledby="limits-in-force" className="card mb-4 grid max-w-3xl gap-2">
      <h2 id="limits-in-force" className="font-semibold">
        In force now
      </h2>
      <p>{a.reason}</p>
      {a.counting === 'spec' ? (
        <p className="text-sm text-stone-700">Products count as the spec says: a sized item its weight, others their THC-equivalent grams, else 1 g.</p>
      ) : a.derived_products.length === 0 ? (
        <p className="text-sm text-stone-700">Every product’s menu row gives what the limits count.</p>
      ) : (
        <details>
          <summary>
            {a.derived_products.length === 1
              ? '1 product counts by a derivation from its kind'
              : `${a.derived_products.length} products count by a derivation from their kind`}{' '}
            (the menu gives no concentrate grams, THC or weight)
          </summary>
          <p className="text-sm text-stone-700">
            Give these rows of the menu file <code>concentrate_g</code>, <code>thc</code> in mg or <code>weight_g</code> to count them exactly.
          </p>
          <ul className="list-disc pl-5 text-sm">
            {a.derived_products.map((p) => (
              <li key={p.id}>
                {p.name} (<span className="font-mono">{p.sku}</span>): {p.derived.join('; ')}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default (the preset of the store’s state, else the per-order limit)',
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

// The caps and windows editor works on the model's JSON as written (a cap one number, or split by residency).
type CapIn = number | 'no_cap' | 'not_sold' | string | null;
type CapsIn = CapIn | { resident: CapIn; non_resident: CapIn };
type RawBucket = { id?: string; label?: string; caps?: Record<string, CapsIn>; window?: { type?: string; days?: number | null } };
const CUSTOMER_TYPES = [
  ['recreational', 'Recreational'],
  ['medical', 'Medical'],
] as const;
const RESIDENCY = [
  ['resident', 'resident'],
  ['non_resident', 'non-resident'],
] as const;
type CustomerType = (typeof CUSTOMER_TYPES)[number][0];
type Residency = (typeof RESIDENCY)[number][0];
const WINDOWS = [
  ['transaction', 'The order'],
  ['day', 'The calendar day'],
  ['rolling_days', 'Rolling days'],
  ['month', 'The calendar month'],
] as const;

const capField = (i: number, t: CustomerType, r: Residency) => `limits-${i}-${t}-${r}`;
const windowField = (i: number) => `limits-${i}-window`;
const daysField = (i: number) => `limits-${i}-days`;
const CAP_PROBLEM = 'A cap is a number above 0 in the bucket’s unit, “no cap” or “not sold”.';

const capOf = (caps: CapsIn | undefined, r: Residency): CapIn => (caps !== null && typeof caps === 'object' ? caps[r] : (caps ?? null));
const capIsValid = (c: CapIn) => c === 'no_cap' || c === 'not_sold' || (typeof c === 'number' && c > 0 && c <= 1_000_000);
const capToText = (c: CapIn) => (c === 'no_cap' ? 'no cap' : c === 'not_sold' ? 'not sold' : c == null ? '' : String(c));
function textToCap(text: string): CapIn {
  const t = text.trim().toLowerCase().replace(/_/g, ' ');
  if (t === 'no cap') return 'no_cap';
  if (t === 'not sold') return 'not_sold';
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : text;
}

/** The buckets of the draft's JSON as written, or null when it is not JSON with a list of buckets. */
function rawBuckets(text: string): RawBucket[] | null {
  try {
    const json = JSON.parse(text) as { buckets?: unknown };
    return Array.isArray(json?.buckets) ? (json.buckets as RawBucket[]) : null;
  } catch {
    return null;
  }
}

/** A schema issue's field: a cap cell, a window or its days, else the JSON. */
function fieldOfIssue(path: PropertyKey[], buckets: RawBucket[] | null): string {
  const [head, i, part] = path;
  if (head !== 'buckets' || typeof i !== 'number' || !buckets?.[i]) return MODEL;
  if (part === 'window') return path.includes('days') ? daysField(i) : windowField(i);
  if (part === 'caps') {
    for (const [t] of CUSTOMER_TYPES)
      for (const [r] of RESIDENCY) if (!capIsValid(capOf(buckets[i].caps?.[t], r))) return capField(i, t, r);
  }
  return MODEL;
}

/** A cap typed as text ("28." stays while typed; see ParsedInput). */
function CapInput({
  value,
  onCap,
  ...rest
}: { value: CapIn; onCap(c: CapIn): void } & Omit<ComponentProps<'input'>, 'value' | 'onChange'>) {
  return <ParsedInput {...rest} className="field w-28" value={value} format={capToText} parse={textToCap} onValue={onCap} />;
}

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
  const field = fieldOfIssue(issue.path, rawBuckets(d.text));
  const where = `${issue.path.join('.') || 'model'}`;
  if (field === MODEL) return [{ field, message: `${where}: ${issue.message}` }];
  const message = field.endsWith('-days')
    ? 'Enter a whole number of days from 1 to 366.'
    : field.endsWith('-window')
      ? issue.message
      : CAP_PROBLEM;
  return [{ field, where, message }];
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

  /** Change the draft's model as written (only while its JSON parses). */
  function editBucket(i: number, edit: (b: RawBucket) => void) {
    form.setDraft((d) => {
      try {
        const json = JSON.parse(d.text) as { buckets: RawBucket[] };
        edit(json.buckets[i]);
        return { ...d, text: JSON.stringify(json, null, 2) };
      } catch {
        return d;
      }
    });
  }
  function setCap(i: number, t: CustomerType, r: Residency, cap: CapIn) {
    editBucket(i, (b) => {
      b.caps ??= {};
      const now = b.caps[t];
      const other: Residency = r === 'resident' ? 'non_resident' : 'resident';
      if (now !== null && typeof now === 'object') now[r] = cap;
      else if (JSON.stringify(capOf(now, other)) === JSON.stringify(cap)) b.caps[t] = cap;
      else b.caps[t] = { [r]: cap, [other]: capOf(now, other) } as { resident: CapIn; non_resident: CapIn };
    });
  }
  function setWindow(i: number, type: string, days?: number) {
    editBucket(i, (b) => {
      b.window = type === 'rolling_days' ? { type, days: days ?? b.window?.days ?? 14 } : { type };
    });
  }
  const buckets = rawBuckets(draft.text);

  return (
    <>
      <PageTitle>Purchase limits</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        What one customer may buy: buckets (flower, concentrate, THC, flower equivalent), each with a cap per customer type and residency
        and a window (the order, the calendar day in the store’s time zone, rolling days, the month). The cart and the server enforce the
        same model; a guest is counted per order only. The model now is {SOURCE[current.source]}.
      </p>
      <InForce version={current.version} />
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
        {buckets && buckets.length > 0 && (
          <div className="overflow-x-auto">
            <table className="text-sm">
              <caption className="text-left font-semibold">Caps and windows</caption>
              <thead>
                <tr>
                  <th scope="col">Bucket</th>
                  <th scope="col">Window</th>
                  {CUSTOMER_TYPES.flatMap(([t, tl]) =>
                    RESIDENCY.map(([r, rl]) => (
                      <th scope="col" key={`${t}-${r}`}>
                        {tl}, {rl}
                      </th>
                    )),
                  )}
                </tr>
              </thead>
              <tbody>
                {buckets.map((b, i) => {
                  const name = b.label || b.id || `Bucket ${i + 1}`;
                  const type = b.window?.type ?? 'transaction';
                  return (
                    <tr key={i}>
                      <th scope="row">{name}</th>
                      <td>
                        <select
                          {...form.fieldProps(windowField(i))}
                          aria-label={`${name}: window`}
                          className="field"
                          value={type}
                          onChange={(e) => setWindow(i, e.target.value)}
                        >
                          {WINDOWS.map(([w, wl]) => (
                            <option key={w} value={w}>
                              {wl}
                            </option>
                          ))}
                        </select>
                        <FieldProblems form={form} field={windowField(i)} />
                        {type === 'rolling_days' && (
                          <>
                            <input
                              {...form.fieldProps(daysField(i))}
                              aria-label={`${name}: days in the window`}
                              type="number"
                              min={1}
                              max={366}
                              className="field mt-1 w-24"
                              value={b.window?.days ?? ''}
                              onChange={(e) => setWindow(i, type, e.target.value === '' ? Number.NaN : Number(e.target.value))}
                            />
                            <FieldProblems form={form} field={daysField(i)} />
                          </>
                        )}
                      </td>
                      {CUSTOMER_TYPES.flatMap(([t, tl]) =>
                        RESIDENCY.map(([r, rl]) => (
                          <td key={`${t}-${r}`}>
                            <CapInput
                              {...form.fieldProps(capField(i, t, r))}
                              aria-label={`${name}: cap, ${tl.toLowerCase()} ${rl}`}
                              value={capOf(b.caps?.[t], r)}
                              onCap={(cap) => setCap(i, t, r, cap)}
                            />
                            <FieldProblems form={form} field={capField(i, t, r)} />
                          </td>
                        )),
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <p className="text-sm text-stone-700">
              A cap is in the bucket’s unit (grams, or mg of THC); “no cap” or “not sold” instead of a number. The JSON below follows.
            </p>
          </div>
        )}
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
          <span>
            Count a customer’s orders at every store of the same licence holder (the model’s <code>share_with_licence_holder</code>)
          </span>
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
