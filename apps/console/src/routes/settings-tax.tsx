/**
 * Tax lines (issue 14, "Tax rules per store"): the store's named tax lines — title, kind, rate, base
 * (the price, or the price plus the lines above: California's sales tax on top of the excise), the
 * products a line applies to (product tax classes, product kinds, a THC band: Illinois' 10 / 20 /
 * 25 % tiers) and who is exempt (medical shoppers, medical ID card holders, recreational shoppers).
 * Saved through the settings section `tax` over the version read (a save made meanwhile answers 409:
 * the current value is shown, nothing overwritten). The same zod schema checks the form here, on the
 * server and at start; the example below is computed by the same domain code as carts and orders.
 */
import { useEffect, useState, type FormEvent } from 'react';
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
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { ApiFailure, api, errorText } from '../lib/api.ts';
import { useResource } from '../lib/use-resource.ts';
import { useStore, useTitle } from './layout.tsx';

interface Section {
  value: { lines: TaxLineInput[] };
  version: number;
  source: 'saved' | 'stores-file' | 'default';
  updatedAt: string | null;
}

const SOURCE: Record<Section['source'], string> = {
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

const numberOrUndefined = (v: string) => (v.trim() === '' ? undefined : Number(v));

export function TaxSettingsPage() {
  useTitle('Tax lines');
  const { store } = useStore();
  const path = `/stores/${store.id}/settings/sections/tax`;
  const section = useResource(String(store.id), () => api<Section>('GET', path));
  const [lines, setLines] = useState<TaxLineInput[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (section.data) setLines(section.data.value.lines);
  }, [section.data]);

  if (!section.data) return section.error ? <ErrorNote>{section.error}</ErrorNote> : <Loading />;
  const current = section.data;

  const checked = taxSettingsSchema.safeParse({ lines });
  const problem = checked.success
    ? null
    : checked.error.issues.map((i) => `${i.path.map((p) => (typeof p === 'number' ? `line ${p + 1}` : p)).join(' › ')}: ${i.message}`)[0];

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
      const answer = await api<Section>('PUT', path, { value: { lines }, version: current.version });
      section.setData(answer);
      setSaved('Tax lines saved. Carts and new orders use them now; placed orders keep the lines they were charged.');
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 409) {
        setError('Someone saved the tax lines meanwhile. Their lines are shown now; make your change again.');
        await section.reload();
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageTitle>Tax lines</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Each line is stated separately in the cart, on the order, the receipt and the tax report, rounded to the cent once per line. A line
        on “price plus the lines above” is charged on the price and every earlier line that applies (California charges sales tax on top of
        the excise). The lines now are {SOURCE[current.source]}.
      </p>
      <form onSubmit={submit} className="card grid max-w-4xl gap-4" aria-label="Tax lines">
        <ErrorNote>{error}</ErrorNote>
        <div role="status">{saved}</div>
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
                <label>
                  Title
                  <input className="field" value={l.title} onChange={(e) => change(i, { title: e.target.value })} />
                </label>
                <label>
                  Code
                  <input className="field" value={l.code} onChange={(e) => change(i, { code: e.target.value })} />
                </label>
                <label>
                  Kind
                  <select className="field" value={l.kind} onChange={(e) => change(i, { kind: e.target.value as TaxLineInput['kind'] })}>
                    <option value="excise">Excise</option>
                    <option value="sales">Sales</option>
                  </select>
                </label>
                <label>
                  Rate (%)
                  <input
                    className="field"
                    type="number"
                    step="0.0001"
                    min="0"
                    max="100"
                    value={l.rate}
                    onChange={(e) => change(i, { rate: Number(e.target.value) })}
                  />
                </label>
                <label>
                  Charged on
                  <select
                    className="field"
                    value={l.base ?? 'price'}
                    onChange={(e) => change(i, { base: e.target.value as TaxLineInput['base'] })}
                  >
                    <option value="price">the price</option>
                    <option value="price_plus_earlier">the price plus the lines above</option>
                  </select>
                </label>
                <label>
                  Product tax classes (comma-separated, empty: all)
                  <input
                    className="field"
                    value={(a.tax_class_ids ?? []).join(', ')}
                    onChange={(e) => {
                      const ids = e.target.value
                        .split(',')
                        .map((s) => s.trim())
                        .filter(Boolean)
                        .map(Number);
                      changeApplies(i, { tax_class_ids: ids.length ? ids : undefined });
                    }}
                  />
                </label>
                <label>
                  THC above (%)
                  <input
                    className="field"
                    type="number"
                    step="0.1"
                    min="0"
                    max="100"
                    value={a.thc_percent_above ?? ''}
                    onChange={(e) => changeApplies(i, { thc_percent_above: numberOrUndefined(e.target.value) })}
                  />
                </label>
                <label>
                  THC at most (%)
                  <input
                    className="field"
                    type="number"
                    step="0.1"
                    min="0"
                    max="100"
                    value={a.thc_percent_at_most ?? ''}
                    onChange={(e) => changeApplies(i, { thc_percent_at_most: numberOrUndefined(e.target.value) })}
                  />
                </label>
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
        <p className="text-sm text-red-800" aria-live="polite">
          {problem}
        </p>
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
        <div>
          <button type="submit" className="btn" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </>
  );
}
