import { describe, expect, it } from 'vitest';
import { STATIC_PAGE_IDENTIFIERS, staticPageFromPath } from './static-pages.ts';

describe('static pages', () => {
  it('are the thirteen pages of spec §2', () => {
    expect(STATIC_PAGE_IDENTIFIERS).toEqual([
      'legal',
      'privacy',
      'terms',
      'sale',
      'order-tracking',
      'about-us',
      'customer-service',
      'store-locator',
      'size-guide',
      'gift-card',
      'delivery',
      'returns',
      'order-from-catalog',
    ]);
  });

  it('take the identifier from the last path segment, prefix or not', () => {
    expect(staticPageFromPath('/terms')).toBe('terms');
    expect(staticPageFromPath('/eastside/about-us')).toBe('about-us');
    expect(staticPageFromPath('/Terms/')).toBe('terms');
    expect(staticPageFromPath('/constructor')).toBeNull();
    expect(staticPageFromPath('/')).toBeNull();
  });
});
