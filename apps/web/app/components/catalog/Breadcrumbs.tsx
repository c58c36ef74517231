import { StoreLink } from '../store/StoreLink.tsx';
import type { BreadcrumbItem } from '../../lib/category-tree.ts';

/** Breadcrumbs (spec §2: built from the category's parent ids); the last item is the current page. */
export function Breadcrumbs({ items }: { items: BreadcrumbItem[] }) {
  if (items.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-stone-600">
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
                <StoreLink to={item.path} className="rounded-sm underline-offset-4 hover:text-stone-900 hover:underline">
                  {item.name}
                </StoreLink>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
