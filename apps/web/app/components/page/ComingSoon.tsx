import type { ReactNode } from 'react';
import { StoreLink } from '../store/StoreLink.tsx';
import { PageShell } from './PageShell.tsx';

interface Props {
  title: string;
  eyebrow?: string;
  /** "Product pages are coming", said plainly. */
  what: string;
  features: string[];
  children?: ReactNode;
}

/** A page that is routed and titled but not built yet: it says what will be there. */
export function ComingSoon({ title, eyebrow, what, features, children }: Props) {
  return (
    <PageShell title={title} eyebrow={eyebrow}>
      {children}
      <div className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
        <h2 className="text-lg font-semibold text-stone-900">{what}</h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-stone-700">
          {features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
        <p className="mt-6 flex flex-wrap gap-3">
          <StoreLink
            to="/"
            className="inline-flex min-h-11 items-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90"
          >
            Back to the home page
          </StoreLink>
          <StoreLink
            to="/contact"
            className="inline-flex min-h-11 items-center rounded-full border border-stone-300 px-6 font-medium text-stone-800 hover:bg-stone-100"
          >
            Visit or call the store
          </StoreLink>
        </p>
      </div>
    </PageShell>
  );
}
