import type { ReactNode } from 'react';
import { createPath, Link, NavLink, resolvePath, type LinkProps, type NavLinkProps } from 'react-router';
import { useStorePath } from '../../lib/root-data.ts';

/**
 * A link inside the current store: `to` is a store path (`/menu`), the basePath is added here. A
 * link with nothing but a class, text and `prefetch="intent"` (footer, breadcrumbs, most of the
 * header) is a PathLink: on the server the same anchor without <Link>'s hooks.
 */
export function StoreLink({ to, ...props }: Omit<LinkProps, 'to'> & { to: string }) {
  const storePath = useStorePath();
  const path = storePath(to);
  // `//host…` is an absolute URL to <Link> (no data-discover): left to it.
  if (isPlainLink(props) && !path.startsWith('//')) return <PathLink to={path} {...(props as Omit<PathLinkProps, 'to'>)} />;
  return <Link to={path} {...props} />;
}

/** Props PathLink writes exactly as <Link> does (StoreLink.test.tsx). */
function isPlainLink(props: Omit<LinkProps, 'to'>): boolean {
  for (const key in props) {
    if (key === 'className') {
      if (typeof props.className !== 'string' && props.className !== undefined) return false;
    } else if (key === 'prefetch') {
      if (props.prefetch !== 'intent' && props.prefetch !== 'none' && props.prefetch !== undefined) return false;
    } else if (key !== 'children') return false;
  }
  return true;
}

export function StoreNavLink({ to, ...props }: Omit<NavLinkProps, 'to'> & { to: string }) {
  const storePath = useStorePath();
  return <NavLink to={storePath(to)} {...props} />;
}

interface PathLinkProps {
  /** An absolute path of this site (`/p/…`), as StoreLink gives React Router's <Link>. */
  to: string;
  prefetch?: LinkProps['prefetch'];
  className?: string;
  children?: ReactNode;
}

/**
 * StoreLink for links a page repeats many times (one per product card). In the browser it is the
 * same <Link> (client navigation, prefetch on intent), and it hydrates the same markup. On the
 * server it writes the anchor <Link> writes for an absolute path — `href` resolved as <Link>
 * resolves one (`resolvePath`, then the static router's `createHref`: `createPath`; the app has no
 * basename), then `data-discover` — without <Link>'s hooks, which serialise the route matches to
 * JSON twice per link: ~5 % of an uncached home render (60 cards). StoreLink.test.tsx holds the
 * two to the same bytes.
 */
export function StorePathLink({ to, ...props }: PathLinkProps) {
  const storePath = useStorePath();
  return <PathLink to={storePath(to)} {...props} />;
}

export function PathLink({ to, prefetch, ...props }: PathLinkProps) {
  if (typeof document !== 'undefined') return <Link to={to} prefetch={prefetch} {...props} />;
  return <a {...props} href={createPath(resolvePath(to))} data-discover="true" />;
}

/**
 * <NavLink>'s rule for "this link is the current page" (not `end`, not case-sensitive; the app has
 * no basename): the location is the link's path or below it. For StoreNavLink's server markup
 * without its hooks (NavLinkAnchor); StoreLink.test.tsx holds the two to the same answers.
 */
export function navLinkActive(locationPathname: string, to: string): boolean {
  const location = locationPathname.toLowerCase();
  // NavLink compares the path as the router encodes it (the static router: as a URL would).
  const target = new URL(createPath(resolvePath(to)), 'http://localhost').pathname.toLowerCase();
  const endSlash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  return location === target || (location.startsWith(target) && location.charAt(endSlash) === '/');
}

/**
 * The anchor StoreNavLink writes on the server (`to`: the resolved store path, `className`: its
 * class for that state), without <NavLink>'s hooks: `aria-current="page"` when active, then the
 * class, then <Link>'s href and data-discover, in <NavLink>'s order. Server only: the browser
 * renders StoreNavLink (client navigation, active state as the shopper moves).
 */
export function NavLinkAnchor({
  to,
  active,
  className,
  children,
}: {
  to: string;
  active: boolean;
  className: string;
  children?: ReactNode;
}) {
  return (
    <a aria-current={active ? 'page' : undefined} className={className} href={createPath(resolvePath(to))} data-discover="true">
      {children}
    </a>
  );
}
