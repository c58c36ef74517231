import type { ReactNode } from 'react';
import type { PublicStore } from '../../lib/store-view.ts';

export const AGE_GATE_TITLE = 'Are you 21 or older?';

interface Props {
  store: PublicStore;
  titleId: string;
  descriptionId: string;
  /** h1 on the stand-alone page, h2 inside the dialog over a page. */
  headingLevel: 1 | 2;
  title?: string;
  description?: ReactNode;
  children: ReactNode;
}

/**
 * The visual frame of the age gate and the licence choice: the store's logo, a clear question
 * and the licence number. It is a full card in the middle of the screen, never a banner.
 */
export function AgeGateCard({ store, titleId, descriptionId, headingLevel, title = AGE_GATE_TITLE, description, children }: Props) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className="w-full max-w-lg overflow-hidden rounded-3xl bg-white text-stone-900 shadow-2xl">
      <div className="h-2 bg-brand" aria-hidden="true" />
      <div className="px-6 pt-7 pb-6 sm:px-8">
        <img src={store.logo} alt="" width={200} height={48} className="h-11 w-auto" />
        <Heading id={titleId} className="mt-6 font-display text-3xl font-bold tracking-tight">
          {title}
        </Heading>
        <p id={descriptionId} className="mt-2 text-stone-700">
          {description ?? (
            <>
              {store.name} sells cannabis to adults 21 and older. Please confirm your age to enter the store.
            </>
          )}
        </p>
        <div className="mt-6">{children}</div>
      </div>
      <p className="border-t border-stone-200 bg-stone-50 px-6 py-3 text-xs text-stone-600 sm:px-8">
        {store.name} · {store.placeInfo.address.city}, {store.placeInfo.address.region_code} · License{' '}
        {store.placeInfo.license_number}
      </p>
    </div>
  );
}
