/**
 * Issue 15 (Lighthouse, slow phones): what a page needs before it can paint goes in the answer's
 * `Link` header, so the browser asks for it with the headers, before the parser reaches the head.
 *
 * - The stylesheet: the page's only render-blocking resource. In the head it comes after React's
 *   image preloads and React Router's ~17 module preloads, and queued behind them.
 * - The images React preloads in the head (the first cards' images, a product's main image, the
 *   store's logo): above the fold, the category page's largest paint is its first card's image.
 *   A `fetchPriority="high"` preload keeps its priority, and the first two catalogue images get it:
 *   the browser holds low-priority image requests back until the page is laid out, from the header
 *   too (measured: the category page's first card image was asked for at 279 ms of a 20 ms page
 *   load, at 41 ms with the high priority; Lighthouse's LCP load delay 1.2 s → 0).
 *
 * The head is not changed (same HTML). Only a page rendered to the end in one turn gets the images
 * (render-sink.ts hands its bytes over before the Response exists); a streaming page gets the
 * stylesheet only.
 */

/** React writes its image preloads as `<link rel="preload" as="image" href="…"/>`, attributes in this order. */
const IMAGE_PRELOAD = /<link rel="preload" as="image" href="([^"]+)"( fetchPriority="high")?\/>/g;
/** Enough for the logo and the first row of cards; more would compete with the stylesheet. */
const MAX_IMAGES = 5;
const HEAD_END = Buffer.from('</head>');
/**
 * The first catalogue images (a phone's first row of cards) are asked for at high priority: a
 * low-priority preload is held back like the image itself until the page is laid out, and the
 * category page's largest paint is its first card's image.
 */
const HIGH_CATALOGUE_IMAGES = 2;

export function stylesheetLink(href: string): string {
  return `<${href}>; rel=preload; as=style`;
}

/** The `Link` values for the images the page's head preloads, in its order. */
export function imagePreloadLinks(page: Buffer): string[] {
  const end = page.indexOf(HEAD_END);
  if (end < 0) return [];
  const head = page.toString('utf8', 0, end);
  const links: string[] = [];
  let catalogueImages = 0;
  for (const match of head.matchAll(IMAGE_PRELOAD)) {
    const href = decodeAttribute(match[1]);
    // A header value cannot carry what an attribute could (quotes, brackets, controls, spaces).
    if (!/^\/[\x21-\x7e]*$/.test(href) || /[<>"]/.test(href)) continue;
    const high = match[2] !== undefined || (href.startsWith('/img/') && (catalogueImages += 1) <= HIGH_CATALOGUE_IMAGES);
    links.push(`<${href}>; rel=preload; as=image${high ? '; fetchpriority=high' : ''}`);
    if (links.length === MAX_IMAGES) break;
  }
  return links;
}

/** React escapes `&` `<` `>` `"` `'` in attribute values. */
function decodeAttribute(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
}
