import type { ReactNode } from 'react';
import { PathLink, StoreLink } from '../store/StoreLink.tsx';
import { cachedElement } from '../../lib/cached-element.tsx';
import type { BreadcrumbItem } from '../../lib/category-tree.ts';
import { pageFragments } from '../../lib/fragment-cache.ts';
import { withBasePath } from '../../lib/paths.ts';
import { useOptionalRootData } from '../../lib/root-data.ts';

const LINK_CLASS = 'rounded-sm underline-offset-4 hover:text-stone-900 hover:underline';

/**
 * Breadcrumbs (spec §2: built from the category's parent ids); the last item is the current page.
 * On the server the list's markup comes from the fragment cache once rendered, keyed by the base
 * path and the items; the links are then written by PathLink, which is what StoreLink writes for
 * them (a path that would start with `//` goes to <Link>: such a trail is not cached).
 */
export function Breadcrumbs({ items }: { items: BreadcrumbItem[] }) {
  const basePath = useOptionalRootData()?.basePath ?? '';
  if (items.length === 0) return null;
  const props = { 'aria-label': 'Breadcrumb', className: 'text-sm text-stone-600' };
  const storeLink = (to: string, name: string) => (
    <StoreLink to={to} className={LINK_CLASS}>
      {name}
    </StoreLink>
  );
  if (items.some((item) => item.path && withBasePath(basePath, item.path).startsWith('//'))) {
    return (
      <nav {...props}>
        <Trail items={items} link={storeLink} />
      </nav>
    );
  }
  const pathLink = (to: string, name: string) => (
    <PathLink to={withBasePath(basePath, to)} className={LINK_CLASS}>
      {name}
    </PathLink>
  );
  return cachedElement(pageFragments, `crumbs\u0000${basePath}\u0000${JSON.stringify(items)}`, 'nav', props, () => (
    <Trail items={items} link={pathLink} />
  ));
}

function Trail({ items, link }: { items: BreadcrumbItem[]; link: (to: string, name: string) => ReactNode }) {
  return (
    <ol className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
      {items.map((item, i) => {
        const last = i === items.length - 1;
        return (
          <li key={`${item.name}-${i}`} className="flex items-center gap-x-1.5">
            {i > 0 ? (
              <span aria-hidden="true" className="text-stone-400">
                /
              </span>
            ) : null}
            {last || !item.path ? (
              <span aria-current={last ? 'page' : undefined} className={last ? 'font-medium text-stone-900' : undefined}>
                {item.name}
              </span>
            ) : (
              link(item.path, item.name)
            )}
          </li>
        );
      })}
    </ol>
  );
}
