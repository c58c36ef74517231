/**
 * Issue 10: every page carries a Content-Security-Policy whose script nonce is the one in the
 * page's inline scripts — a fresh one per answer, also when the page comes from the output
 * cache — and the page still hydrates and runs under it, with no CSP violation.
 */
import { expect, passGateByCookie, storeUrl, test } from '../fixtures/store.ts';

const nonceOfHeader = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? '')?.[1];

test('a page hydrates under its CSP, whose nonce is the one its inline scripts carry', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const response = await page.goto(storeUrl('downtown', '/menu/flower'));
  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  const nonce = nonceOfHeader(headers['content-security-policy']);
  expect(nonce).toBeTruthy();
  // The browser hides nonce attributes from the DOM; the property keeps the value.
  const scriptNonces = await page.evaluate(() => [...document.querySelectorAll('script:not([src]):not([type="application/ld+json"])')].map((s) => (s as HTMLScriptElement).nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  // Hydrated: a client-side navigation happens without a document load.
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  await page.locator('header a[href="/"]').first().click();
  await expect(page).toHaveURL(storeUrl('downtown', '/'));
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
  expect(violations).toEqual([]);
});

test('a cached page is stamped with each answer’s own nonce, the one of its header', async ({ page, context }) => {
  await passGateByCookie(context, 'downtown', 'recreational');
  await page.goto(storeUrl('downtown', '/'));
  // Same URL and cookies as the page: the second and third answers come from the output cache.
  const answers = await page.evaluate(async () => {
    const out = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch('/', { cache: 'no-store' });
      out.push({ cache: res.headers.get('x-output-cache'), csp: res.headers.get('content-security-policy'), html: await res.text() });
    }
    return out;
  });
  expect(answers.slice(1).map((a) => a.cache)).toEqual(['HIT', 'HIT']);
  const seen = new Set<string>();
  for (const a of answers) {
    const nonce = nonceOfHeader(a.csp)!;
    const inHtml = new Set([...a.html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]));
    expect(inHtml).toEqual(new Set([nonce]));
    seen.add(nonce);
  }
  expect(seen.size).toBe(3);
});
