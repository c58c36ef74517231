import { describe, expect, it } from 'vitest';
import { normalizeUrlPath } from './normalize.ts';

describe('normalizeUrlPath', () => {
  it.each([
    ['/menu/flower/', '/menu/flower', ['menu/flower']],
    ['menu/flower', '/menu/flower', ['menu/flower']],
    ['//menu//flower?x=1#top', '/menu/flower', ['menu/flower']],
    ['https://shop.example/menu/flower/?q', '/menu/flower', ['menu/flower']],
    ['/menu/%69ndica', '/menu/indica', ['menu/indica', 'menu/%69ndica']],
    ['/50%-off', '/50%-off', ['50%-off']],
    ['/caf%C3%A9%/x', '/café%/x', ['café%/x', 'caf%C3%A9%/x']],
    ['/', '/', ['']],
  ])('%s → %s', (raw, path, keys) => {
    expect(normalizeUrlPath(raw)).toEqual({ path, keys });
  });

  it('drops the store-code prefix of the store only', () => {
    expect(normalizeUrlPath('/eastside/menu', 'eastside').keys).toEqual(['menu']);
    expect(normalizeUrlPath('/downtown/menu', 'eastside').keys).toEqual(['downtown/menu']);
  });
});
