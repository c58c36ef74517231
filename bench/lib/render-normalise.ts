/**
 * React Router writes the loader data into the page as a turbo-stream: one flat JSON array where
 * objects and arrays hold the indices of their members, and a value seen before is written as the
 * index of its first copy. The root's `renderedAt` and the product page's `now` are two instants;
 * when they fall in the same millisecond, `renderedAt` becomes a reference to `now`'s copy and every
 * later index moves down by one — a different page for the same code, which normaliseHtml (instants
 * → TIME) cannot see through. This writes such a page as it is when the instants differ: the
 * instant again, right after the `renderedAt` key, every later index one up.
 */
export function undoInstantDedupe(html: string): string {
  const start = html.indexOf('window.__reactRouterContext.streamController.enqueue(');
  if (start < 0) return html;
  const open = start + 'window.__reactRouterContext.streamController.enqueue('.length;
  const close = html.indexOf(');</script>', open);
  if (close < 0) return html;
  const text = JSON.parse(html.slice(open, close)) as string;
  const newline = text.indexOf('\n');
  const line = newline < 0 ? text : text.slice(0, newline);
  const rest = newline < 0 ? '' : text.slice(newline);
  const flat = JSON.parse(line) as unknown[];
  const key = flat.indexOf('renderedAt');
  if (key < 0) return html;
  const ref = `_${key}`;
  const owner = flat.find((v): v is Record<string, number> => !!v && typeof v === 'object' && !Array.isArray(v) && ref in v);
  if (!owner) return html;
  const target = owner[ref];
  // Not deduplicated: the instant has its own entry right after the key.
  if (target === key + 1 || typeof flat[target] !== 'string') return html;
  const shift = (i: number) => (i >= key + 1 ? i + 1 : i);
  const shifted = flat.map((v) => {
    if (Array.isArray(v)) return typeof v[0] === 'string' ? v : v.map((i) => (typeof i === 'number' ? shift(i) : i));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, i]) => [`_${shift(Number(k.slice(1)))}`, typeof i === 'number' ? shift(i) : i]));
    }
    return v;
  });
  (shifted.find((v) => v && typeof v === 'object' && !Array.isArray(v) && ref in v) as Record<string, number>)[ref] = key + 1;
  shifted.splice(key + 1, 0, flat[target]);
  const escaped = JSON.stringify(JSON.stringify(shifted) + rest).replace(
    /[&><\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return html.slice(0, open) + escaped + html.slice(close);
}
