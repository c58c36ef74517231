/**
 * The loyalty programme (issue 30): the settings section `loyalty` — who earns (the state preset:
 * New York lets only medical customers earn), the earn rate, the sign-up bonus, multipliers by
 * weekday or product kind ("2× Tuesdays", "3× on pre-rolls"), tiers by spend in a window with their
 * own rates, and the expiry with its reminder. Typed values are checked here with clear words, and
 * again by the server (packages/domain/src/loyalty/programme.ts). docs/operators/loyalty.md.
 */
import { useId } from 'react';
import {
  DEAL_PRODUCT_KINDS,
  LOYALTY_LIMITS,
  LOYALTY_PRESET_INFO,
  LOYALTY_PRESETS,
  LOYALTY_WEEKDAY_NAMES,
  LOYALTY_WEEKDAYS,
  type DealProductKind,
  type LoyaltyEligibility,
  type LoyaltyPreset,
  type LoyaltyProgramme,
  type LoyaltyWeekday,
} from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import type { FieldProblem } from '../lib/use-settings-section.ts';
import { useSettingsSection } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

interface MultiplierDraft {
  label: string;
  multiplier: string;
  weekdays: LoyaltyWeekday[];
  kind: DealProductKind | '';
  /** Other product criteria the console does not edit (kept as saved). */
  rest: Record<string, unknown>;
}
interface TierDraft {
  name: string;
  spend: string;
  rate: string;
}
interface Draft {
  enabled: boolean;
  preset: LoyaltyPreset;
  eligibility: LoyaltyEligibility;
  earnRate: string;
  signupBonus: string;
  tierWindowDays: string;
  expiryDays: string;
  reminderDays: string;
  multipliers: MultiplierDraft[];
  tiers: TierDraft[];
}

const F = {
  earnRate: 'loyalty-earn-rate',
  bonus: 'loyalty-bonus',
  window: 'loyalty-window',
  expiry: 'loyalty-expiry',
  reminder: 'loyalty-reminder',
  preset: 'loyalty-preset',
  multLabel: (i: number) => `loyalty-mult-${i}-label`,
  mult: (i: number) => `loyalty-mult-${i}-value`,
  tierName: (i: number) => `loyalty-tier-${i}-name`,
  tierSpend: (i: number) => `loyalty-tier-${i}-spend`,
  tierRate: (i: number) => `loyalty-tier-${i}-rate`,
};

const DECIMAL = /^\d+(\.\d{1,2})?$/;
const WHOLE = /^\d+$/;

/** What is wrong with a rate or multiplier as typed (null: fine). */
export function decimalProblem(text: string, what: string, max: number): string | null {
  const t = text.trim();
  if (!DECIMAL.test(t)) return `Enter ${what} as a number from 0 to ${max} with at most two decimals, e.g. 2 or 1.5.`;
  if (Number(t) > max) return `${what[0].toUpperCase()}${what.slice(1)} is at most ${max}.`;
  return null;
}
export function wholeProblem(text: string, what: string, min: number, max: number): string | null {
  const t = text.trim();
  if (!WHOLE.test(t) || Number(t) < min || Number(t) > max) return `Enter ${what} as a whole number from ${min} to ${max}.`;
  return null;
}
function dollarsProblem(text: string): string | null {
  const t = text.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t) || Number(t) <= 0) return 'Enter the spend in dollars, e.g. 250 or 99.50.';
  return null;
}

function toDraft(v: LoyaltyProgramme): Draft {
  return {
    enabled: v.enabled,
    preset: v.preset,
    eligibility: v.eligibility,
    earnRate: String(v.earnRate),
    signupBonus: String(v.signupBonus),
    tierWindowDays: String(v.tierWindowDays),
    expiryDays: String(v.expiry.days),
    reminderDays: String(v.expiry.reminderDays),
    multipliers: v.multipliers.map((m) => {
      const { kinds, ...rest } = m.products ?? {};
      return { label: m.label, multiplier: String(m.multiplier), weekdays: [...(m.weekdays ?? [])], kind: kinds?.[0] ?? '', rest };
    }),
    tiers: [...v.tiers].sort((a, b) => a.minSpendCents - b.minSpendCents).map((t) => ({ name: t.name, spend: (t.minSpendCents / 100).toFixed(2), rate: String(t.earnRate) })),
  };
}

function toValue(d: Draft): LoyaltyProgramme {
  return {
    enabled: d.enabled,
    preset: d.preset,
    eligibility: d.eligibility,
    earnRate: Number(d.earnRate.trim()),
    signupBonus: Number(d.signupBonus.trim()),
    tierWindowDays: Number(d.tierWindowDays.trim()),
    expiry: { days: Number(d.expiryDays.trim()), reminderDays: Number(d.reminderDays.trim()) },
    multipliers: d.multipliers.map((m) => {
      const products = { ...m.rest, ...(m.kind ? { kinds: [m.kind] } : {}) };
      return {
        label: m.label.trim(),
        multiplier: Number(m.multiplier.trim()),
        ...(m.weekdays.length ? { weekdays: LOYALTY_WEEKDAYS.filter((w) => m.weekdays.includes(w)) } : {}),
        ...(Object.keys(products).length ? { products } : {}),
      };
    }),
    tiers: d.tiers.map((t) => ({ name: t.name.trim(), minSpendCents: Math.round(Number(t.spend.trim().replace(/^\$/, '')) * 100), earnRate: Number(t.rate.trim()) })),
  };
}

export function validateLoyalty(d: Draft): FieldProblem[] {
  const out: FieldProblem[] = [];
  const add = (field: string, message: string | null, where?: string) => message && out.push({ field, message, where });
  add(F.earnRate, decimalProblem(d.earnRate, 'the earn rate', LOYALTY_LIMITS.maxEarnRate), 'Earn rate');
  add(F.bonus, wholeProblem(d.signupBonus, 'the sign-up bonus', 0, LOYALTY_LIMITS.maxBonus), 'Sign-up bonus');
  add(F.window, wholeProblem(d.tierWindowDays, 'the tier window', 1, LOYALTY_LIMITS.maxWindowDays), 'Tier window');
  const expiry = wholeProblem(d.expiryDays, 'the days until points expire', 0, LOYALTY_LIMITS.maxExpiryDays);
  add(F.expiry, expiry, 'Expiry');
  const reminder = wholeProblem(d.reminderDays, 'the reminder days', 0, LOYALTY_LIMITS.maxExpiryDays);
  add(F.reminder, reminder, 'Reminder');
  if (!expiry && !reminder) {
    const days = Number(d.expiryDays.trim());
    const r = Number(d.reminderDays.trim());
    if (days > 0 && r >= days) add(F.reminder, 'The reminder must come before the expiry: fewer days than it.', 'Reminder');
    if (days === 0 && r > 0) add(F.reminder, 'Points that never expire need no reminder: set it to 0.', 'Reminder');
  }
  d.multipliers.forEach((m, i) => {
    const where = `Multiplier ${i + 1}`;
    if (!m.label.trim()) add(F.multLabel(i), 'Give the multiplier a name shoppers read, e.g. “2× Tuesdays”.', where);
    add(F.mult(i), decimalProblem(m.multiplier, 'the multiplier', LOYALTY_LIMITS.maxMultiplier), where);
  });
  const spends = new Set<string>();
  d.tiers.forEach((t, i) => {
    const where = `Tier ${i + 1}`;
    if (!t.name.trim()) add(F.tierName(i), 'Give the tier a name, e.g. “Gold”.', where);
    const sp = dollarsProblem(t.spend);
    add(F.tierSpend(i), sp, where);
    if (!sp) {
      const key = String(Math.round(Number(t.spend.trim().replace(/^\$/, '')) * 100));
      if (spends.has(key)) add(F.tierSpend(i), 'Another tier starts at the same spend.', where);
      spends.add(key);
    }
    add(F.tierRate(i), decimalProblem(t.rate, 'the tier’s earn rate', LOYALTY_LIMITS.maxEarnRate), where);
  });
  return out;
}

export function LoyaltySettingsPage() {
  useTitle('Loyalty programme');
  const rateHelp = useId();
  const form = useSettingsSection<LoyaltyProgramme, Draft>({
    section: 'loyalty',
    toDraft,
    toValue,
    validate: validateLoyalty,
    validateOnBlur: true,
    savedText: 'Loyalty programme saved.',
    staleText: 'Someone saved the loyalty programme meanwhile. Their version is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const d = form.draft;
  const info = LOYALTY_PRESET_INFO[d.preset];
  const set = (patch: Partial<Draft>) => form.setDraft((c) => ({ ...c, ...patch }));
  const setMult = (i: number, patch: Partial<MultiplierDraft>) => form.setDraft((c) => ({ ...c, multipliers: c.multipliers.map((m, j) => (j === i ? { ...m, ...patch } : m)) }));
  const setTier = (i: number, patch: Partial<TierDraft>) => form.setDraft((c) => ({ ...c, tiers: c.tiers.map((t, j) => (j === i ? { ...t, ...patch } : t)) }));
  const text = (field: string, value: string, onChange: (v: string) => void, extra: { help?: string; numeric?: boolean; className?: string } = {}) => (
    <input
      {...form.fieldProps(field, ...(extra.help ? [extra.help] : []))}
      type="text"
      inputMode={extra.numeric ? 'decimal' : undefined}
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={extra.className ?? 'field max-w-32'}
    />
  );

  return (
    <>
      <PageTitle>Loyalty programme</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Points customers earn on completed orders (1 point is worth 1¢ off a later order). Points are credited when an order is completed
        and given back or taken back when it is cancelled; a balance never goes below zero.
      </p>
      <SettingsForm form={form} label="Loyalty programme" problemsTitle="The loyalty programme was not saved:" className="grid max-w-3xl gap-4" noValidate>
        <section className="card grid gap-3" aria-labelledby="loyalty-who">
          <h2 id="loyalty-who" className="text-lg font-semibold">
            Who earns
          </h2>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Customers earn points
          </label>
          <label htmlFor={F.preset} className="font-semibold">
            State rule
          </label>
          <select
            id={F.preset}
            className="field"
            value={d.preset}
            onChange={(e) => {
              const preset = e.target.value as LoyaltyPreset;
              set({ preset, eligibility: preset === 'custom' ? d.eligibility : LOYALTY_PRESET_INFO[preset].eligibility });
            }}
          >
            {LOYALTY_PRESETS.map((p) => (
              <option key={p} value={p}>
                {LOYALTY_PRESET_INFO[p].title}
              </option>
            ))}
          </select>
          {info.sources.length > 0 && <p className="text-sm text-stone-700">Source: {info.sources.join('; ')}. Confirm with counsel.</p>}
          <fieldset className="grid gap-1">
            <legend className="font-semibold">Orders that earn</legend>
            {(['all', 'medical'] as const).map((e) => (
              <label key={e} className="flex items-center gap-2">
                <input type="radio" name="loyalty-eligibility" value={e} checked={d.eligibility === e} onChange={() => set({ eligibility: e, preset: d.preset === 'NY' || d.preset === 'default' ? 'custom' : d.preset })} />
                {e === 'all' ? 'Every customer’s orders' : 'Medical customers’ orders only'}
              </label>
            ))}
          </fieldset>
        </section>

        <section className="card grid gap-3" aria-labelledby="loyalty-earning">
          <h2 id="loyalty-earning" className="text-lg font-semibold">
            Earning
          </h2>
          <label htmlFor={F.earnRate} className="font-semibold">
            Points per dollar
          </label>
          <p id={rateHelp} className="text-sm text-stone-700">
            On what the customer paid before tax, after discounts and redeemed points; parts of a point are dropped.
          </p>
          {text(F.earnRate, d.earnRate, (v) => set({ earnRate: v }), { help: rateHelp, numeric: true })}
          <FieldProblems form={form} field={F.earnRate} />
          <label htmlFor={F.bonus} className="font-semibold">
            Sign-up bonus (points)
          </label>
          {text(F.bonus, d.signupBonus, (v) => set({ signupBonus: v }), { numeric: true })}
          <FieldProblems form={form} field={F.bonus} />
        </section>

        <section className="card grid gap-3" aria-labelledby="loyalty-multipliers">
          <h2 id="loyalty-multipliers" className="text-lg font-semibold">
            Multipliers
          </h2>
          <p className="text-sm text-stone-700">
            More points on some days (in the store’s time zone, the day the order was placed) or for some products. When several apply to a
            line, the largest counts.
          </p>
          {d.multipliers.map((m, i) => (
            <fieldset key={i} className="grid gap-2 rounded border border-stone-300 p-3">
              <legend className="px-1 font-semibold">Multiplier {i + 1}</legend>
              <label htmlFor={F.multLabel(i)}>Name shoppers read</label>
              {text(F.multLabel(i), m.label, (v) => setMult(i, { label: v }), { className: 'field' })}
              <FieldProblems form={form} field={F.multLabel(i)} />
              <label htmlFor={F.mult(i)}>Multiplier (× points)</label>
              {text(F.mult(i), m.multiplier, (v) => setMult(i, { multiplier: v }), { numeric: true })}
              <FieldProblems form={form} field={F.mult(i)} />
              <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
                <legend className="mb-1">Days (none: every day)</legend>
                {LOYALTY_WEEKDAYS.map((w) => (
                  <label key={w} className="flex min-h-11 items-center gap-1">
                    <input
                      type="checkbox"
                      checked={m.weekdays.includes(w)}
                      onChange={(e) => setMult(i, { weekdays: e.target.checked ? [...m.weekdays, w] : m.weekdays.filter((x) => x !== w) })}
                    />
                    {LOYALTY_WEEKDAY_NAMES[w]}
                  </label>
                ))}
              </fieldset>
              <label htmlFor={`loyalty-mult-${i}-kind`}>Products</label>
              <select id={`loyalty-mult-${i}-kind`} className="field max-w-60" value={m.kind} onChange={(e) => setMult(i, { kind: e.target.value as DealProductKind | '' })}>
                <option value="">Every product</option>
                {DEAL_PRODUCT_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
              {Object.keys(m.rest).length > 0 && <p className="text-sm text-stone-700">Also limited to products set through the API ({Object.keys(m.rest).join(', ')}).</p>}
              <div>
                <button type="button" className="btn-secondary" onClick={() => form.setDraft((c) => ({ ...c, multipliers: c.multipliers.filter((_, j) => j !== i) }))}>
                  Remove multiplier {i + 1}
                </button>
              </div>
            </fieldset>
          ))}
          {d.multipliers.length < LOYALTY_LIMITS.maxMultipliers && (
            <div>
              <button type="button" className="btn-secondary" onClick={() => set({ multipliers: [...d.multipliers, { label: '', multiplier: '2', weekdays: [], kind: '', rest: {} }] })}>
                Add a multiplier
              </button>
            </div>
          )}
        </section>

        <section className="card grid gap-3" aria-labelledby="loyalty-tiers">
          <h2 id="loyalty-tiers" className="text-lg font-semibold">
            Tiers
          </h2>
          <p className="text-sm text-stone-700">By what a customer spent on completed orders in the window; a tier’s rate replaces the points per dollar.</p>
          <label htmlFor={F.window} className="font-semibold">
            Window (days)
          </label>
          {text(F.window, d.tierWindowDays, (v) => set({ tierWindowDays: v }), { numeric: true })}
          <FieldProblems form={form} field={F.window} />
          {d.tiers.map((t, i) => (
            <fieldset key={i} className="grid gap-2 rounded border border-stone-300 p-3">
              <legend className="px-1 font-semibold">Tier {i + 1}</legend>
              <label htmlFor={F.tierName(i)}>Name</label>
              {text(F.tierName(i), t.name, (v) => setTier(i, { name: v }), { className: 'field' })}
              <FieldProblems form={form} field={F.tierName(i)} />
              <label htmlFor={F.tierSpend(i)}>From a spend of (dollars)</label>
              {text(F.tierSpend(i), t.spend, (v) => setTier(i, { spend: v }), { numeric: true })}
              <FieldProblems form={form} field={F.tierSpend(i)} />
              <label htmlFor={F.tierRate(i)}>Points per dollar</label>
              {text(F.tierRate(i), t.rate, (v) => setTier(i, { rate: v }), { numeric: true })}
              <FieldProblems form={form} field={F.tierRate(i)} />
              <div>
                <button type="button" className="btn-secondary" onClick={() => form.setDraft((c) => ({ ...c, tiers: c.tiers.filter((_, j) => j !== i) }))}>
                  Remove tier {i + 1}
                </button>
              </div>
            </fieldset>
          ))}
          {d.tiers.length < LOYALTY_LIMITS.maxTiers && (
            <div>
              <button type="button" className="btn-secondary" onClick={() => set({ tiers: [...d.tiers, { name: '', spend: '', rate: d.earnRate }] })}>
                Add a tier
              </button>
            </div>
          )}
        </section>

        <section className="card grid gap-3" aria-labelledby="loyalty-expiry-title">
          <h2 id="loyalty-expiry-title" className="text-lg font-semibold">
            Expiry
          </h2>
          <label htmlFor={F.expiry} className="font-semibold">
            Points expire after this many days without a completed order (0: never)
          </label>
          {text(F.expiry, d.expiryDays, (v) => set({ expiryDays: v }), { numeric: true })}
          <FieldProblems form={form} field={F.expiry} />
          <label htmlFor={F.reminder} className="font-semibold">
            Remind the customer this many days before (0: no reminder)
          </label>
          {text(F.reminder, d.reminderDays, (v) => set({ reminderDays: v }), { numeric: true })}
          <FieldProblems form={form} field={F.reminder} />
        </section>
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
