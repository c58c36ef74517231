import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { MESSAGES } from '@verdant/domain';
import { AGE_GATE_FIELD, AGE_GATE_PATH, outcomeFromSearch, withoutOutcome, type AgeGateActionData } from '../../lib/age-gate.ts';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { AgeGateCard } from './AgeGateCard.tsx';
import { AgeGateFields } from './AgeGateFields.tsx';
import { AgeGateRefused } from './AgeGateRefused.tsx';

const ID = 'age-gate';

/**
 * The age gate over the page on a first visit (spec §1; research §6). It is server-rendered as an
 * open <dialog> over an inert page, so it shows without JavaScript and without a flash; once the
 * app hydrates it becomes a true modal (showModal: focus trapped, page inert, Escape ignored).
 * The form posts to the age-gate action: natively without JS (redirect back), through a fetcher
 * with JS (the page revalidates in place, so lists re-filter by the chosen licence).
 */
export function AgeGateDialog() {
  const { store, shopper } = useRootData();
  const storePath = useStorePath();
  const location = useLocation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<AgeGateActionData>({ key: 'age-gate' });
  const dialogRef = useRef<HTMLDialogElement>(null);
  const refusedRef = useRef<HTMLDivElement>(null);
  const [clientError, setClientError] = useState<string | undefined>();
  // An answer posted before this code ran comes back as a marker in the address (lib/age-gate.ts).
  const fromUrl = outcomeFromSearch(location.search);
  const refusedInUrl = fromUrl.refused;
  const [refused, setRefused] = useState(refusedInUrl);
  const [certified, setCertified] = useState(false);

  // Promote the server-rendered open dialog to a modal one, and keep it up until the shopper enters.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusedInside = previous && dialog.contains(previous) ? previous : null;
    const makeModal = () => {
      if (dialog.open && dialog.matches(':modal')) return;
      if (dialog.open) dialog.close();
      dialog.showModal();
      (focusedInside ?? dialog.querySelector<HTMLElement>('input:not([type=hidden]), button'))?.focus();
    };
    makeModal();
    const onCancel = (event: Event) => event.preventDefault();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') event.preventDefault();
    };
    // Browsers may still close a modal on repeated Escape (close watchers); reopen it.
    const onClose = () => {
      if (dialog.isConnected && !dialog.open) makeModal();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('keydown', onKeyDown);
    dialog.addEventListener('close', onClose);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('keydown', onKeyDown);
      dialog.removeEventListener('close', onClose);
      // Give focus back: to where it was before the gate, or to the page's main content — without
      // scrolling, so the store's first view starts at its header (focusing <main> scrolled it away).
      queueMicrotask(() => {
        if (dialog.isConnected) return;
        const target =
          previous && previous.isConnected && previous !== document.body && !dialog.contains(previous)
            ? previous
            : document.getElementById('main-content');
        target?.focus({ preventScroll: true });
      });
    };
  }, []);

  useEffect(() => {
    if (refused) refusedRef.current?.focus();
  }, [refused]);

  const result = fetcher.data?.result;
  const serverErrors = result && !result.ok && 'errors' in result ? result.errors : undefined;
  const certifyError = certified ? undefined : (clientError ?? serverErrors?.certify ?? fromUrl.errors.certify);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === 'refuse') {
      event.preventDefault();
      setRefused(true);
      return;
    }
    const checkbox = event.currentTarget.elements.namedItem(AGE_GATE_FIELD.certify) as HTMLInputElement | null;
    if (checkbox && !checkbox.checked) {
      event.preventDefault();
      setClientError(MESSAGES.ageGateMustCertify);
      checkbox.focus();
    }
  };

  return (
    <dialog
      ref={dialogRef}
      open
      data-age-gate=""
      aria-modal="true"
      aria-labelledby={`${ID}-title`}
      aria-describedby={`${ID}-description`}
      className="fixed inset-0 z-50 m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-stone-950/80 p-0 backdrop-blur-sm backdrop:bg-transparent"
    >
      <div className="flex min-h-full items-center justify-center px-4 py-8">
        <AgeGateCard store={store} titleId={`${ID}-title`} descriptionId={`${ID}-description`} headingLevel={2}>
          {refused ? (
            <AgeGateRefused
              ref={refusedRef}
              id={`${ID}-refused`}
              // A refusal from the address goes back by a link (works before and without JavaScript).
              {...(refusedInUrl
                ? {
                    backHref: `${location.pathname}${withoutOutcome(location.search)}`,
                  }
                : { onBack: () => setRefused(false) })}
            />
          ) : (
            <fetcher.Form method="post" action={storePath(AGE_GATE_PATH)} noValidate onSubmit={onSubmit}>
              <AgeGateFields
                idPrefix={ID}
                licenseTypes={store.licenseTypes}
                defaultLicenseType={shopper.licenseType}
                redirectTo={`${location.pathname}${withoutOutcome(location.search)}`}
                certifyError={certifyError}
                licenseError={serverErrors?.licenseType ?? fromUrl.errors.licenseType}
                js={hydrated}
                pending={fetcher.state !== 'idle'}
                onCertifyChange={(checked) => {
                  setCertified(checked);
                  if (checked) setClientError(undefined);
                }}
              />
            </fetcher.Form>
          )}
        </AgeGateCard>
      </div>
    </dialog>
  );
}
