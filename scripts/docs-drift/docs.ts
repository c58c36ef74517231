/**
 * The documentation the drift tests read: the README, every page under docs/ and bench/SCALE.md,
 * with helpers to walk their code and links. Paths are relative to the repository root.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(rel);
    return e.name.endsWith('.md') ? [rel] : [];
  });
}

/** Every documentation file, relative to the root. */
export const DOC_FILES: string[] = ['README.md', 'bench/SCALE.md', ...markdownUnder('docs')];

export const readDoc = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** The text of fenced code blocks, line by line, and of inline code spans: where commands are written. */
export function codeOf(markdown: string): string[] {
  const out: string[] = [];
  const prose = markdown.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_, body: string) => {
    out.push(...body.split('\n').filter((l) => l.trim() !== ''));
    return '';
  });
  for (const m of prose.matchAll(/`([^`\n]+)`/g)) out.push(m[1]);
  return out;
}

/** The markdown without code (fenced blocks and inline spans), for links. */
export const proseOf = (markdown: string): string =>
  markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** Table rows (`| … |` lines) of a markdown text. */
export const tableRows = (markdown: string): string[] => markdown.split('\n').filter((l) => /^\|.*\|\s*$/.test(l));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
