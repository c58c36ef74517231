import type { ReactNode } from 'react';

/** The common frame of a content page: a heading block and the body, at a readable width. */
export function PageShell({
  title,
  eyebrow,
  lead,
  children,
  wide = false,
}: {
  title: string;
  eyebrow?: string;
  lead?: ReactNode;
  children?: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`mx-auto px-4 py-10 sm:px-6 sm:py-14 ${wide ? 'max-w-7xl' : 'max-w-3xl'}`}>
      {eyebrow ? <p className="text-sm font-semibold tracking-wide text-brand-ink uppercase">{eyebrow}</p> : null}
      <h1 className="mt-1 font-display text-4xl font-bold tracking-tight text-stone-900">{title}</h1>
      {lead ? <div className="mt-4 text-lg text-stone-700">{lead}</div> : null}
      {children ? <div className="mt-8">{children}</div> : null}
    </div>
  );
}

/** CMS content is plain paragraphs separated by blank lines; it is never rendered as HTML. */
export function CmsContent({ content }: { content: string }) {
  const paragraphs = content
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className="space-y-4 text-base leading-relaxed text-stone-800">
      {paragraphs.map((p, i) => (
        <p key={i} className="whitespace-pre-line">
          {p}
        </p>
      ))}
    </div>
  );
}
