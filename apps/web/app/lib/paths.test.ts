import { describe, expect, it } from 'vitest';
import { categoryPath, humanizeSlug, isStorePrefixValid, productPath, safeRedirectPath, withBasePath } from './paths.ts';

describe('withBasePath', () => {
  it('leaves paths alone without a base', () => {
    expect(withBasePath('', '/')).toBe('/');
    expect(withBasePath('', '/menu')).toBe('/menu');
    expect(withBasePath('', 'menu')).toBe('/menu');
  });

  it('prefixes the store code, with the home page as the bare base', () => {
    expect(withBasePath('/eastside', '/')).toBe('/eastside');
    expect(withBasePath('/eastside', '/menu/flower')).toBe('/eastside/menu/flower');
    expect(withBasePath('/eastside/', '/terms')).toBe('/eastside/terms');
    expect(withBasePath('/eastside', '/#deals')).toBe('/eastside#deals');
    expect(withBasePath('/eastside', '/?q=1')).toBe('/eastside?q=1');
  });
});

describe('productPath and categoryPath', () => {
  it('builds /p/{parentSku}/{slug} with an optional child sku', () => {
    expect(productPath('SKU-1', 'blue-dream')).toBe('/p/SKU-1/blue-dream');
    expect(productPath('SKU-1', 'blue-dream', 'SKU-1-92')).toBe('/p/SKU-1/blue-dream/SKU-1-92');
    expect(productPath('SKU-1', 'blue-dream', 'SKU-1')).toBe('/p/SKU-1/blue-dream');
    expect(productPath('A/B', 'x y')).toBe('/p/A%2FB/x%20y');
  });

  it('builds /menu and /menu/{slug}', () => {
    expect(categoryPath()).toBe('/menu');
    expect(categoryPath('flower')).toBe('/menu/flower');
  });
});

describe('isStorePrefixValid', () => {
  it('accepts unprefixed routes and the resolved prefix only', () => {
    expect(isStorePrefixValid(undefined, '')).toBe(true);
    expect(isStorePrefixValid(undefined, '/eastside')).toBe(true);
    expect(isStorePrefixValid('eastside', '/eastside')).toBe(true);
    expect(isStorePrefixValid('EastSide', '/eastside')).toBe(true);
    expect(isStorePrefixValid('eastside', '')).toBe(false);
    expect(isStorePrefixValid('downtown', '/eastside')).toBe(false);
    expect(isStorePrefixValid('', '')).toBe(false);
  });
});

describe('safeRedirectPath', () => {
  it('keeps same-origin relative paths with query and hash', () => {
    expect(safeRedirectPath('/menu?x=1#top')).toBe('/menu?x=1#top');
    expect(safeRedirectPath('/eastside')).toBe('/eastside');
  });

  it('rejects anything that could leave the site', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'menu',
      '',
      '/%0d%0aSet-Cookie:x',
      '/\nfoo',
      null,
      undefined,
      42,
    ]) {
      const out = safeRedirectPath(bad, '/home');
      expect(out === '/home' || (out.startsWith('/') && !out.startsWith('//')), String(bad)).toBe(true);
      expect(out).not.toMatch(/^\/\/|^[a-z]+:/i);
    }
    expect(safeRedirectPath('//evil.example', '/fallback')).toBe('/fallback');
    expect(safeRedirectPath('https://evil.example/', '/fallback')).toBe('/fallback');
    expect(safeRedirectPath('/\tfoo', '/fallback')).toBe('/fallback');
  });

  it('normalises dot segments without escaping the origin', () => {
    expect(safeRedirectPath('/a/../../b')).toBe('/b');
  });
});

describe('humanizeSlug', () => {
  it('turns slugs into titles', () => {
    expect(humanizeSlug('blue-dream')).toBe('Blue Dream');
    expect(humanizeSlug('og_kush--pre-roll')).toBe('Og Kush Pre Roll');
    expect(humanizeSlug('%E0%A4%A')).toBe('%E0%A4%A');
  });
});
