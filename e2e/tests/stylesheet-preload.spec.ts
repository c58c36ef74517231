/**
 * Issue 15 (Lighthouse): a page's one stylesheet blocks its first paint, and in the head it comes
 * after React's image preloads and React Router's ~17 module preloads, so on a slow connection it
 * queued behind them; the browser also holds back the head's image preloads (the category page's
 * largest paint is its first card's image). Every page answer now names the stylesheet, and the
 * images its head preloads, in `Link` preload headers — rendered or from the output cache — and
 * the browser fetches the stylesheet once, before anything else.
 */
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

const STYLE = /^<(\/assets\/app-[\w-]+\.css)>; rel=preload; as=style$/;
const IMAGE = /^<([^>]+)>; rel=preload; as=image(; fetchpriority=high)?$/;

test('every page answer preloads its stylesheet and its head’s images in its headers, also from the output cache', async ({
  page,
  context,
}) => {
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
    const [style, ...images] = (a.link ?? '').split(', ');
    const href = STYLE.exec(style)?.[1];
    expect(href, `${a.path}: ${a.link}`).toBeTruthy();
    // The one the head's <link rel="stylesheet"> names.
    const inHead = [...a.html.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1]);
    expect(inHead, a.path).toEqual([href]);
    // The images: those React preloads in the head, in its order; high priority where the head says
    // so and for the first two catalogue images (the first row of cards on a phone).
    const head = a.html.slice(0, a.html.indexOf('</head>'));
    let catalogue = 0;
    const preloaded = [...head.matchAll(/<link rel="preload" as="image" href="([^"]+)"( fetchPriority="high")?\/>/g)].map((m) => {
      const href = m[1].replaceAll('&amp;', '&');
      const high = !!m[2] || (href.startsWith('/img/') && ++catalogue <= 2);
      return `${href}${high ? ' high' : ''}`;
    });
    const inHeader = images.map((l) => {
      const m = IMAGE.exec(l);
      expect(m, `${a.path}: ${l}`).toBeTruthy();
      return `${m![1]}${m![2] ? ' high' : ''}`;
    });
    expect(inHeader, a.path).toEqual(preloaded.slice(0, 5));
  }
  // The product page's main image keeps its high priority; the category page's first card image is asked for first.
  expect(answers[3].link).toMatch(/<\/img\/600\/744\/catalog\/product\/FL-BLUE-DREAM\.svg>; rel=preload; as=image; fetchpriority=high/);
  expect(answers[2].link).toMatch(/<\/img\/310\/300\/catalog\/product\/[\w-]+\.svg>; rel=preload; as=image; fetchpriority=high/);
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
  expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
  const css = requested.filter((p) => p.endsWith('.css'));
  expect(css).toHaveLength(1);
  const first = requested.findIndex((p) => p.startsWith('/assets/') || p.startsWith('/img/') || p.startsWith('/brand/'));
  expect(requested[first]).toBe(css[0]);
  // Each preloaded image is asked for once (the header's preload and the head's are one request).
  const images = requested.filter((p) => p.startsWith('/img/'));
  expect(new Set(images).size).toBe(images.length);
  expect(warnings.filter((w) => /preload/i.test(w))).toEqual([]);
});
