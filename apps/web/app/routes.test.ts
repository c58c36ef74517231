import { describe, expect, it } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routes from './routes.ts';

function flatten(entries: RouteConfigEntry[], parent = ''): { id: string; path: string; file: string }[] {
  return entries.flatMap((e) => {
    const path = e.index ? parent || '/' : [parent, e.path].filter(Boolean).join('/');
    const self = e.file.startsWith('layouts/') ? [] : [{ id: e.id!, path: path.startsWith('/') ? path : `/${path}`, file: e.file }];
    return [...self, ...flatten(e.children ?? [], path)];
  });
}

describe('route tree', () => {
  const all = flatten(routes as RouteConfigEntry[]);
  const ids = [...(routes as RouteConfigEntry[])].flatMap(function ids(e: RouteConfigEntry): string[] {
    return [e.id!, ...(e.children ?? []).flatMap(ids)];
  });

  it('gives every route a unique id', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has the routes of spec §2', () => {
    const paths = all.filter((r) => !r.id.endsWith('-prefixed')).map((r) => r.path);
    for (const p of ['/', '/pwa.html', '/checkout', '/terms', '/contact', '/my-account/orders/:orderId', '/compare', '/error', '/p/:parentSku/:slug/:childSku?', '/menu/:slug?', '/menu/*', '/c/:slug', '/i/:slug', '/create-password', '/*', '/age-gate']) {
      expect(paths).toContain(p);
    }
  });

  it('repeats every route behind the optional store-code prefix', () => {
    const plain = all.filter((r) => !r.id.endsWith('-prefixed'));
    const prefixed = new Map(all.filter((r) => r.id.endsWith('-prefixed')).map((r) => [r.id, r]));
    expect(prefixed.size).toBe(plain.length);
    for (const r of plain) {
      const twin = prefixed.get(`${r.id}-prefixed`);
      expect(twin?.file).toBe(r.file);
      expect(twin?.path).toBe(r.path === '/' ? '/:storeCode' : `/:storeCode${r.path}`);
    }
  });
});
