import { StoreLink } from '../store/StoreLink.tsx';
import { useRootData } from '../../lib/root-data.ts';
import { telHref } from '../../lib/store-view.ts';

/**
 * What a store with no products a shopper can see shows in place of its lists (issue 13): a new
 * deployment before its first menu import. A plain heading and text, not a live region: it is the
 * page's content, not a change. Crawlers get the page with 200 (the store's address and hours are
 * real content); category and search pages of an empty store are `noindex` until products exist.
 */
export function MenuComingSoon({ heading: Heading = 'h2' }: { heading?: 'h1' | 'h2' }) {
  const { store } = useRootData();
  const phone = store.placeInfo.phone;
  return (
    <section aria-labelledby="menu-coming-soon" className="mx-auto max-w-3xl px-4 py-14 text-center sm:px-6">
      <Heading id="menu-coming-soon" className="font-display text-3xl font-bold tracking-tight text-stone-900">
        Menu coming soon
      </Heading>
      <p className="mt-4 text-lg text-stone-700">
        {store.name} is putting its menu online. Check back soon
        {phone ? (
          <>
            {' '}
            or call us at{' '}
            <a href={telHref(phone)} className="font-semibold text-brand-ink underline underline-offset-4">
              {phone}
            </a>
          </>
        ) : null}
        .
      </p>
      <p className="mt-6">
        <StoreLink to="/contact" className="font-semibold text-brand-ink underline underline-offset-4">
          Hours &amp; directions
        </StoreLink>
      </p>
    </section>
  );
}
