/**
 * The store's menu (issue 13 "Menu in the console"): the variants with search and filters, a quick
 * edit dialog (inline errors in the import's words), the two-tap "Sold out" a budtender uses on the
 * shop floor (tap "Sold out", tap "Confirm"), bulk actions on the selected rows, the history and the
 * file import (./menu-import.tsx). Every outcome is also announced in a polite live region.
 * The server decides what a role may do; the page only hides what the server would refuse.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Dialog } from '../components/Dialog.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, ApiFailure, errorText, query } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useSession } from '../lib/session.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useStore, useTitle } from './layout.tsx';
import { MenuHistory, MenuImport } from './menu-import.tsx';
import type { BulkAction, MenuBulkAnswer, MenuBulkRequest, MenuEditProblem as Problem, MenuEditRequest, MenuItem, MenuPage as MenuPageAnswer } from '../lib/types.ts';

export type { MenuItem } from '../lib/types.ts';

const PAGE_SIZE = 50;

type Filters = {
  q: string;
  category: string;
  status: string;
  stock: string;
  orderable: string;
  license: string;
  sort: string;
  page: number;
};
const NO_FILTERS: Filters = { q: '', category: '', status: '', stock: '', orderable: '', license: '', sort: 'name', page: 1 };
const FILTER_KEYS = ['q', 'category', 'status', 'stock', 'orderable', 'license', 'sort'] as const;

/** The filters live in the address (?q=…&stock=out&page=2): a reload, a shared link and Back keep them. */
function filtersOf(params: URLSearchParams): Filters {
  const f: Filters = { ...NO_FILTERS };
  for (const k of FILTER_KEYS) f[k] = params.get(k) ?? NO_FILTERS[k];
  const page = Number(params.get('page'));
  f.page = Number.isInteger(page) && page > 0 ? page : 1;
  return f;
}

export function MenuPage() {
  useTitle('Menu');
  const { store } = useStore();
  const { staff } = useSession();
  const manager = staff?.role === 'owner' || staff?.role === 'manager';
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  // From the address as it is when applied (not as this render saw it): a debounced search and a
  // filter chosen meanwhile both stay.
  const addressOf = (f: Filters) => {
    const out = new URLSearchParams();
    for (const k of FILTER_KEYS) if (f[k] && f[k] !== NO_FILTERS[k]) out.set(k, f[k]);
    if (f.page > 1) out.set('page', String(f.page));
    return out;
  };
  const setFilters = (next: (f: Filters) => Filters) => {
    if (addressOf(next(filtersOf(params))).toString() === addressOf(filtersOf(params)).toString()) return;
    setParams(
      (current) => addressOf(next(filtersOf(current))),
      { replace: true },
    );
  };
  const [search, setSearch] = useState(filters.q);
  const [announce, setAnnounce] = useState('');
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [editing, setEditing] = useState<MenuItem | null>(null);
  const [panel, setPanel] = useState<'none' | 'import' | 'history'>('none');
  const [historyOf, setHistoryOf] = useState<MenuItem | null>(null);

  // Typing in the search box reloads the list once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.q === search.trim() ? f : { ...f, q: search.trim(), page: 1 })), 250);
    return () => clearTimeout(timer);
  }, [search]);

  const key = `${store.id}:${JSON.stringify(filters)}`;
  const menu = useResource(key, () =>
    api<MenuPageAnswer>(
      'GET',
      `/stores/${store.id}/menu${query({
        q: filters.q,
        category: filters.category,
        status: filters.status,
        stock: filters.stock,
        orderable: filters.orderable,
        license: filters.license,
        sort: filters.sort.replace(/-desc$/, ''),
        dir: filters.sort.endsWith('-desc') ? 'desc' : 'asc',
        page: filters.page,
        size: PAGE_SIZE,
      })}`,
    ),
  );

  function say(text: string, error = false) {
    setMessage({ text, error });
    setAnnounce(text);
  }

  function replaceItem(item: MenuItem) {
    menu.setData((data) => (data ? { ...data, items: data.items.map((i) => (i.productId === item.productId ? item : i)) } : data));
  }

  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch, page: patch.page ?? 1 }));
  const items = menu.data?.items ?? [];
  const allOnPage = items.length > 0 && items.every((i) => selected.has(i.productId));

  return (
    <>
      <PageTitle
        actions={
          <>
            {manager && (
              <button
                type="button"
                className={panel === 'import' ? 'btn' : 'btn-secondary'}
                aria-expanded={panel === 'import'}
                onClick={() => setPanel(panel === 'import' ? 'none' : 'import')}
              >
                Import a file
              </button>
            )}
            <button
              type="button"
              className={panel === 'history' ? 'btn' : 'btn-secondary'}
              aria-expanded={panel === 'history'}
              onClick={() => {
                setHistoryOf(null);
                setPanel(panel === 'history' ? 'none' : 'history');
              }}
            >
              History
            </button>
            <a className="btn-secondary" href={`/api/console/stores/${store.id}/menu/export.csv`} download>
              Export CSV
            </a>
            <a className="btn-secondary" href={`/api/console/stores/${store.id}/menu/export.json`} download>
              Export JSON
            </a>
          </>
        }
      >
        Menu
      </PageTitle>
      <div role="status" aria-live="polite" className="sr-only" data-testid="menu-announcer">
        {announce}
      </div>
      {message && (
        <p
          className={`mb-3 rounded border px-3 py-2 ${message.error ? 'border-red-300 bg-red-50 text-red-900' : 'border-green-300 bg-green-50 text-green-950'}`}
        >
          {message.text}
        </p>
      )}
      {panel === 'import' && manager && (
        <MenuImport
          storeId={store.id}
          storeCode={store.code}
          onApplied={(text) => {
            say(text);
            void menu.reload();
          }}
        />
      )}
      {panel === 'history' && (
        <MenuHistory storeId={store.id} timeZone={store.timezone} item={historyOf} onClear={() => setHistoryOf(null)} />
      )}

      <form
        role="search"
        aria-label="Menu"
        className="mb-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          set({ q: search.trim() });
        }}
      >
        <div className="sm:col-span-2">
          <label htmlFor="menu-search">Search name, brand, SKU or POS id</label>
          <input id="menu-search" type="search" className="field" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <Select id="menu-category" label="Category" value={filters.category} onChange={(v) => set({ category: v })}>
          <option value="">All categories</option>
          {(menu.data?.categories ?? []).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
        <Select id="menu-stock" label="Stock" value={filters.stock} onChange={(v) => set({ stock: v })}>
          <option value="">In stock and sold out</option>
          <option value="in">In stock</option>
          <option value="out">Sold out</option>
        </Select>
        <Select id="menu-status" label="Status" value={filters.status} onChange={(v) => set({ status: v })}>
          <option value="">On and off the menu</option>
          <option value="active">On the menu</option>
          <option value="disabled">Off the menu</option>
        </Select>
        <Select id="menu-orderable" label="Online ordering" value={filters.orderable} onChange={(v) => set({ orderable: v })}>
          <option value="">Orderable or not</option>
          <option value="yes">Orderable online</option>
          <option value="no">Not orderable online</option>
        </Select>
        <Select id="menu-license" label="Licence type" value={filters.license} onChange={(v) => set({ license: v })}>
          <option value="">Any licence type</option>
          <option value="recreational">Recreational only</option>
          <option value="medical">Medical only</option>
          <option value="both">Both</option>
        </Select>
        <Select id="menu-sort" label="Sort by" value={filters.sort} onChange={(v) => set({ sort: v })}>
          <option value="name">Name</option>
          <option value="sku">SKU</option>
          <option value="category">Category</option>
          <option value="price">Price, low to high</option>
          <option value="price-desc">Price, high to low</option>
          <option value="stock">Stock, lowest first</option>
          <option value="stock-desc">Stock, highest first</option>
        </Select>
      </form>

      {selected.size > 0 && (
        <BulkBar
          storeId={store.id}
          ids={[...selected]}
          manager={manager}
          onDone={(text) => {
            say(text);
            setSelected(new Set());
            void menu.reload();
          }}
          onError={(text) => say(text, true)}
          onClear={() => setSelected(new Set())}
        />
      )}

      <ErrorNote>{menu.error}</ErrorNote>
      {!menu.data ? (
        menu.loading && <Loading label="Loading the menu…" />
      ) : menu.data.total === 0 ? (
        <p className="card">
          {filters.q || filters.category || filters.status || filters.stock || filters.orderable || filters.license
            ? 'Nothing on the menu matches these filters.'
            : 'The menu is empty. Import a menu file to put your products on it.'}
        </p>
      ) : (
        <>
          <p className="mb-2 text-stone-700" aria-live="off">
            {menu.data.total} {menu.data.total === 1 ? 'item' : 'items'}
            {menu.loading ? ' · updating…' : ''}
          </p>
          <div className="overflow-x-auto">
            {/* Below 768 px each item is a card (as the order queue): big targets, no sideways reading. */}
            <table className="data-table stack-table select-cards" aria-label="Menu items">
              <thead>
                <tr>
                  <th scope="col" className="w-10">
                    <input
                      type="checkbox"
                      aria-label="Select all items on this page"
                      className="size-5"
                      checked={allOnPage}
                      onChange={(e) =>
                        setSelected((s) => {
                          const next = new Set(s);
                          for (const i of items) e.target.checked ? next.add(i.productId) : next.delete(i.productId);
                          return next;
                        })
                      }
                    />
                  </th>
                  <th scope="col">Item</th>
                  <th scope="col">Price</th>
                  <th scope="col">Stock</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <Row
                    key={item.productId}
                    item={item}
                    storeId={store.id}
                    timeZone={store.timezone}
                    selected={selected.has(item.productId)}
                    onSelect={(on) =>
                      setSelected((s) => {
                        const next = new Set(s);
                        on ? next.add(item.productId) : next.delete(item.productId);
                        return next;
                      })
                    }
                    onEdit={() => setEditing(item)}
                    onHistory={() => {
                      setHistoryOf(item);
                      setPanel('history');
                    }}
                    onChanged={(updated, text) => {
                      replaceItem(updated);
                      say(text);
                    }}
                    onError={(text, current) => {
                      if (current) replaceItem(current);
                      say(text, true);
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <nav aria-label="Pages" className="mt-3 flex items-center gap-3">
            <button type="button" className="btn-secondary" disabled={filters.page <= 1} onClick={() => set({ page: filters.page - 1 })}>
              Previous page
            </button>
            <span>
              Page {filters.page} of {Math.max(1, Math.ceil(menu.data.total / PAGE_SIZE))}
            </span>
            <button
              type="button"
              className="btn-secondary"
              disabled={filters.page * PAGE_SIZE >= menu.data.total}
              onClick={() => set({ page: filters.page + 1 })}
            >
              Next page
            </button>
          </nav>
        </>
      )}
      {/* Keyed by the item: the form's state starts from it, so the fields exist when the dialog opens and takes focus. */}
      <EditDialog
        key={editing?.productId ?? 'none'}
        item={editing}
        storeId={store.id}
        timeZone={store.timezone}
        manager={manager}
        onClose={() => setEditing(null)}
        onSaved={(item) => {
          replaceItem(item);
          setEditing(null);
          say(`${item.name} saved.`);
        }}
      />
    </>
  );
}

function Select({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      <select id={id} className="field" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

function failureText(err: unknown): { text: string; current?: MenuItem } {
  if (err instanceof ApiFailure && err.errorCode === 'stale_edit')
    return { text: err.message, current: (err.meta as { current?: MenuItem } | undefined)?.current };
  return { text: errorText(err) };
}

/** One variant: the two-tap sold out (or back in stock through the edit dialog), edit, history. */
function Row({
  item,
  storeId,
  timeZone,
  selected,
  onSelect,
  onEdit,
  onHistory,
  onChanged,
  onError,
}: {
  item: MenuItem;
  storeId: number;
  timeZone: string;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onEdit: () => void;
  onHistory: () => void;
  onChanged: (item: MenuItem, text: string) => void;
  onError: (text: string, current?: MenuItem) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // Where focus goes after the buttons change: the confirm button on the first tap, back to
  // "Sold out" on cancel.
  const [focusTarget, setFocusTarget] = useState<'confirm' | 'sold-out' | 'restock' | null>(null);
  const rowRef = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (!focusTarget) return;
    rowRef.current?.querySelector<HTMLElement>(`[data-focus="${focusTarget}"]`)?.focus();
    setFocusTarget(null);
  }, [focusTarget, confirming]);

  async function setStock(stock: number, done: (updated: MenuItem) => string, focus: 'restock' | 'sold-out') {
    setBusy(true);
    try {
      const updated = await api<MenuItem>('PATCH', `/stores/${storeId}/menu/variants/${item.productId}`, {
        stock,
        version: item.version,
      } satisfies MenuEditRequest);
      onChanged(updated, done(updated));
      setFocusTarget(focus);
    } catch (err) {
      const { text, current } = failureText(err);
      onError(text, current);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }
  const markSoldOut = () =>
    setStock(
      0,
      (u) => `${item.name} is marked sold out.${u.restoreStock ? ` Restock to ${u.restoreStock} undoes it.` : ''}`,
      'restock',
    );
  const cancelConfirm = () => {
    setConfirming(false);
    setFocusTarget('sold-out');
  };

  const soldOut = item.stock === 0;
  const actions = (
    <div
      className="flex flex-wrap gap-2"
      // Escape backs out of the two-tap "Confirm sold out", as Cancel does.
      onKeyDown={(e) => {
        if (confirming && e.key === 'Escape') {
          e.preventDefault();
          cancelConfirm();
        }
      }}
    >
      {soldOut && item.restoreStock != null && (
        <button
          data-focus="restock"
          type="button"
          className="btn-secondary"
          disabled={busy}
          aria-label={`Restock to ${item.restoreStock}: ${item.name} (undo sold out)`}
          onClick={() => void setStock(item.restoreStock!, () => `${item.name} is back in stock (${item.restoreStock}).`, 'sold-out')}
        >
          Restock to {item.restoreStock}
        </button>
      )}
      {!soldOut &&
        (confirming ? (
          <>
            <button data-focus="confirm" type="button" className="btn-danger" disabled={busy} onClick={() => void markSoldOut()}>
              Confirm sold out
            </button>
            <button type="button" className="btn-secondary" onClick={cancelConfirm}>
              Cancel
            </button>
          </>
        ) : (
          <button
            data-focus="sold-out"
            type="button"
            className="btn-secondary"
            aria-label={`Mark sold out: ${item.name}`}
            onClick={() => {
              setConfirming(true);
              setFocusTarget('confirm');
            }}
          >
            Mark sold out
          </button>
        ))}
      <button type="button" className="btn-secondary" aria-label={`${soldOut ? 'Restock or edit' : 'Edit'} ${item.name}`} onClick={onEdit}>
        {soldOut ? 'Restock or edit' : 'Edit'}
      </button>
      <button type="button" className="btn-ghost" aria-label={`History of ${item.name}`} onClick={onHistory}>
        History
      </button>
    </div>
  );
  return (
    <tr ref={rowRef} data-testid={`menu-row-${item.sku}`}>
      <td>
        <input
          type="checkbox"
          className="size-5"
          aria-label={`Select ${item.name}`}
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
        />
      </td>
      <td>
        <div className="flex items-start gap-3">
          {item.thumbnail ? (
            <img src={item.thumbnail} alt="" width={48} height={48} className="size-12 rounded object-cover" loading="lazy" />
          ) : (
            <span className="size-12 shrink-0 rounded bg-stone-200" aria-hidden="true" />
          )}
          <div>
            <span className="font-semibold">{item.name}</span>
            <span className="block text-sm text-stone-700">
              {item.sku}
              {item.brand ? ` · ${item.brand}` : ''} · {item.category}
            </span>
          </div>
        </div>
      </td>
      <td data-label="Price">
        {item.specialPrice && item.specialState === 'current' ? (
          <>
            <span className="font-semibold">${item.specialPrice}</span> <s className="text-stone-700">${item.price}</s>
            {item.specialTo && <span className="block text-sm text-stone-700">Sale until {dateTime(item.specialTo, timeZone)}</span>}
          </>
        ) : item.specialPrice ? (
          // Not charged now: the price is what the storefront charges; the sale is shown as past or coming.
          <>
            <span className="font-semibold">${item.price}</span>
            <span className="block text-sm text-stone-700" data-testid="sale-note">
              {item.specialState === 'expired'
                ? `Sale $${item.specialPrice} ended ${dateTime(item.specialTo, timeZone)}`
                : `Sale $${item.specialPrice} starts ${dateTime(item.specialFrom, timeZone)}`}
            </span>
          </>
        ) : (
          `$${item.price}`
        )}
      </td>
      <td data-label="Stock">{soldOut ? <Badge tone="red">Sold out</Badge> : item.stock}</td>
      <td data-label="Status">
        <span className="inline-flex flex-wrap gap-1">
          {item.status === 'disabled' ? <Badge>Off the menu</Badge> : <Badge tone="green">On the menu</Badge>}
          {!item.orderable && <Badge tone="amber">Not orderable</Badge>}
        </span>
      </td>
      <td className="pt-2">{actions}</td>
    </tr>
  );
}

const FIELDS = [
  { key: 'price', column: 'price', label: 'Price ($)', managerOnly: true },
  { key: 'specialPrice', column: 'special_price', label: 'Special price ($, empty for none)', managerOnly: true },
  { key: 'specialFrom', column: 'special_from', label: 'Special from (2026-05-01, empty = now)', managerOnly: true },
  { key: 'specialTo', column: 'special_to', label: 'Special until (empty = open-ended)', managerOnly: true },
  { key: 'stock', column: 'stock', label: 'Stock (packages)', managerOnly: false },
] as const;

type FormValues = Record<(typeof FIELDS)[number]['key'], string> & { orderable: boolean; status: 'active' | 'disabled' };

function valuesOf(item: MenuItem): FormValues {
  return {
    price: item.price,
    specialPrice: item.specialPrice,
    specialFrom: item.specialFrom,
    specialTo: item.specialTo,
    stock: String(item.stock),
    orderable: item.orderable,
    status: item.status,
  };
}

/** Quick edit: only the fields that changed are sent, with the version the form was opened at. */
/** A sale date typed or stored (UTC, as in the menu file) read in the store's time zone; null when it is not a date. */
function storeTimeOf(value: string, timeZone: string): string | null {
  const v = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(v)) return null;
  const ms = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
  return Number.isNaN(ms) ? null : dateTime(new Date(ms).toISOString(), timeZone);
}

function EditDialog({
  item,
  storeId,
  timeZone,
  manager,
  onClose,
  onSaved,
}: {
  item: MenuItem | null;
  storeId: number;
  timeZone: string;
  manager: boolean;
  onClose: () => void;
  onSaved: (item: MenuItem) => void;
}) {
  const [base, setBase] = useState<MenuItem | null>(item);
  const [values, setValues] = useState<FormValues | null>(item ? valuesOf(item) : null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The first field with an error takes focus once it is drawn with its message.
  const [focusField, setFocusField] = useState<string | null>(null);
  useEffect(() => {
    if (!focusField) return;
    document.getElementById(`edit-${focusField}`)?.focus();
    setFocusField(null);
  }, [focusField]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!base || !values) return;
    const before = valuesOf(base);
    const body: { [K in keyof MenuEditRequest]?: unknown } = { version: base.version };
    for (const key of Object.keys(values) as (keyof FormValues)[]) if (values[key] !== before[key]) body[key] = values[key];
    if (Object.keys(body).length === 1) {
      onClose();
      return;
    }
    setBusy(true);
    setErrors({});
    setError(null);
    try {
      onSaved(await api<MenuItem>('PATCH', `/stores/${storeId}/menu/variants/${base.productId}`, body));
    } catch (err) {
      if (err instanceof ApiFailure && err.errorCode === 'invalid_menu_edit') {
        const problems = ((err.meta as { problems?: Problem[] } | undefined)?.problems ?? []) as Problem[];
        const byField: Record<string, string> = {};
        for (const p of problems) {
          const field =
            FIELDS.find((f) => f.column === p.column)?.key ?? (p.column === 'orderable' || p.column === 'status' ? p.column : null);
          if (field && !byField[field]) byField[field] = p.reason;
        }
        setErrors(byField);
        setError(Object.keys(byField).length ? 'Please correct the marked fields.' : err.message);
        const first = FIELDS.find((f) => byField[f.key]);
        if (first) setFocusField(first.key);
      } else if (err instanceof ApiFailure && err.errorCode === 'stale_edit') {
        const current = (err.meta as { current?: MenuItem } | undefined)?.current;
        if (current) {
          setBase(current);
          setValues(valuesOf(current));
        }
        setError(err.message);
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={base ? `Edit ${base.name}` : 'Edit'} open={item !== null} onClose={onClose}>
      {base && values && (
        <form onSubmit={submit} className="grid gap-3" noValidate>
          <p className="text-sm text-stone-700">
            {base.sku} · POS id {base.externalId}
          </p>
          <ErrorNote>{error}</ErrorNote>
          {FIELDS.filter((f) => manager || !f.managerOnly).map((f) => (
            <div key={f.key}>
              <label htmlFor={`edit-${f.key}`}>{f.label}</label>
              <input
                id={`edit-${f.key}`}
                className="field"
                inputMode={f.key === 'stock' ? 'numeric' : f.key.startsWith('special') && f.key !== 'specialPrice' ? 'text' : 'decimal'}
                value={values[f.key]}
                aria-invalid={errors[f.key] ? true : undefined}
                aria-describedby={
                  [errors[f.key] ? `edit-${f.key}-error` : '', (f.key === 'specialFrom' || f.key === 'specialTo') && storeTimeOf(values[f.key], timeZone) ? `edit-${f.key}-local` : '']
                    .filter(Boolean)
                    .join(' ') || undefined
                }
                onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
              />
              {(f.key === 'specialFrom' || f.key === 'specialTo') && storeTimeOf(values[f.key], timeZone) && (
                <p id={`edit-${f.key}-local`} className="mt-1 text-sm text-stone-700">
                  Store time: {storeTimeOf(values[f.key], timeZone)}
                </p>
              )}
              {errors[f.key] && (
                <p id={`edit-${f.key}-error`} className="mt-1 text-sm text-red-800">
                  {errors[f.key]}
                </p>
              )}
            </div>
          ))}
          <label className="flex items-center gap-2 font-normal">
            <input
              type="checkbox"
              className="size-5"
              checked={values.orderable}
              onChange={(e) => setValues({ ...values, orderable: e.target.checked })}
            />
            Can be ordered online
          </label>
          {manager && (
            <div>
              <label htmlFor="edit-status">On the menu</label>
              <select
                id="edit-status"
                className="field"
                value={values.status}
                onChange={(e) => setValues({ ...values, status: e.target.value as FormValues['status'] })}
              >
                <option value="active">On the menu</option>
                <option value="disabled">Off the menu (not shown to shoppers)</option>
              </select>
            </div>
          )}
          <div className="flex gap-2">
            <button type="submit" className="btn" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Actions on the selected rows; a budtender gets the stock ones only (the server checks too). */
function BulkBar({
  storeId,
  ids,
  manager,
  onDone,
  onError,
  onClear,
}: {
  storeId: number;
  ids: number[];
  manager: boolean;
  onDone: (text: string) => void;
  onError: (text: string) => void;
  onClear: () => void;
}) {
  const [qty, setQty] = useState('1');
  const [percent, setPercent] = useState('');
  const [busy, setBusy] = useState(false);
  const tooMany = ids.length > 500;

  async function run(action: BulkAction, extra: { qty?: number; percent?: number } = {}, done = 'Done') {
    setBusy(true);
    try {
      const result = await api<MenuBulkAnswer>('POST', `/stores/${storeId}/menu/bulk`, {
        productIds: ids,
        action,
        ...extra,
      } satisfies MenuBulkRequest);
      onDone(`${done}: ${result.changed} of ${result.selected} selected ${result.selected === 1 ? 'item' : 'items'} changed.`);
    } catch (err) {
      onError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-label="Selected items" className="card sticky top-0 z-10 mb-3 grid gap-3 border-green-800">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-semibold">
          {ids.length} selected{tooMany ? ' — at most 500 at once' : ''}
        </p>
        <button type="button" className="btn-ghost" onClick={onClear}>
          Clear selection
        </button>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={busy || tooMany}
          onClick={() => void run('sold_out', {}, 'Marked sold out')}
        >
          Mark sold out
        </button>
        <div>
          <label htmlFor="bulk-qty">Back in stock with</label>
          <input id="bulk-qty" className="field w-24" inputMode="numeric" value={qty} onChange={(e) => setQty(e.target.value)} />
        </div>
        <button
          type="button"
          className="btn-secondary"
          disabled={busy || tooMany || !/^\d+$/.test(qty)}
          onClick={() => void run('in_stock', { qty: Number(qty) }, 'Back in stock')}
        >
          Back in stock
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={busy || tooMany}
          onClick={() => void run('orderable_on', {}, 'Orderable online')}
        >
          Orderable online
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={busy || tooMany}
          onClick={() => void run('orderable_off', {}, 'Not orderable online')}
        >
          Not orderable online
        </button>
        {manager && (
          <>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy || tooMany}
              onClick={() => void run('enable', {}, 'Put on the menu')}
            >
              Put on the menu
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy || tooMany}
              onClick={() => void run('disable', {}, 'Taken off the menu')}
            >
              Take off the menu
            </button>
            <div>
              <label htmlFor="bulk-percent">Change price by %</label>
              <input
                id="bulk-percent"
                className="field w-24"
                inputMode="decimal"
                value={percent}
                onChange={(e) => setPercent(e.target.value)}
              />
            </div>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy || tooMany || !/^-?\d+(\.\d+)?$/.test(percent) || Number(percent) === 0}
              onClick={() => void run('price_percent', { percent: Number(percent) }, 'Prices changed')}
            >
              Change prices
            </button>
          </>
        )}
      </div>
    </section>
  );
}
