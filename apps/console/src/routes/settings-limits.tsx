/**
 * Purchase limits (issue 14, "Purchase-limit buckets"): the store's limit model — pick a state preset
 * (California, Colorado, Michigan, Illinois, Massachusetts, Nevada) or edit the buckets' caps, units
 * and windows — and the licence holder whose stores share a customer's earlier orders. Saved through
 * the settings section `limits` over the version read (a save made meanwhile answers 409: the current
 * value is shown, nothing overwritten). The model is edited as JSON in the shape of the stores file's
 * `settings.limits.model` (the same zod schema checks it here, on the server and at start).
 */
import { useEffect, useRef, useState, type ComponentProps } from 'react';
import {
  LIMIT_MEASURES,
  LIMIT_PRESETS,
  LIMIT_UNITS,
  formatLimitAmount,
  safeParseLimitModel,
  type Cap,
  type LimitMeasure,
  type LimitModelInput,
  type LimitPresetId,
  type LimitUnit,
} from '@verdant/domain';
import { JsonToggle, jsonShown } from '../components/settings/JsonToggle.tsx';
import { ParsedInput } from '../components/settings/ParsedInput.tsx';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection, type FieldProblem, type SettingsSource } from '../lib/use-settings-section.ts';
import { useStore, useTitle } from './layout.tsx';
import { api } from '../lib/api.ts';
import { useResource } from '../lib/use-resource.ts';
import type { LimitsInForce } from '../lib/types.ts';

interface LimitsValue {
  preset: LimitPresetId | null;
  model: LimitModelInput;
  licence_holder: string | null;
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
type Factor = { amount?: unknown; counts_as?: unknown };
type RawBucket = {
  id?: string;
  label?: string;
  unit?: string;
  counts?: Partial<Record<LimitMeasure, Factor>>;
  caps?: Record<string, CapsIn>;
  window?: { type?: string; days?: number | null };
};
const UNIT_LABEL: Record<LimitUnit, string> = {
  flower_g: 'Grams of flower',
  concentrate_g: 'Grams of concentrate',
  thc_mg: 'Milligrams of THC',
  flower_equivalent_g: 'Grams of flower equivalent',
};
const MEASURE_LABEL: Record<LimitMeasure, string> = { flower_g: 'g of flower', concentrate_g: 'g of concentrate', thc_mg: 'mg of THC' };
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
const labelField = (i: number) => `limits-${i}-label`;
const idField = (i: number) => `limits-${i}-id`;
const unitField = (i: number) => `limits-${i}-unit`;
const factorField = (i: number, m: LimitMeasure, part: 'amount' | 'counts_as') => `limits-${i}-counts-${m}-${part}`;
/** The form/JSON switch: where a problem no form field shows is sent. */
const TOGGLE = 'limits-json-toggle';
const isFigure = (v: unknown) => typeof v === 'number' && v > 0 && v <= 1_000_000 && Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-6;
const figureText = (v: unknown) => (v == null ? '' : String(v));
const figureOf = (t: string): unknown => (/^\d+(\.\d+)?$/.test(t.trim()) ? Number(t.trim()) : t.trim() === '' ? null : t);

/**
 * The form's problems, each at its field and naming it ("Id: lowercase letters, …"), listed under
 * its bucket; what the schema finds beyond them goes to the switch to the JSON (the JSON shows it).
 */
function formProblems(d: Draft, buckets: RawBucket[]): FieldProblem[] {
  const found: FieldProblem[] = [];
  const ids = buckets.map((b) => b.id);
  buckets.forEach((b, i) => {
    const where = `Bucket ${i + 1}${b.label?.trim() ? ` (${b.label.trim()})` : ''}`;
    const add = (field: string, message: string) => found.push({ field, message, where });
    const label = typeof b.label === 'string' ? b.label.trim() : '';
    if (!label) add(labelField(i), 'Name: give the bucket a name.');
    else if (label.length > 40) add(labelField(i), 'Name: at most 40 characters.');
    if (typeof b.id !== 'string' || !/^[a-z][a-z0-9_-]{0,39}$/.test(b.id))
      add(idField(i), 'Id: lowercase letters, digits, “-” and “_”, starting with a letter, at most 40.');
    else if (ids.filter((x) => x === b.id).length > 1) add(idField(i), `Id: another bucket has the id “${b.id}”; ids must differ.`);
    if (b.window?.type === 'rolling_days' && !(Number.isInteger(b.window.days) && b.window.days! >= 1 && b.window.days! <= 366))
      add(daysField(i), 'Enter a whole number of days from 1 to 366.');
    for (const [t] of CUSTOMER_TYPES) for (const [r] of RESIDENCY) if (!capIsValid(capOf(b.caps?.[t], r))) add(capField(i, t, r), CAP_PROBLEM);
    if (b.unit === 'flower_equivalent_g') {
      const counts = Object.entries(b.counts ?? {}) as [LimitMeasure, Factor][];
      if (counts.length === 0) add(factorField(i, 'flower_g', 'amount'), 'Counts: tick at least one of flower, concentrate or THC.');
      for (const [m, f] of counts) {
        if (!isFigure(f.amount)) add(factorField(i, m, 'amount'), `Amount of ${MEASURE_LABEL[m]}: a number above 0, at most 3 decimals.`);
        if (!isFigure(f.counts_as)) add(factorField(i, m, 'counts_as'), `Counts as (g of flower): a number above 0, at most 3 decimals.`);
      }
    }
  });
  if (found.length > 0) return found;
  const rest = modelProblems(d);
  return rest.map((p) => (p.field === MODEL ? { ...p, field: TOGGLE, message: `${p.message} (in the JSON)` } : p));
}
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
  const [asJson, setAsJson] = useState(false);
  // After adding or removing a bucket: the field to focus once it is rendered.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const form = useSettingsSection<LimitsValue, Draft>({
    section: 'limits',
    toDraft: (v) => ({ preset: v.preset ?? '', text: JSON.stringify(v.model, null, 2), holder: v.licence_holder ?? '' }),
    toValue: (d) => ({ preset: d.preset || null, model: JSON.parse(d.text) as LimitModelInput, licence_holder: d.holder.trim() || null }),
    validate: (d) => {
      const list = asJson ? null : rawBuckets(d.text);
      return list ? formProblems(d, list) : modelProblems(d);
    },
    validateOnBlur: true,
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
  // The form needs the JSON to parse: while it does not, the JSON editor stays open.
  const showJson = jsonShown(asJson, buckets !== null);
  function editBuckets(edit: (list: RawBucket[]) => void) {
    form.setDraft((d) => {
      try {
        const json = JSON.parse(d.text) as { buckets: RawBucket[] };
        edit(json.buckets);
        return { ...d, text: JSON.stringify(json, null, 2) };
      } catch {
        return d;
      }
    });
  }
  function addBucket() {
    if (!buckets) return;
    focusNext.current = labelField(buckets.length);
    editBuckets((list) => {
      let n = list.length + 1;
      while (list.some((b) => b.id === `bucket-${n}`)) n++;
      list.push({
        id: `bucket-${n}`,
        label: `Bucket ${n}`,
        unit: 'flower_g',
        caps: { recreational: null, medical: null },
        window: { type: 'transaction' },
      });
    });
  }
  function removeBucket(i: number) {
    if (!buckets) return;
    focusNext.current = buckets.length > 1 ? labelField(Math.min(i, buckets.length - 2)) : 'limits-add-bucket';
    editBuckets((list) => void list.splice(i, 1));
  }
  function setUnit(i: number, unit: LimitUnit) {
    editBucket(i, (b) => {
      b.unit = unit;
      if (unit === 'flower_equivalent_g') b.counts = b.counts && Object.keys(b.counts).length ? b.counts : { flower_g: { amount: 1, counts_as: 1 } };
      else delete b.counts;
    });
  }
  function setFactor(i: number, m: LimitMeasure, f: Factor | null) {
    editBucket(i, (b) => {
      const counts = { ...(b.counts ?? {}) };
      if (f) counts[m] = f;
      else delete counts[m];
      b.counts = counts;
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
        <JsonToggle
          id={TOGGLE}
          asJson={asJson}
          parses={buckets !== null}
          onChange={setAsJson}
          formHint={'A cap is in the bucket’s unit; “no cap” or “not sold” instead of a number.'}
          jsonHint={'For power users: the model as the stores file writes it.'}
        />
        {!showJson && buckets && (
          <>
            {buckets.map((b, i) => {
              const name = b.label || b.id || `Bucket ${i + 1}`;
              const type = b.window?.type ?? 'transaction';
              const unit = (LIMIT_UNITS as readonly string[]).includes(b.unit ?? '') ? (b.unit as LimitUnit) : 'flower_g';
              return (
                <fieldset key={i} className="grid gap-3 rounded border border-stone-300 p-3 sm:grid-cols-2">
                  <legend className="px-1 font-semibold">
                    Bucket {i + 1}: {name}
                  </legend>
                  <div>
                    <label htmlFor={labelField(i)} className="text-sm font-semibold">
                      Name
                    </label>
                    <input
                      {...form.fieldProps(labelField(i))}
                      className="field"
                      autoComplete="off"
                      value={b.label ?? ''}
                      onChange={(e) => editBucket(i, (x) => void (x.label = e.target.value))}
                    />
                    <FieldProblems form={form} field={labelField(i)} />
                  </div>
                  <div>
                    <label htmlFor={idField(i)} className="text-sm font-semibold">
                      Id
                    </label>
                    <input
                      {...form.fieldProps(idField(i), `${idField(i)}-help`)}
                      className="field font-mono"
                      autoComplete="off"
                      value={b.id ?? ''}
                      onChange={(e) => editBucket(i, (x) => void (x.id = e.target.value))}
                    />
                    <p id={`${idField(i)}-help`} className="text-sm text-stone-700">
                      lowercase letters, digits, “-” and “_”
                    </p>
                    <FieldProblems form={form} field={idField(i)} />
                  </div>
                  <div>
                    <label htmlFor={unitField(i)} className="text-sm font-semibold">
                      Counted in
                    </label>
                    <select
                      {...form.fieldProps(unitField(i))}
                      className="field"
                      value={unit}
                      onChange={(e) => setUnit(i, e.target.value as LimitUnit)}
                    >
                      {LIMIT_UNITS.map((u) => (
                        <option key={u} value={u}>
                          {UNIT_LABEL[u]}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div>
                    <label htmlFor={windowField(i)} className="text-sm font-semibold">
                      Window
                    </label>
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
                  </div>
                  {CUSTOMER_TYPES.flatMap(([t, tl]) =>
                    RESIDENCY.map(([r, rl]) => (
                      <div key={`${t}-${r}`}>
                        <label htmlFor={capField(i, t, r)} className="text-sm font-semibold">
                          Cap: {tl.toLowerCase()} {rl}
                        </label>
                        <CapInput
                          {...form.fieldProps(capField(i, t, r))}
                          aria-label={`${name}: cap, ${tl.toLowerCase()} ${rl}`}
                          value={capOf(b.caps?.[t], r)}
                          onCap={(cap) => setCap(i, t, r, cap)}
                        />
                        <FieldProblems form={form} field={capField(i, t, r)} />
                      </div>
                    )),
                  )}
                  {unit === 'flower_equivalent_g' && (
                    <fieldset className="grid gap-2 sm:col-span-2">
                      <legend className="text-sm font-semibold">What counts, as grams of flower</legend>
                      {LIMIT_MEASURES.map((m) => {
                        const f = b.counts?.[m];
                        return (
                          <div key={m} className="flex flex-wrap items-start gap-2">
                            <label className="mt-3 flex items-center gap-2 font-normal">
                              <input
                                type="checkbox"
                                className="size-5"
                                checked={!!f}
                                onChange={(e) => setFactor(i, m, e.target.checked ? { amount: 1, counts_as: 1 } : null)}
                              />
                              Counts {MEASURE_LABEL[m]}
                            </label>
                            {f && (
                              <>
                                <div>
                                  <ParsedInput
                                    {...form.fieldProps(factorField(i, m, 'amount'))}
                                    aria-label={`${name}: amount of ${MEASURE_LABEL[m]}`}
                                    inputMode="decimal"
                                    className="field w-24"
                                    value={f.amount}
                                    format={figureText}
                                    parse={figureOf}
                                    onValue={(v) => setFactor(i, m, { ...f, amount: v })}
                                  />
                                  <FieldProblems form={form} field={factorField(i, m, 'amount')} />
                                </div>
                                <span className="mt-3">counts as</span>
                                <div>
                                  <ParsedInput
                                    {...form.fieldProps(factorField(i, m, 'counts_as'))}
                                    aria-label={`${name}: ${MEASURE_LABEL[m]} counts as grams of flower`}
                                    inputMode="decimal"
                                    className="field w-24"
                                    value={f.counts_as}
                                    format={figureText}
                                    parse={figureOf}
                                    onValue={(v) => setFactor(i, m, { ...f, counts_as: v })}
                                  />
                                  <FieldProblems form={form} field={factorField(i, m, 'counts_as')} />
                                </div>
                                <span className="mt-3">g of flower</span>
                              </>
                            )}
                          </div>
                        );
                      })}
                      {!b.counts?.flower_g && <FieldProblems form={form} field={factorField(i, 'flower_g', 'amount')} />}
                    </fieldset>
                  )}
                  <div className="sm:col-span-2">
                    <button type="button" className="btn-secondary" onClick={() => removeBucket(i)}>
                      Remove bucket {name}
                    </button>
                  </div>
                </fieldset>
              );
            })}
            <div>
              <button id="limits-add-bucket" type="button" className="btn-secondary" onClick={addBucket}>
                Add a bucket
              </button>
            </div>
          </>
        )}
        {showJson && (
          <>
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
          </>
        )}
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
