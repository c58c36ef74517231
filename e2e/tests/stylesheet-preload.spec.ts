/**
 * Issue 15 (Lighthouse): a page's one stylesheet blocks its first paint, and in the head it comes
 * after React's image preloads and React Router's ~17 module preloads, so on a slow connection it
 * queued behind them. Every page answer now names it in a `Link: <…>; rel=preload; as=style`
 * header, rendered or from the output cache, and the browser fetches it once, first.
 */
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

const PRELOAD = /^<(\/assets\/app-[\w-]+\.css)>; rel=preload; as=style$/;

test('every page answer preloads its stylesheet in its headers, also from the output cache', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', '/'));
  const answers = await page.evaluate(async () => {
    const out = [];
    for (const path of ['/', '/', '/menu/flower', '/p/FL-BLUE-DREAM/blue-dream', '/menu?q=blue']) {
      const res = await fetch(path, { cache: 'no-store' });
      out.push({ path, cache: res.headers.get('x-output-cache'), link: res.headers.get('link'), html: await res.text() });
    }
    return out;
  });
  expect(answers[1].cache).toBe('HIT');
  for (const a of answers) {
    const href = PRELOAD.exec(a.link ?? '')?.[1];
    expect(href, `${a.path}: ${a.link}`).toBeTruthy();
    // The one the head's <link rel="stylesheet"> names.
    const inHead = [...a.html.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1]);
    expect(inHead, a.path).toEqual([href]);
  }
});

test('the browser asks for the stylesheet once, before the module and image preloads', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  const requested: string[] = [];
  const warnings: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
  });
  await page.goto(storeUrl('downtown', '/menu/flower'));
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1);
  // Painted with it: the stylesheet applies (a card is laid out as a card, not as bare text).
  expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
  const css = requested.filter((p) => p.endsWith('.css'));
  expect(css).toHaveLength(1);
  const first = requested.findIndex((p) => p.startsWith('/assets/') || p.startsWith('/img/'));
  expect(requested[first]).toBe(css[0]);
  expect(warnings.filter((w) => /preload/i.test(w))).toEqual([]);
});
