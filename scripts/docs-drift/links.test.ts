/**
 * Links between the documentation files resolve: every relative link of the README, docs/ and
 * bench/SCALE.md names a file or folder that exists, and every #anchor a heading of its page; every
 * repository path written in code (`apps/…`, `docs/…`, …) exists, build output aside.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf, DOC_FILES, headingAnchors, proseOf, readDoc, ROOT } from './docs.ts';

/** Every `[text](target)` of the prose, with where it points. */
function linksOf(file: string): { target: string; file: string; anchor: string }[] {
  const out = [];
  for (const m of proseOf(readDoc(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [rel, anchor = ''] = target.split('#');
    const resolved = rel === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), rel));
    out.push({ target, file: resolved, anchor });
  }
  return out;
}

describe('links between the docs', () => {
  it('reads the README, docs/ and bench/SCALE.md', () => {
    expect(DOC_FILES).toContain('README.md');
    expect(DOC_FILES).toContain('docs/README.md');
    expect(DOC_FILES.length).toBeGreaterThan(15);
  });

  it.each(DOC_FILES)('%s: every relative link resolves, anchors included', (file) => {
    const broken: string[] = [];
    for (const link of linksOf(file)) {
      if (link.file.startsWith('../') || !existsSync(path.join(ROOT, link.file))) {
        broken.push(`${link.target} (no ${link.file})`);
        continue;
      }
      if (link.anchor && link.file.endsWith('.md') && !headingAnchors(readDoc(link.file)).has(link.anchor))
        broken.push(`${link.target} (no heading #${link.anchor} in ${link.file})`);
    }
    expect(broken).toEqual([]);
  });

  it.each(DOC_FILES)('%s: every repository path written in code exists', (file) => {
    const missing = new Set<string>();
    for (const code of codeOf(readDoc(file)))
      for (const m of code.matchAll(/(?<![\w./-])((?:apps|packages|bench|e2e|scripts|examples|docs)\/[A-Za-z0-9_./-]*[A-Za-z0-9_/])/g)) {
        const p = m[1];
        if (/(^|\/)(dist|dist-[a-z]+|build)(\/|$)/.test(p) || p.startsWith('bench/results/')) continue; // build output
        if (!existsSync(path.join(ROOT, p))) missing.add(p);
      }
    expect([...missing]).toEqual([]);
  });

  it('finds GitHub anchors as GitHub writes them', () => {
    const anchors = headingAnchors('# The 4/20 run\n## Tax lines (`tax`)\n## Offline catalogue at 40,000\n## A\n## A\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['the-420-run', 'tax-lines-tax', 'offline-catalogue-at-40000', 'a', 'a-1']);
  });
});
