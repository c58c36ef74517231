import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { FilterKey } from '@verdant/domain';
import { catalogSearch, clearFiltersSearch, filterToggleSearch, hasActiveFilters, type CatalogQuery } from '../../lib/catalog-query.ts';
import type { FilterGroup } from '../../lib/filter-view.ts';
import { useCatalogNavigation } from '../../lib/use-catalog-navigation.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { cachedElement } from '../../lib/cached-element.tsx';
import { pageFragments } from '../../lib/fragment-cache.ts';

interface Props {
  idPrefix: string;
  groups: FilterGroup[];
  query: CatalogQuery;
  /** Shown as the panel's heading (the drawer has its own title and passes none). */
  heading?: string;
}

/**
 * The filter panel (spec §5, §9): a fieldset per default filter, checkboxes with counts. It is a
 * plain GET form, so it works without JavaScript ("Apply filters"); with JavaScript each change
 * applies the spec's toggle rule (toggleFilter: license_type narrowed, sale ⟷ deal exclusive)
 * and navigates at once.
 */
export function FilterPanel({ idPrefix, groups, query, heading }: Props) {
  const hydrated = useHydrated();
  const nav = useCatalogNavigation(query);
  const searchKey = catalogSearch(query);
  // The list below re-mounts when the address changes, which would drop the keyboard focus to
  // <body>: the toggled checkbox (or, if it is gone, the first one of its group) takes it back.
  // The new count is announced by the results' live region (CategoryView, FiltersDrawer).
  const toggled = useRef<{ id: string; group: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const last = toggled.current;
    if (!last) return;
    toggled.current = null;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const target =
      document.getElementById(last.id) ??
      formRef.current?.querySelector<HTMLInputElement>(`input[type=checkbox][name="${CSS.escape(last.group)}"]`) ??
      formRef.current?.querySelector<HTMLInputElement>('input[type=checkbox]');
    target?.focus({ preventScroll: true });
  }, [searchKey]);
  const onToggle = (key: FilterKey, value: string, id: string) => {
    toggled.current = { id, group: key };
    nav.go(filterToggleSearch(nav.current, key, value));
  };
  // Hidden fields carry what this form does not edit: the search text and the sort.
  const keep = new URLSearchParams(catalogSearch({ text: query.text, sort: query.sort }).slice(1));
  const headingId = `${idPrefix}-heading`;
  return (
    <form ref={formRef} method="get" action={nav.pathname} aria-labelledby={heading ? headingId : undefined} className="space-y-5">
      {heading ? (
        <h2 id={headingId} className="text-lg font-semibold text-stone-900">
          {heading}
        </h2>
      ) : null}
      {[...keep].map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      {/*
        Re-mount on every URL change so each checkbox starts from the URL's state. On the server the
        groups' markup comes from the fragment cache once rendered (no handlers there: not hydrated),
        keyed by the id prefix and the groups (every option's value, label, count and state).
      */}
      {cachedElement(
        pageFragments,
        `filters\u0000${idPrefix}\u0000${JSON.stringify(groups)}`,
        'div',
        { key: searchKey, className: 'space-y-5' },
        () => (
          <FilterGroups idPrefix={idPrefix} groups={groups} onToggle={hydrated ? onToggle : undefined} />
        ),
      )}
      <div className="flex flex-wrap items-center gap-3">
        {hydrated ? null : (
          <button type="submit" className="inline-flex min-h-11 items-center rounded-full bg-brand px-5 font-semibold text-on-brand hover:opacity-90">
            Apply filters
          </button>
        )}
        {hasActiveFilters(query.filters) ? (
          <Link
            to={`${nav.pathname}${clearFiltersSearch(query)}`}
            preventScrollReset
            className="inline-flex min-h-11 items-center font-medium text-brand-ink underline underline-offset-4"
          >
            Clear all filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}

function FilterGroups({
  idPrefix,
  groups,
  onToggle,
}: {
  idPrefix: string;
  groups: FilterGroup[];
  onToggle?: (key: FilterKey, value: string, id: string) => void;
}) {
  return groups.map((group) => (
    <fieldset key={group.key} className="min-w-0">
      <legend className="text-sm font-semibold tracking-wide text-stone-900 uppercase">{group.title}</legend>
      <ul className="mt-2 space-y-1">
        {group.options.map((option) => {
          const id = `${idPrefix}-${group.key}-${option.value}`;
          return (
            <li key={option.value}>
              <label
                htmlFor={id}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-1 text-stone-800 hover:bg-stone-100"
              >
                <input
                  id={id}
                  type="checkbox"
                  name={group.key}
                  value={option.value}
                  defaultChecked={option.checked}
                  onChange={onToggle ? () => onToggle(group.key, option.value, id) : undefined}
                  className="h-5 w-5 shrink-0 accent-brand"
                />
                <span className="flex-1">{option.label}</span>
                <span aria-hidden="true" className="text-sm text-stone-600 tabular-nums">
                  {option.count}
                </span>
                <span className="sr-only">
                  , {option.count} {option.count === 1 ? 'product' : 'products'}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  ));
}
