import { useLocation, useNavigate, useNavigation } from 'react-router';
import { parseCatalogQuery, type CatalogQuery } from './catalog-query.ts';

/**
 * Navigation for filter and sort controls. While a change is loading, the next one builds on the
 * query being loaded (not the one on screen), so two quick clicks both count.
 */
export function useCatalogNavigation(query: CatalogQuery) {
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const pending = navigation.location && navigation.location.pathname === location.pathname ? navigation.location : null;
  const current: CatalogQuery = pending ? parseCatalogQuery(new URLSearchParams(pending.search)) : query;
  return {
    current,
    pending: Boolean(pending),
    pathname: location.pathname,
    /** Go to `search` on this page; Back undoes the change; the scroll position stays. */
    go: (search: string) => navigate(`${location.pathname}${search}`, { preventScrollReset: true }),
  };
}
