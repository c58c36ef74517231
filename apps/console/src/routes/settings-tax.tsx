/**
 * Tax lines (issue 14, "Tax rules per store"): the store's named tax lines — title, kind, rate, base
 * (the price, or the price plus the lines above: California's sales tax on top of the excise), the
 * products a line applies to (product tax classes, product kinds, a THC band: Illinois' 10 / 20 /
 * 25 % tiers) and who is exempt (medical shoppers, medical ID card holders, recreational shoppers).
 * Saved through the settings section `tax` over the version read (a save made meanwhile answers 409:
 * the current value is shown, nothing overwritten). The same zod schema checks the form here, on the
 * server and at start; the example below is computed by the same domain code as carts and orders.
 */
import type { ComponentProps, ReactNode } from 'react';
import {
  TAX_EXEMPTIONS,
  TAX_PRODUCT_KINDS,
  californiaTaxLines,
  coloradoTaxLines,
  computeTaxLines,
  formatMoney,
  illinoisTaxLines,
  taxSettingsSchema,
  type TaxExemption,
  type TaxLineInput,
  type TaxProductKind,
} from '@verdant/domain';
import { ParsedInput } from '../components/settings/ParsedInput.tsx';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection, type FieldProblem, type SettingsSectionForm, type SettingsSource } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'today’s rates (the default)',
};

const EXEMPTION_LABEL: Record<TaxExemption, string> = {
  medical: 'Medical shoppers',
  medical_card: 'Medical ID card holders',
  recreational: 'Recreational shoppers',
};

const KIND_LABEL: Record<TaxProductKind, string> = {
  flower: 'Flower',
  pre_roll: 'Pre-rolls',
  concentrate: 'Concentrates',
  vape: 'Vapes',
  infused: 'Infused (edibles, tinctures)',
  topical: 'Topicals',
  non_cannabis: 'Not cannabis',
};

const PRESETS = {
  california: {
    name: 'California (15% excise, sales tax on top)',
    lines: () => californiaTaxLines({ city: 'City', salesPercent: 7.25 }).lines,
  },
  illinois: { name: 'Illinois (10/20/25% excise by potency, 6.25%)', lines: () => illinoisTaxLines().lines },
  colorado: { name: 'Colorado (15% + 2.9%)', lines: () => coloradoTaxLines().lines },
} as const;
type PresetId = keyof typeof PRESETS;

/** A labelled field of a line, its problems under it. */
function Field({ form, id, label, children }: { form: TaxForm; id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldProblems form={form} field={id} />
    </div>
  );
}

/**
 * Product tax class ids typed as "2, 3": the text is the field's own while it is typed (a trailing
 * comma or a half-typed id stays), and the ids go to the line as they parse; a word that is not a
 * number goes as NaN, which the schema names.
 */
function ClassIdsInput({
  ids,
  onIds,
  ...rest
}: { ids: number[] | undefined; onIds(ids: number[] | undefined): void } & Omit<ComponentProps<'input'>, 'value' | 'onChange'>) {
  const parse = (t: string) => {
    const list = t
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .map(Number);
    return list.length ? list : undefined;
  };
  return <ParsedInput {...rest} className="field" value={ids} format={(v) => (v ?? []).join(', ')} parse={parse} onValue={onIds} />;
}

const numberOrUndefined = (v: string) => (v.trim() === '' ? undefined : Number(v));

type TaxForm = SettingsSectionForm<{ lines: TaxLineInput[] }, TaxLineInput[]>;

/** The id of a line's field. */
const fieldOf = (i: number, name: string) => `tax-line-${i}-${name}`;

const FIELD_OF_KEY: Record<string, [name: string, label: string]> = {
  title: ['title', 'Title'],
  code: ['code', 'Code'],
  kind: ['kind', 'Kind'],
  rate: ['rate', 'Rate (%)'],
  base: ['base', 'Charged on'],
  tax_class_ids: ['classes', 'Product tax classes'],
  thc_percent_above: ['thc-above', 'THC above (%)'],
  thc_percent_at_most: ['thc-at-most', 'THC at most (%)'],
};

/** The schema's problems, each tied to the field of the line it is about. */
function taxProblems(lines: TaxLineInput[]): FieldProblem[] {
  const checked = taxSettingsSchema.safeParse({ lines });
  if (checked.success) return [];
  return checked.error.issues.map((issue) => {
    const [, index, key, sub] = issue.path;
    if (typeof index !== 'number') return { field: 'tax-preset', message: issue.message };
    // applies_to's own rule ("THC above" below "THC at most") is about the first of the two fields.
    const name = key === 'applies_to' ? (typeof sub === 'string' ? sub : 'thc_percent_above') : String(key);
    const [field, label] = FIELD_OF_KEY[name] ?? FIELD_OF_KEY.title;
    return { field: fieldOf(index, field), message: issue.message, where: `Line ${index + 1} › ${label}` };
  });
}

export function TaxSettingsPage() {
  useTitle('Tax lines');
  const form = useSettingsSection<{ lines: TaxLineInput[] }, TaxLineInput[]>({
    section: 'tax',
    toDraft: (v) => v.lines,
    toValue: (lines) => ({ lines }),
    validate: taxProblems,
    savedText: 'Tax lines saved. Carts and new orders use them now; placed orders keep the lines they were charged.',
    staleText: 'Someone saved the tax lines meanwhile. Their lines are shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;
  const lines = form.draft;
  const setLines = form.setDraft;
  const checked = taxSettingsSchema.safeParse({ lines });

  const change = (i: number, patch: Partial<TaxLineInput>) => setLines((ls) => ls.map((l, k) => (k === i ? { ...l, ...patch } : l)));
  const changeApplies = (i: number, patch: Partial<NonNullable<TaxLineInput['applies_to']>>) =>
    setLines((ls) =>
      ls.map((l, k) => {
        if (k !== i) return l;
        const next: Record<string, unknown> = { ...(l.applies_to ?? {}), ...patch };
        for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
        return { ...l, applies_to: next };
      }),
    );
  const move = (i: number, by: number) =>
    setLines((ls) => {
      const j = i + by;
      if (j < 0 || j >= ls.length) return ls;
      const copy = [...ls];
      [copy[i], copy[j]] = [copy[j], copy[i]];
      return copy;
    });

  // An example with today's lines: $100.00 of flower at 20 % THC, recreational.
  const example = checked.success
    ? computeTaxLines([{ id: 'x', net: 10000, taxClassId: 2, kind: 'flower', thcPercent: 20 }], checked.data.lines, {
        medical: false,
        medicalCard: false,
      })
    : null;

  return (
    <>
      <PageTitle>Tax lines</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Each line is stated separately in the cart, on the order, the receipt and the tax report, rounded to the cent once per line. A line
        on “price plus the lines above” is charged on the price and every earlier line that applies (California charges sales tax on top of
        the excise). The lines now are {SOURCE[current.source]}.
      </p>
      <SettingsForm
        form={form}
        label="Tax lines"
        problemsTitle="The tax lines were not saved:"
        className="card grid max-w-4xl gap-4"
        noValidate
      >
        <label htmlFor="tax-preset" className="font-semibold">
          Replace with a state preset
        </label>
        <select
          id="tax-preset"
          value=""
          onChange={(e) => e.target.value && setLines(PRESETS[e.target.value as PresetId].lines().map((l) => ({ ...l })))}
          className="field"
        >
          <option value="">— keep the lines below —</option>
          {(Object.keys(PRESETS) as PresetId[]).map((id) => (
            <option key={id} value={id}>
              {PRESETS[id].name}
            </option>
          ))}
        </select>
        {lines.map((l, i) => {
          const id = `tax-line-${i}`;
          const a = l.applies_to ?? {};
          return (
            <fieldset key={i} className="grid gap-2 border border-stone-300 p-3" aria-labelledby={`${id}-legend`}>
              <legend id={`${id}-legend`} className="font-semibold">
                Line {i + 1}: {l.title || '(no title)'}
              </legend>
              <div className="grid grid-cols-2 gap-2 md:grid-cols-4">
                <Field form={form} id={fieldOf(i, 'title')} label="Title">
                  <input
                    {...form.fieldProps(fieldOf(i, 'title'))}
                    className="field"
                    value={l.title}
                    onChange={(e) => change(i, { title: e.target.value })}
                  />
                </Field>
                <Field form={form} id={fieldOf(i, 'code')} label="Code">
                  <input
                    {...form.fieldProps(fieldOf(i, 'code'))}
                    className="field"
                    value={l.code}
                    onChange={(e) => change(i, { code: e.target.value })}
                  />
                </Field>
                <Field form={form} id={fieldOf(i, 'kind')} label="Kind">
                  <select
                    {...form.fieldProps(fieldOf(i, 'kind'))}
                    className="field"
                    value={l.kind}
                    onChange={(e) => change(i, { kind: e.target.value as TaxLineInput['kind'] })}
                  >
                    <option value="excise">Excise</option>
                    <option value="sales">Sales</option>
                  </select>
                </Field>
                <Field form={form} id={fieldOf(i, 'rate')} label="Rate (%)">
                  <input
                    {...form.fieldProps(fieldOf(i, 'rate'))}
                    className="field"
                    type="number"
                    inputMode="decimal"
                    step="0.0001"
                    min="0"
                    max="100"
                    value={Number.isNaN(l.rate) ? '' : l.rate}
                    // Empty is "no rate yet" (NaN: the schema names it), not 0 %.
                    onChange={(e) => change(i, { rate: e.target.value.trim() === '' ? Number.NaN : Number(e.target.value) })}
                  />
                </Field>
                <Field form={form} id={fieldOf(i, 'base')} label="Charged on">
                  <select
                    {...form.fieldProps(fieldOf(i, 'base'))}
                    className="field"
                    value={l.base ?? 'price'}
                    onChange={(e) => change(i, { base: e.target.value as TaxLineInput['base'] })}
                  >
                    <option value="price">the price</option>
                    <option value="price_plus_earlier">the price plus the lines above</option>
                  </select>
                </Field>
                <Field form={form} id={fieldOf(i, 'classes')} label="Product tax classes (comma-separated, empty: all)">
                  <ClassIdsInput
                    {...form.fieldProps(fieldOf(i, 'classes'))}
                    ids={a.tax_class_ids}
                    onIds={(ids) => changeApplies(i, { tax_class_ids: ids })}
                  />
                </Field>
                <Field form={form} id={fieldOf(i, 'thc-above')} label="THC above (%)">
                  <input
                    {...form.fieldProps(fieldOf(i, 'thc-above'))}
                    className="field"
                    type="number"
                    step="0.1"
                    min="0"
                    max="100"
                    value={a.thc_percent_above ?? ''}
                    onChange={(e) => changeApplies(i, { thc_percent_above: numberOrUndefined(e.target.value) })}
                  />
                </Field>
                <Field form={form} id={fieldOf(i, 'thc-at-most')} label="THC at most (%)">
                  <input
                    {...form.fieldProps(fieldOf(i, 'thc-at-most'))}
                    className="field"
                    type="number"
                    step="0.1"
                    min="0"
                    max="100"
                    value={a.thc_percent_at_most ?? ''}
                    onChange={(e) => changeApplies(i, { thc_percent_at_most: numberOrUndefined(e.target.value) })}
                  />
                </Field>
              </div>
              <fieldset>
                <legend className="text-sm font-semibold">Product kinds (none ticked: all)</legend>
                {TAX_PRODUCT_KINDS.map((k) => (
                  <label key={k} className="mr-3 inline-flex items-center gap-1 text-sm">
                    <input
                      type="checkbox"
                      checked={(a.kinds ?? []).includes(k)}
                      onChange={(e) => {
                        const kinds = e.target.checked ? [...(a.kinds ?? []), k] : (a.kinds ?? []).filter((x) => x !== k);
                        changeApplies(i, { kinds: kinds.length ? kinds : undefined });
                      }}
                    />
                    {KIND_LABEL[k]}
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend className="text-sm font-semibold">Exempt</legend>
                {TAX_EXEMPTIONS.map((x) => (
                  <label key={x} className="mr-3 inline-flex items-center gap-1 text-sm">
                    <input
                      type="checkbox"
                      checked={(l.exempt ?? []).includes(x)}
                      onChange={(e) =>
                        change(i, { exempt: e.target.checked ? [...(l.exempt ?? []), x] : (l.exempt ?? []).filter((y) => y !== x) })
                      }
                    />
                    {EXEMPTION_LABEL[x]}
                  </label>
                ))}
              </fieldset>
              <div className="flex gap-2">
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => move(i, -1)}
                  disabled={i === 0}
                  aria-label={`Move line ${i + 1} up`}
                >
                  Up
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => move(i, 1)}
                  disabled={i === lines.length - 1}
                  aria-label={`Move line ${i + 1} down`}
                >
                  Down
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  onClick={() => setLines((ls) => ls.filter((_, k) => k !== i))}
                  aria-label={`Remove line ${i + 1}`}
                >
                  Remove
                </button>
              </div>
            </fieldset>
          );
        })}
        <div>
          <button
            type="button"
            className="btn-secondary"
            onClick={() =>
              setLines((ls) => [
                ...ls,
                { code: `line-${ls.length + 1}`, title: '', kind: 'sales', rate: 0, base: 'price', applies_to: {}, exempt: [] },
              ])
            }
          >
            Add a line
          </button>
        </div>
        {example && (
          <table className="text-sm">
            <caption className="text-left font-semibold">Example: $100.00 of flower (tax class 2) at 20% THC, recreational</caption>
            <tbody>
              {example.lines
                .filter((x) => x.taxable > 0)
                .map((x) => (
                  <tr key={x.code}>
                    <th scope="row" className="pr-4 text-left">
                      {x.title} ({x.rate}%)
                    </th>
                    <td>{formatMoney(x.amount)}</td>
                  </tr>
                ))}
              <tr>
                <th scope="row" className="pr-4 text-left">
                  Total
                </th>
                <td>{formatMoney(10000 + example.excise + example.sales)}</td>
              </tr>
            </tbody>
          </table>
        )}
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
