import { renderToString } from 'react-dom/server';
import { Link, MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PathLink } from './StoreLink.tsx';

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
