import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router';
import { useStorePath } from '../../lib/root-data.ts';

/** A link inside the current store: `to` is a store path (`/menu`), the basePath is added here. */
export function StoreLink({ to, ...props }: Omit<LinkProps, 'to'> & { to: string }) {
  const storePath = useStorePath();
  return <Link to={storePath(to)} {...props} />;
}

export function StoreNavLink({ to, ...props }: Omit<NavLinkProps, 'to'> & { to: string }) {
  const storePath = useStorePath();
  return <NavLink to={storePath(to)} {...props} />;
}
