import { forwardRef } from 'react';
import { MESSAGES } from '@verdant/domain';

export const GO_BACK_LABEL = 'Go back';

interface Props {
  id: string;
  onBack?: () => void;
  backHref?: string;
}

/** "I am under 21": the spec's refusal, and the store stays locked (nothing is stored). */
export const AgeGateRefused = forwardRef<HTMLDivElement, Props>(function AgeGateRefused({ id, onBack, backHref }, ref) {
  const backClass =
    'mt-5 inline-flex min-h-11 items-center rounded-full border border-stone-300 px-6 font-medium text-stone-800 hover:bg-stone-100';
  return (
    <div>
      <div
        ref={ref}
        id={id}
        role="alert"
        tabIndex={-1}
        className="rounded-xl border border-red-200 bg-red-50 px-4 py-4 font-semibold text-red-800"
      >
        {MESSAGES.ageGateRefused}
      </div>
      {onBack ? (
        <button type="button" onClick={onBack} className={backClass}>
          {GO_BACK_LABEL}
        </button>
      ) : backHref ? (
        <a href={backHref} className={backClass}>
          {GO_BACK_LABEL}
        </a>
      ) : null}
    </div>
  );
});
