import { describe, expect, it } from 'vitest';
import { absoluteUrl, pageMeta } from './meta.ts';

const root = { id: 'root', loaderData: { store: { name: 'Verdant Downtown', seo: { defaultTitle: 'Verdant Downtown', description: 'Store' } } } };

describe('pageMeta', () => {
  it('adds the canonical link, og:url, og:type and og:image', () => {
    const tags = pageMeta([root], { title: 'Blue Dream by Sierra', canonical: 'https://x.test/p/A/b', image: 'https://x.test/img/600/744/a.svg', type: 'product' });
    expect(tags).toContainEqual({ title: 'Blue Dream by Sierra — Verdant Downtown' });
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'https://x.test/p/A/b' });
    expect(tags).toContainEqual({ property: 'og:url', content: 'https://x.test/p/A/b' });
    expect(tags).toContainEqual({ property: 'og:type', content: 'product' });
    expect(tags).toContainEqual({ property: 'og:image', content: 'https://x.test/img/600/744/a.svg' });
  });

  it('marks noindex pages noindex, follow', () => {
    expect(pageMeta([root], { noindex: true })).toContainEqual({ name: 'robots', content: 'noindex, follow' });
  });
});

describe('absoluteUrl', () => {
  it('builds on the request origin and the store prefix', () => {
    expect(absoluteUrl('http://downtown.localhost:3187/menu/flower?size=92', '', '/menu/flower')).toBe('http://downtown.localhost:3187/menu/flower');
    expect(absoluteUrl('https://verdant.test/eastside/menu', '/eastside', '/p/A/b')).toBe('https://verdant.test/eastside/p/A/b');
  });
});
