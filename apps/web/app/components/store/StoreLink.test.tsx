import { renderToString } from 'react-dom/server';
import { createMemoryRouter, Link, MemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RootData } from '../../lib/root-data.ts';
import { PathLink, StoreLink } from './StoreLink.tsx';

const PATHS = [
  '/p/FL-BLUE-DREAM/blue-dream',
  '/downtown/p/FL-BLUE-DREAM/blue-dream',
  '/p/ED-GUMMIES-10-PACK/gummies-3.5-mg',
  '/p/A%20B/caf%C3%A9',
  '/p/FL-BLUE-DREAM/blue-dream/FL-BLUE-DREAM-3-5G',
  '/menu/',
  '/menu//flower',
  '/p/./x/../y',
  '/menu?discount_group_id=3#deals',
];

const inRouter = (node: React.ReactNode) => renderToString(<MemoryRouter initialEntries={['/menu/flower']}>{node}</MemoryRouter>);

describe('PathLink (product cards) on the server', () => {
  it('writes the same anchor as React Router <Link> for the same path', () => {
    for (const to of PATHS) {
      const fast = inRouter(
        <PathLink to={to} prefetch="intent" className="card-link">
          Blue Dream &amp; co
        </PathLink>,
      );
      const link = inRouter(
        <Link to={to} prefetch="intent" className="card-link">
          Blue Dream &amp; co
        </Link>,
      );
      expect(fast, to).toBe(link);
      expect(fast).toContain('data-discover="true"');
    }
  });
});

/** Rendered as a page renders it: in a data router whose root loader gave `basePath`. */
function inStore(basePath: string, node: () => React.ReactNode): string {
  const root = { basePath } as unknown as RootData;
  const router = createMemoryRouter([{ id: 'root', path: '*', Component: () => <>{node()}</> }], {
    initialEntries: [`${basePath}/menu/flower`],
    hydrationData: { loaderData: { root } },
  });
  return renderToString(<RouterProvider router={router} />);
}

describe('StoreLink on the server', () => {
  const STORE_PATHS = ['/', '/#deals', '/menu', '/terms', '/contact', '/menu/flower/hybrid', '/p/A%20B/caf%C3%A9', '/menu?x=1#top', 'sale'];
  it('writes the same anchor as <Link> to the store path, for the props footer, header and breadcrumbs pass', () => {
    for (const basePath of ['', '/eastside']) {
      for (const to of STORE_PATHS) {
        for (const props of [{}, { className: 'rounded-sm text-stone-300' }, { className: 'inline-flex', prefetch: 'intent' as const }]) {
          const store = inStore(basePath, () => (
            <StoreLink to={to} {...props}>
              Terms &amp; co
            </StoreLink>
          ));
          const link = inStore(basePath, () => (
            <Link to={withBase(basePath, to)} {...props}>
              Terms &amp; co
            </Link>
          ));
          expect(store, `${basePath} ${to} ${JSON.stringify(props)}`).toBe(link);
          expect(store).toContain('data-discover="true"');
        }
      }
    }
  });

  it('leaves links with other props to <Link> (same markup either way)', () => {
    const props = { className: 'x', target: '_blank', reloadDocument: true, prefetch: 'render' as const };
    const store = inStore('', () => (
      <StoreLink to="/menu" {...props}>
        Menu
      </StoreLink>
    ));
    const link = inStore('', () => (
      <Link to="/menu" {...props}>
        Menu
      </Link>
    ));
    expect(store).toBe(link);
    expect(store).toContain('target="_blank"');
  });
});

/** What lib/paths.ts withBasePath gives for these paths, spelled out. */
function withBase(basePath: string, to: string): string {
  const p = to.startsWith('/') ? to : `/${to}`;
  if (!basePath) return p;
  return p === '/' || p.startsWith('/?') || p.startsWith('/#') ? basePath + p.slice(1) : basePath + p;
}
