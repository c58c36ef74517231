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
