import { describe, expect, it } from 'vitest';
import { isRouteErrorResponse, type AppLoadContext } from 'react-router';
import type { UrlMapResult } from './context.ts';
import { resolveUnmatchedPath, stripBasePath } from './url-mapping.ts';

function context(result: UrlMapResult | Error, basePath = ''): AppLoadContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    basePath,
    store: { storeCode: 'downtown' },
    services: {
      mapUrl: async (_store: unknown, path: string) => {
        asked.push(path);
        if (result instanceof Error) throw result;
        return result;
      },
    },
  } as unknown as AppLoadContext & { asked: string[] };
}

async function outcome(url: string, ctx: AppLoadContext): Promise<Response | unknown> {
  try {
    await resolveUnmatchedPath(new URL(url), ctx);
  } catch (thrown) {
    return thrown;
  }
  throw new Error('resolveUnmatchedPath returned');
}

describe('stripBasePath', () => {
  it('removes the store prefix only', () => {
    expect(stripBasePath('/eastside/shop/x', '/eastside')).toBe('/shop/x');
    expect(stripBasePath('/Eastside', '/eastside')).toBe('/');
    expect(stripBasePath('/eastsider/x', '/eastside')).toBe('/eastsider/x');
    expect(stripBasePath('/shop/x', '')).toBe('/shop/x');
  });
});

describe('resolveUnmatchedPath', () => {
  it('answers 301 for a legacy redirect, keeping the query and the store prefix', async () => {
    const ctx = context({ type: 'product', sku: 'FL-BD', slug: 'blue-dream', childSku: 'FL-BD-8TH', path: '/p/FL-BD/blue-dream/FL-BD-8TH', redirect: true }, '/eastside');
    const res = (await outcome('http://x.test/eastside/shop/blue-dream-eighth?ref=1', ctx)) as Response;
    expect(ctx.asked).toEqual(['/shop/blue-dream-eighth']);
    expect(res.status).toBe(301);
    expect(res.headers.get('Location')).toBe('/eastside/p/FL-BD/blue-dream/FL-BD-8TH?ref=1');
    expect(res.headers.get('X-Remix-Replace')).toBe('true');
  });

  it('answers 302 for a path served under its route', async () => {
    const res = (await outcome('http://x.test/blue-dream', context({ type: 'category', urlPath: 'menu/flower', path: '/menu/flower', redirect: false }))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/menu/flower');
  });

  it('answers 404 when nothing maps, when the mapping fails, or when it maps to itself', async () => {
    for (const ctx of [
      context({ type: 'page-not-found' }),
      context(new Error('index down')),
      context({ type: 'cms_page', identifier: 'x', path: '/nowhere', redirect: false }),
    ]) {
      const thrown = await outcome('http://x.test/nowhere', ctx);
      expect(isRouteErrorResponse(thrown) ? thrown.status : (thrown as { init?: { status?: number } }).init?.status).toBe(404);
    }
  });
});
