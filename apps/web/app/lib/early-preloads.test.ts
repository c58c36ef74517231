import { describe, expect, it } from 'vitest';
import { imagePreloadLinks, stylesheetLink } from './early-preloads.ts';

const page = (head: string, body = '<p>x</p>') => Buffer.from(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`);

describe('early preloads', () => {
  it('names the stylesheet', () => {
    expect(stylesheetLink('/assets/app-1.css')).toBe('</assets/app-1.css>; rel=preload; as=style');
  });

  it('takes the head’s image preloads in order, keeping a high priority, at most five', () => {
    const links = Array.from(
      { length: 7 },
      (_, i) => `<link rel="preload" as="image" href="/img/${i}.svg"${i === 1 ? ' fetchPriority="high"' : ''}/>`,
    );
    // The first two catalogue images are asked for at high priority; the page's own high one keeps it.
    expect(imagePreloadLinks(page(`<meta charSet="utf-8"/>${links.join('')}<title>t</title>`))).toEqual([
      '</img/0.svg>; rel=preload; as=image; fetchpriority=high',
      '</img/1.svg>; rel=preload; as=image; fetchpriority=high',
      '</img/2.svg>; rel=preload; as=image; fetchpriority=high',
      '</img/3.svg>; rel=preload; as=image',
      '</img/4.svg>; rel=preload; as=image',
    ]);
  });

  it('leaves the logo and placeholders at the browser’s priority', () => {
    const head = ['/brand/downtown.svg', '/img/a.svg', '/placeholder-product.svg', '/img/b.svg', '/img/c.svg']
      .map((href) => `<link rel="preload" as="image" href="${href}"/>`)
      .join('');
    expect(imagePreloadLinks(page(head))).toEqual([
      '</brand/downtown.svg>; rel=preload; as=image',
      '</img/a.svg>; rel=preload; as=image; fetchpriority=high',
      '</placeholder-product.svg>; rel=preload; as=image',
      '</img/b.svg>; rel=preload; as=image; fetchpriority=high',
      '</img/c.svg>; rel=preload; as=image',
    ]);
  });

  it('ignores the body, srcset preloads, other origins and what a header cannot carry', () => {
    const head = [
      '<link rel="preload" as="image" imageSrcSet="/a.svg 1x"/>',
      '<link rel="preload" as="image" href="https://cdn.example/x.png"/>',
      '<link rel="preload" as="image" href="/img/a b.svg"/>',
      '<link rel="preload" as="image" href="/img/q&quot;.svg"/>',
      '<link rel="preload" as="image" href="/img/ok.svg?w=1&amp;h=2"/>',
    ].join('');
    const body = '<link rel="preload" as="image" href="/img/in-body.svg"/>';
    expect(imagePreloadLinks(page(head, body))).toEqual(['</img/ok.svg?w=1&h=2>; rel=preload; as=image; fetchpriority=high']);
    expect(imagePreloadLinks(Buffer.from('<p>no head</p>'))).toEqual([]);
  });
});
