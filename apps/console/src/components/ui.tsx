import type { ReactNode } from 'react';

export function ErrorNote({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
      {children}
    </p>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p role="status" className="text-stone-600">
      {label}
    </p>
  );
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold">{children}</h1>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function Badge({ children, tone = 'stone' }: { children: ReactNode; tone?: 'stone' | 'amber' | 'green' | 'red' | 'blue' }) {
  const tones = {
    stone: 'bg-stone-200 text-stone-900',
    amber: 'bg-amber-100 text-amber-950',
    green: 'bg-green-100 text-green-950',
    red: 'bg-red-100 text-red-950',
    blue: 'bg-sky-100 text-sky-950',
  };
  return <span className={`inline-block rounded px-2 py-0.5 text-sm font-medium ${tones[tone]}`}>{children}</span>;
}

/**
 * A card of a record page (an order, a customer): a section named by its heading. The heading can
 * take the focus (a page moves it there after an action); `idPrefix` keeps each page's ids apart.
 */
export function RecordSection({ title, children, idPrefix, testId }: { title: string; children: ReactNode; idPrefix: string; testId?: string }) {
  const id = `${idPrefix}-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="card min-w-0" data-testid={testId}>
      <h2 id={id} tabIndex={-1} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Terms and values of a record in two columns (a missing value shows a dash). */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-stone-700">{term}</dt>
          <dd className="[overflow-wrap:anywhere]">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
