/**
 * One deal (issue 28): the editor with a live preview, its status (pause, resume, end) and the
 * history of every change. A new deal at /deals/new.
 *
 * The form edits the deal's record (the engine's model, packages/domain/src/deals/model.ts) field by
 * field for what a manager sets most; "Record as JSON" shows the whole record and takes any field the
 * form does not have (bundle parts, exclusions, measures). The model's own schema checks the draft
 * here before it is previewed or sent, and the server checks it again. A save names the version it
 * was read at: a change made meanwhile is shown and nothing is overwritten.
 *
 * The preview (POST /deals/preview, debounced) shows the products the draft matches and what a
 * sample cart pays with the store's other deals, without and with the draft. Nothing is saved.
 */
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { addDays, dealSchema, localDate, startOfLocalDate } from '@verdant/domain';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, ApiFailure, errorText } from '../lib/api.ts';
import { dateTime, money } from '../lib/format.ts';
import { can, useSession } from '../lib/session.tsx';
import { useResource } from '../lib/use-resource.ts';
import type { DealChangeView, DealHistory, DealPreview, DealView } from '../lib/types.ts';
import { BackToDeals, KIND_LABELS, LabelOptions, STATUS_LABELS, statusTone } from './deals.tsx';
import { useStore, useTitle } from './layout.tsx';

// The draft is the record as JSON: the form reads and writes it by path.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Kind = DealView['kind'];

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const PRODUCT_KINDS = ['flower', 'preroll', 'vape', 'concentrate', 'edible', 'tincture', 'topical', 'accessory'] as const;
const STACK = { deals: true, coupons: true, points: true };

/** A new record of each kind: the fields the form shows, filled with a plain example. */
export function blankRecord(kind: Kind, title = ''): Json {
  const common = { title, stacking: { ...STACK } };
  switch (kind) {
    case 'set_discount':
      return { ...common, kind, set: {}, reward: { type: 'percent', percent: 10 } };
    case 'buy_get':
      return { ...common, kind, buy: { set: {}, qty: 2 }, get: { set: {}, qty: 1, reward: { type: 'percent', percent: 50 } } };
    case 'mix_match':
      return { ...common, kind, set: {}, qty: 3, priceCents: 9000 };
    case 'bundle':
      return { ...common, kind, name: title || 'Bundle', items: [{ set: { skus: [] }, qty: 1 }, { set: { skus: [] }, qty: 1 }], priceCents: 5000 };
    case 'threshold':
      return { ...common, kind, condition: { type: 'spend', cents: 10000 }, reward: { target: 'order', reward: { type: 'percent', percent: 10 } } };
  }
}

function getAt(obj: Json, path: string): Json {
  return path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
}
/** A copy of `obj` with `path` set (undefined removes the field; an emptied object stays). */
function setAt(obj: Json, path: string, value: Json): Json {
  const [head, ...rest] = path.split('.');
  const copy = Array.isArray(obj) ? [...obj] : { ...(obj ?? {}) };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
  } else copy[head] = setAt(copy[head], rest.join('.'), value);
  return copy;
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const numbers = (text: string) => list(text).map(Number);
const dollarsToCents = (text: string) => (text.trim() === '' ? NaN : Math.round(Number(text.replace(/[$,\s]/g, '')) * 100));
const centsText = (cents: unknown) => (typeof cents === 'number' ? (cents / 100).toFixed(2) : '');

/** The model's problems of a draft, in the form's words ("Reward: percent must be at most 100"). */
function problemsOf(draft: Json): string[] {
  const parsed = dealSchema.safeParse({ id: 'draft', status: 'active', ...draft });
  if (parsed.success) return [];
  return parsed.error.issues.slice(0, 8).map((i) => {
    if (i.path.length === 1 && i.path[0] === 'title') return 'title: Give the deal a title (up to 120 characters).';
    const where = i.path.filter((p) => typeof p === 'string' || typeof p === 'number').join(' › ');
    return where ? `${where}: ${i.message}` : i.message;
  });
}

export function DealEditorPage() {
  const { dealId } = useParams();
  const isNew = dealId === 'new';
  const { store } = useStore();
  const { staff } = useSession();
  const writer = can(staff, 'deals:write');
  const deal = useResource(isNew ? null : `${store.id}/${dealId}`, () => api<DealView>('GET', `/stores/${store.id}/deals/${dealId}`));
  useTitle(isNew ? 'New deal' : (deal.data?.title ?? 'Deal'));
  if (!isNew && !deal.data) return deal.error ? <ErrorNote>{deal.error}</ErrorNote> : <Loading />;
  return <Editor key={deal.data ? `${deal.data.id}-${deal.data.version}` : 'new'} saved={deal.data} writer={writer} onSaved={(d) => deal.setData(d)} reload={deal.reload} />;
}

function Editor({ saved, writer, onSaved, reload }: { saved: DealView | null; writer: boolean; onSaved: (d: DealView) => void; reload: () => Promise<void> }) {
  const { store } = useStore();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Json>(() => (saved ? stripFixed(saved.record) : blankRecord('set_discount')));
  const [notice, setNotice] = useState<{ text: string; tone: 'ok' | 'warn' } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const problems = useMemo(() => problemsOf(draft), [draft]);
  const [shown, setShown] = useState(false);
  const ended = saved?.status === 'ended';
  const readOnly = !writer || ended;
  const set = (path: string, value: Json) => setDraft((d: Json) => setAt(d, path, value));

  async function save(event: FormEvent) {
    event.preventDefault();
    setShown(true);
    setNotice(null);
    setError(null);
    if (problems.length) return;
    setBusy(true);
    try {
      if (!saved) {
        const created = await api<DealView>('POST', `/stores/${store.id}/deals`, { record: draft });
        navigate(`/stores/${store.id}/deals/${created.id}`, { replace: true });
      } else {
        const updated = await api<DealView>('PUT', `/stores/${store.id}/deals/${saved.id}`, { record: { ...draft, id: saved.code }, version: saved.version });
        onSaved(updated);
      }
    } catch (err) {
      if (err instanceof ApiFailure && err.errorCode === 'stale_deal') {
        setNotice({ text: 'Someone changed this deal meanwhile. Their version is shown now; make your change again.', tone: 'warn' });
        await reload();
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  async function move(action: 'pause' | 'resume' | 'end') {
    if (!saved) return;
    setError(null);
    setBusy(true);
    try {
      onSaved(await api<DealView>('POST', `/stores/${store.id}/deals/${saved.id}/${action}`, { version: saved.version }));
    } catch (err) {
      if (err instanceof ApiFailure && err.errorCode === 'stale_deal') {
        setNotice({ text: 'Someone changed this deal meanwhile. It is shown as it is now; try again.', tone: 'warn' });
        await reload();
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <BackToDeals storeId={store.id} />
      <PageTitle>
        {saved ? saved.title : 'New deal'} {saved && <Badge tone={statusTone(saved.status)}>{STATUS_LABELS[saved.status]}</Badge>}
      </PageTitle>
      <div role="status" aria-live="polite">
        {notice && <p className={`mb-3 rounded border px-3 py-2 ${notice.tone === 'ok' ? 'border-green-300 bg-green-50' : 'border-amber-400 bg-amber-50'}`}>{notice.text}</p>}
        {saved && !notice && saved.version > 1 && <p className="sr-only">Saved, version {saved.version}.</p>}
      </div>
      <ErrorNote>{error}</ErrorNote>
      {saved && writer && !ended && (
        <div className="mb-4 flex flex-wrap gap-2" role="group" aria-label="Deal status">
          {saved.status === 'active' ? (
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void move('pause')}>
              Pause deal
            </button>
          ) : (
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void move('resume')}>
              Resume deal
            </button>
          )}
          {confirmEnd ? (
            <>
              <button type="button" className="btn-danger" disabled={busy} onClick={() => void move('end')}>
                End it for good
              </button>
              <button type="button" className="btn-ghost" onClick={() => setConfirmEnd(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" className="btn-secondary" onClick={() => setConfirmEnd(true)}>
              End deal…
            </button>
          )}
        </div>
      )}
      {ended && <p className="mb-4">This deal has ended and cannot be changed. Create a new one to run it again.</p>}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <form className="grid min-w-0 gap-4" onSubmit={save} noValidate aria-label="Deal">
          {shown && problems.length > 0 && (
            <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
              <p className="font-semibold">The deal was not saved. Please fix:</p>
              <ul className="list-disc pl-5">
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
          <fieldset className="card grid gap-3" disabled={readOnly}>
            <legend className="px-1 text-lg font-semibold">The deal</legend>
            <TextField label="Title" help="What staff see, and shoppers too where the store’s display rules allow its words." value={draft.title ?? ''} onChange={(v) => set('title', v)} />
            <div>
              <label htmlFor="deal-kind-select">Kind</label>
              <select
                id="deal-kind-select"
                className="field"
                value={draft.kind}
                disabled={!!saved}
                onChange={(e) => setDraft((d: Json) => ({ ...blankRecord(e.target.value as Kind, d.title), schedule: d.schedule, eligibility: d.eligibility, limits: d.limits, stacking: d.stacking }))}
              >
                <LabelOptions labels={KIND_LABELS} />
              </select>
            </div>
            <KindFields draft={draft} set={set} />
          </fieldset>
          <ScheduleFields draft={draft} set={set} timeZone={store.timezone} disabled={readOnly} />
          <fieldset className="card grid gap-3" disabled={readOnly}>
            <legend className="px-1 text-lg font-semibold">Who and how often</legend>
            <div>
              <label htmlFor="deal-licence">Shoppers</label>
              <select id="deal-licence" className="field" value={draft.eligibility?.licence ?? ''} onChange={(e) => set('eligibility.licence', e.target.value || undefined)}>
                <option value="">Medical and recreational</option>
                <option value="medical">Medical patients only</option>
                <option value="recreational">Recreational (adult-use) only</option>
              </select>
            </div>
            <Check label="First order only" checked={!!draft.eligibility?.firstOrder} onChange={(v) => set('eligibility.firstOrder', v || undefined)} />
            <Check label="New customers only (account 30 days old or less)" checked={!!draft.eligibility?.newCustomer} onChange={(v) => set('eligibility.newCustomer', v || undefined)} />
            <Check label="In the customer’s birthday month only" checked={!!draft.eligibility?.birthdayMonth} onChange={(v) => set('eligibility.birthdayMonth', v || undefined)} />
            <NumberField label="Most uses in one order" help="Items for a discount, groups for a group deal. Empty: no limit." value={draft.limits?.perOrder} onChange={(v) => set('limits.perOrder', v)} />
            <NumberField label="Most orders in all (budget)" help="Empty: no limit." value={draft.limits?.budget} onChange={(v) => set('limits.budget', v)} />
            <NumberField
              label="Most orders per customer"
              help="Counted per day, or for as long as the deal runs. Empty: no limit."
              value={draft.limits?.perCustomer?.max}
              onChange={(v) => set('limits.perCustomer', v === undefined ? undefined : { max: v, window: draft.limits?.perCustomer?.window ?? { type: 'deal' } })}
            />
            {draft.limits?.perCustomer && (
              <div>
                <label htmlFor="deal-per-customer-window">Per customer, counted</label>
                <select id="deal-per-customer-window" className="field" value={draft.limits.perCustomer.window.type} onChange={(e) => set('limits.perCustomer.window', e.target.value === 'day' ? { type: 'day' } : { type: 'deal' })}>
                  <option value="deal">For as long as the deal runs</option>
                  <option value="day">Per day</option>
                </select>
              </div>
            )}
            <fieldset>
              <legend className="font-semibold">Combines with</legend>
              <Check label="Other deals" checked={draft.stacking?.deals !== false} onChange={(v) => set('stacking.deals', v)} />
              <Check label="Coupons" checked={draft.stacking?.coupons !== false} onChange={(v) => set('stacking.coupons', v)} />
              <Check label="Paying with reward points" checked={draft.stacking?.points !== false} onChange={(v) => set('stacking.points', v)} />
            </fieldset>
          </fieldset>
          <JsonField draft={draft} onApply={(d) => setDraft(saved ? stripFixed(d) : d)} disabled={readOnly} />
          {!readOnly && (
            <div>
              <button type="submit" className="btn" disabled={busy}>
                {saved ? 'Save changes' : 'Create deal'}
              </button>
            </div>
          )}
        </form>
        <Preview draft={draft} problems={problems} dealId={saved?.id} />
      </div>
      {saved && <DealChanges deal={saved} />}
    </>
  );
}

/** The record without what the server keeps itself (its id and status). */
function stripFixed(record: Json): Json {
  const { id: _id, status: _status, ...rest } = record;
  return rest;
}

/** A field's label and help above its input; `input` gets the id and the help's id to point at. */
function Labelled({ label, help, id, input }: { label: string; help?: string; id?: string; input: (id: string, describedBy: string | undefined) => ReactNode }) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div>
      <label htmlFor={fieldId}>{label}</label>
      {help && (
        <p id={`${fieldId}-help`} className="text-sm text-stone-700">
          {help}
        </p>
      )}
      {input(fieldId, help ? `${fieldId}-help` : undefined)}
    </div>
  );
}

function TextField({ label, help, value, onChange, id }: { label: string; help?: string; value: string; onChange: (v: string) => void; id?: string }) {
  return (
    <Labelled
      label={label}
      help={help}
      id={id}
      input={(fieldId, describedBy) => <input id={fieldId} className="field" value={value} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)} />}
    />
  );
}

function NumberField({ label, help, value, onChange }: { label: string; help?: string; value: number | undefined; onChange: (v: number | undefined) => void }) {
  return (
    <Labelled
      label={label}
      help={help}
      input={(id, describedBy) => (
        <input
          id={id}
          className="field max-w-40"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={value ?? ''}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      )}
    />
  );
}

function MoneyField({ label, help, cents, onChange }: { label: string; help?: string; cents: unknown; onChange: (cents: number) => void }) {
  const [text, setText] = useState(centsText(cents));
  return (
    <Labelled
      label={label}
      help={help}
      input={(id, describedBy) => (
        <input
          id={id}
          className="field max-w-40"
          inputMode="decimal"
          value={text}
          aria-describedby={describedBy}
          onChange={(e) => {
            setText(e.target.value);
            onChange(dollarsToCents(e.target.value));
          }}
        />
      )}
    />
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 font-normal">
      <input type="checkbox" className="size-5" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** A product set: SKUs, categories, brands, kinds and tags (any given must match; several in one field: any of them). */
function SetFields({ legend, value, onChange }: { legend: string; value: Json; onChange: (set: Json) => void }) {
  const v = value ?? {};
  const put = (key: string, items: unknown[]) => onChange(setAt(v, key, items.length ? items : undefined));
  return (
    <fieldset className="grid gap-2 rounded border border-stone-300 p-3">
      <legend className="px-1 font-semibold">{legend}</legend>
      <p className="text-sm text-stone-700">Leave everything empty for every product. Separate several with commas.</p>
      <ListField label="SKUs" value={(v.skus ?? []).join(', ')} onChange={(t) => put('skus', list(t))} />
      <ListField label="Category ids (and their subcategories)" value={(v.categories ?? []).join(', ')} onChange={(t) => put('categories', numbers(t))} />
      <ListField label="Brand ids" value={(v.brands ?? []).join(', ')} onChange={(t) => put('brands', numbers(t))} />
      <ListField label="Tags" value={(v.tags ?? []).join(', ')} onChange={(t) => put('tags', list(t))} />
      <fieldset>
        <legend className="text-sm font-semibold">Product kinds</legend>
        <div className="flex flex-wrap gap-x-4">
          {PRODUCT_KINDS.map((k) => (
            <Check key={k} label={k} checked={(v.kinds ?? []).includes(k)} onChange={(on) => put('kinds', on ? [...(v.kinds ?? []), k] : (v.kinds ?? []).filter((x: string) => x !== k))} />
          ))}
        </div>
      </fieldset>
    </fieldset>
  );
}

/** A comma list typed freely: the record gets it on every keystroke, the text stays as typed. */
function ListField({ label, value, onChange }: { label: string; value: string; onChange: (text: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="field"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onChange(e.target.value);
        }}
      />
    </div>
  );
}

function RewardFields({ path, draft, set, types }: { path: string; draft: Json; set: (p: string, v: Json) => void; types: ('percent' | 'amount' | 'price')[] }) {
  const reward = getAt(draft, path) ?? { type: types[0] };
  const id = useId();
  const labels = { percent: 'Percent off', amount: 'Amount off each', price: 'A price each' };
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div>
        <label htmlFor={id}>Reward</label>
        <select
          id={id}
          className="field"
          value={reward.type}
          onChange={(e) => set(path, e.target.value === 'percent' ? { type: 'percent', percent: 10 } : { type: e.target.value, cents: 500 })}
        >
          {types.map((t) => (
            <option key={t} value={t}>
              {labels[t]}
            </option>
          ))}
        </select>
      </div>
      {reward.type === 'percent' ? (
        <NumberField label="Percent" value={reward.percent} onChange={(v) => set(`${path}.percent`, v)} />
      ) : (
        <MoneyField key={reward.type} label={reward.type === 'price' ? 'Price ($)' : 'Amount ($)'} help={reward.type === 'price' ? '$0.01 at the least, never free.' : undefined} cents={reward.cents} onChange={(c) => set(`${path}.cents`, c)} />
      )}
    </div>
  );
}

function KindFields({ draft, set }: { draft: Json; set: (p: string, v: Json) => void }) {
  switch (draft.kind as Kind) {
    case 'set_discount':
      return (
        <>
          <SetFields legend="Products" value={draft.set} onChange={(s) => set('set', s)} />
          <RewardFields path="reward" draft={draft} set={set} types={['percent', 'amount', 'price']} />
        </>
      );
    case 'mix_match':
      return (
        <>
          <SetFields legend="Any of these products" value={draft.set} onChange={(s) => set('set', s)} />
          <div className="grid gap-3 sm:grid-cols-2">
            <NumberField label="How many items" value={draft.qty} onChange={(v) => set('qty', v)} />
            <MoneyField label="For a price of ($)" cents={draft.priceCents} onChange={(c) => set('priceCents', c)} />
          </div>
        </>
      );
    case 'buy_get':
      return (
        <>
          <SetFields legend="Buy these" value={draft.buy?.set} onChange={(s) => set('buy.set', s)} />
          <NumberField label="How many to buy" value={draft.buy?.qty} onChange={(v) => set('buy.qty', v)} />
          <SetFields legend="Get these" value={draft.get?.set} onChange={(s) => set('get.set', s)} />
          <NumberField label="How many to get" value={draft.get?.qty} onChange={(v) => set('get.qty', v)} />
          <RewardFields path="get.reward" draft={draft} set={set} types={['percent', 'price']} />
        </>
      );
    case 'bundle':
      return (
        <>
          <TextField label="Bundle name shoppers see" value={draft.name ?? ''} onChange={(v) => set('name', v)} />
          <MoneyField label="Bundle price ($)" cents={draft.priceCents} onChange={(c) => set('priceCents', c)} />
          <p className="text-sm text-stone-700">The bundle’s parts (each a product set and a quantity) are edited in “Record as JSON” below.</p>
        </>
      );
    case 'threshold':
      return (
        <>
          <div className="grid gap-3 sm:grid-cols-2">
            <div>
              <label htmlFor="deal-condition">When the cart has</label>
              <select
                id="deal-condition"
                className="field"
                value={draft.condition?.type}
                onChange={(e) => set('condition', e.target.value === 'items' ? { type: 'items', count: 5 } : { type: 'spend', cents: 10000 })}
              >
                <option value="spend">At least an amount</option>
                <option value="items">At least a number of items</option>
              </select>
            </div>
            {draft.condition?.type === 'items' ? (
              <NumberField label="Items" value={draft.condition.count} onChange={(v) => set('condition.count', v)} />
            ) : (
              <MoneyField key="spend" label="Amount ($)" cents={draft.condition?.cents} onChange={(c) => set('condition.cents', c)} />
            )}
          </div>
          <p className="text-sm text-stone-700">The reward is taken off the whole order. Rewards on a set of products are edited in “Record as JSON”.</p>
          {draft.reward?.target === 'order' ? (
            <RewardFields path="reward.reward" draft={draft} set={set} types={['percent', 'amount']} />
          ) : null}
        </>
      );
  }
}

function ScheduleFields({ draft, set, timeZone, disabled }: { draft: Json; set: (p: string, v: Json) => void; timeZone: string; disabled: boolean }) {
  const s = draft.schedule ?? {};
  const toDay = (iso: string | undefined, shift = 0) => {
    if (!iso) return '';
    const d = addDays(localDate(Date.parse(iso), timeZone), shift);
    return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
  };
  const fromDay = (day: string, shift = 0) => {
    if (!day) return undefined;
    const [year, month, date] = day.split('-').map(Number);
    return new Date(startOfLocalDate(addDays({ year, month, day: date }, shift), timeZone)).toISOString();
  };
  const days: number[] = s.days ?? [];
  return (
    <fieldset className="card grid gap-3" disabled={disabled}>
      <legend className="px-1 text-lg font-semibold">When it runs</legend>
      <p className="text-sm text-stone-700">Days and hours are the store’s own ({timeZone}). Leave a field empty for no limit.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="deal-starts">First day</label>
          <input id="deal-starts" type="date" className="field" value={toDay(s.startsAt)} onChange={(e) => set('schedule.startsAt', fromDay(e.target.value))} />
        </div>
        <div>
          <label htmlFor="deal-ends">Last day</label>
          <input id="deal-ends" type="date" className="field" value={toDay(s.endsAt, -1)} onChange={(e) => set('schedule.endsAt', fromDay(e.target.value, 1))} />
        </div>
      </div>
      <fieldset>
        <legend className="font-semibold">Days of the week</legend>
        <p className="text-sm text-stone-700">None ticked: every day.</p>
        <div className="flex flex-wrap gap-x-4">
          {DAYS.map((name, i) => (
            <Check
              key={name}
              label={name}
              checked={days.includes(i)}
              onChange={(on) => {
                const next = on ? [...days, i].sort() : days.filter((d) => d !== i);
                set('schedule.days', next.length ? next : undefined);
              }}
            />
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="deal-hours-from">From (time)</label>
          <input
            id="deal-hours-from"
            type="time"
            className="field"
            value={s.hours?.from ?? ''}
            onChange={(e) => set('schedule.hours', e.target.value ? { from: e.target.value, to: s.hours?.to ?? '23:59' } : undefined)}
          />
        </div>
        <div>
          <label htmlFor="deal-hours-to">Until (time)</label>
          <input
            id="deal-hours-to"
            type="time"
            className="field"
            value={s.hours?.to ?? ''}
            onChange={(e) => set('schedule.hours', e.target.value ? { from: s.hours?.from ?? '00:00', to: e.target.value } : undefined)}
          />
        </div>
      </div>
    </fieldset>
  );
}

function JsonField({ draft, onApply, disabled }: { draft: Json; onApply: (d: Json) => void; disabled: boolean }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <details className="card" open={open} onToggle={(e) => {
      const isOpen = (e.target as HTMLDetailsElement).open;
      setOpen(isOpen);
      if (isOpen) setText(JSON.stringify(draft, null, 2));
    }}>
      <summary className="cursor-pointer font-semibold">Record as JSON</summary>
      <label htmlFor="deal-json" className="mt-2 block">
        The whole record
      </label>
      <textarea id="deal-json" className="field min-h-64 font-mono text-sm" value={text} disabled={disabled} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      {problem && <p role="alert" className="text-red-900">{problem}</p>}
      {!disabled && (
        <button
          type="button"
          className="btn-secondary mt-2"
          onClick={() => {
            try {
              const parsed = JSON.parse(text);
              if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
              setProblem(null);
              onApply(parsed);
            } catch {
              setProblem('This is not valid JSON for a deal (an object in curly braces). Nothing was changed.');
            }
          }}
        >
          Use this JSON
        </button>
      )}
    </details>
  );
}

interface SampleLine {
  sku: string;
  qty: number;
}

function Preview({ draft, problems, dealId }: { draft: Json; problems: string[]; dealId?: number }) {
  const { store } = useStore();
  const [lines, setLines] = useState<SampleLine[]>([{ sku: '', qty: 1 }]);
  const [licence, setLicence] = useState<'recreational' | 'medical'>('recreational');
  const [result, setResult] = useState<DealPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cart = lines.filter((l) => l.sku.trim() !== '' && l.qty > 0);
  const body = JSON.stringify({ record: draft, cart, licence, ...(dealId ? { dealId } : {}) });
  useEffect(() => {
    if (problems.length) return;
    let gone = false;
    const t = setTimeout(() => {
      api<DealPreview>('POST', `/stores/${store.id}/deals/preview`, JSON.parse(body))
        .then((p) => {
          if (!gone) {
            setResult(p);
            setError(null);
          }
        })
        .catch((err) => !gone && setError(errorText(err)));
    }, 350);
    return () => {
      gone = true;
      clearTimeout(t);
    };
  }, [body, problems.length, store.id]);

  return (
    <section aria-labelledby="deal-preview" className="card min-w-0 self-start">
      <h2 id="deal-preview" className="mb-2 text-lg font-semibold">
        Preview
      </h2>
      <div aria-live="polite" data-testid="deal-preview">
        {problems.length > 0 ? (
          <p className="text-stone-700">The preview shows once the deal is complete.</p>
        ) : error ? (
          <ErrorNote>{error}</ErrorNote>
        ) : !result ? (
          <Loading label="Working out the preview…" />
        ) : (
          <PreviewResult result={result} />
        )}
      </div>
      <fieldset className="mt-4 grid gap-2">
        <legend className="font-semibold">Sample cart</legend>
        {lines.map((line, i) => (
          <div key={i} className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <label htmlFor={`sample-sku-${i}`}>SKU {i + 1}</label>
              <input id={`sample-sku-${i}`} className="field" value={line.sku} onChange={(e) => setLines(lines.map((l, j) => (j === i ? { ...l, sku: e.target.value } : l)))} />
            </div>
            <div className="w-20">
              <label htmlFor={`sample-qty-${i}`}>Qty</label>
              <input
                id={`sample-qty-${i}`}
                className="field"
                type="number"
                min={1}
                max={100}
                value={line.qty}
                onChange={(e) => setLines(lines.map((l, j) => (j === i ? { ...l, qty: Number(e.target.value) } : l)))}
              />
            </div>
            {lines.length > 1 && (
              <button type="button" className="btn-ghost" aria-label={`Remove SKU ${i + 1}`} onClick={() => setLines(lines.filter((_, j) => j !== i))}>
                Remove
              </button>
            )}
          </div>
        ))}
        <div className="flex flex-wrap items-end gap-3">
          <button type="button" className="btn-secondary" onClick={() => setLines([...lines, { sku: '', qty: 1 }])} disabled={lines.length >= 30}>
            Add a line
          </button>
          <div>
            <label htmlFor="sample-licence">Shopper</label>
            <select id="sample-licence" className="field" value={licence} onChange={(e) => setLicence(e.target.value as 'recreational' | 'medical')}>
              <option value="recreational">Recreational</option>
              <option value="medical">Medical patient</option>
            </select>
          </div>
        </div>
      </fieldset>
    </section>
  );
}

function PreviewResult({ result }: { result: DealPreview }) {
  const c = result.cart;
  return (
    <div className="grid gap-3">
      <p>
        Shoppers see: <span className="font-semibold">{result.headline ?? 'the price only'}</span>
      </p>
      <div>
        <p className="font-semibold">
          Matches {result.matching.count} {result.matching.count === 1 ? 'product' : 'products'}
        </p>
        {result.matching.sample.length > 0 && (
          <ul className="list-disc pl-5 text-sm">
            {result.matching.sample.map((p) => (
              <li key={p.sku} className="[overflow-wrap:anywhere]">
                {p.name} ({p.sku}) {money(p.price_cents)}
              </li>
            ))}
            {result.matching.count > result.matching.sample.length && <li>and {result.matching.count - result.matching.sample.length} more</li>}
          </ul>
        )}
      </div>
      {c && (
        <div>
          <table className="data-table text-sm">
            <caption className="text-left font-semibold">The sample cart</caption>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Without</th>
                <th scope="col">With</th>
              </tr>
            </thead>
            <tbody>
              {c.lines.map((l) => (
                <tr key={l.sku}>
                  <td className="[overflow-wrap:anywhere]">
                    {l.qty} × {l.name} at {money(l.unit_price_cents)}
                  </td>
                  <td>{l.without_cents ? `−${money(l.without_cents)}` : '—'}</td>
                  <td>{l.with_cents ? `−${money(l.with_cents)}` : '—'}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">Total before taxes</th>
                <td data-testid="preview-without">{money(c.without.total_cents)}</td>
                <td data-testid="preview-with">{money(c.with.total_cents)}</td>
              </tr>
            </tbody>
          </table>
          <p className="mt-2">
            {c.draft.applied ? `This deal saves ${money(c.draft.discount_cents)} on this cart.` : <>This deal does not apply: {c.draft.text}</>}
          </p>
          {c.unknown.length > 0 && <p className="text-sm">Not on the menu (left out): {c.unknown.join(', ')}</p>}
        </div>
      )}
    </div>
  );
}

const ACTION_WORDS: Record<DealChangeView['action'], string> = { create: 'Created', update: 'Changed', pause: 'Paused', resume: 'Resumed', end: 'Ended' };

function valueText(value: unknown): string {
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function DealChanges({ deal }: { deal: DealView }) {
  const { store } = useStore();
  const history = useResource(`${deal.id}/${deal.version}`, () => api<DealHistory>('GET', `/stores/${store.id}/deals/${deal.id}/history`));
  return (
    <section aria-labelledby="deal-history" className="card mt-4">
      <h2 id="deal-history" className="mb-2 text-lg font-semibold">
        History
      </h2>
      <ErrorNote>{history.error}</ErrorNote>
      {!history.data ? (
        <Loading />
      ) : (
        <ol className="grid gap-2" aria-label="Changes, newest first">
          {history.data.items.map((c) => (
            <li key={c.id} className="border-b border-stone-200 pb-2 [overflow-wrap:anywhere]">
              <p>
                <span className="font-semibold">{ACTION_WORDS[c.action]}</span> by {c.actor.name}
                {c.source === 'api' ? ' (integration API)' : ''}, {dateTime(c.at, store.timezone)}
              </p>
              {c.action === 'update' && c.changed.length > 0 && (
                <ul className="list-disc pl-5 text-sm">
                  {c.changed.map((path) => (
                    <li key={path}>
                      {path}: {valueText(getAt(c.before, path))} → {valueText(getAt(c.after, path))}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

