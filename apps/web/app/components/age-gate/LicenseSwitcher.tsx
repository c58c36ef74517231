import { useEffect, useRef, useState } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { LICENSE_LABELS } from '@verdant/domain';
import { AGE_GATE_FIELD, AGE_GATE_PATH, type AgeGateActionData } from '../../lib/age-gate.ts';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { LicenseChoice } from './LicenseChoice.tsx';

const ID = 'license-switch';
export const CHANGE_LICENSE_LABEL = 'Change shopping type';
export const LICENSE_DIALOG_TITLE = 'Change shopping type';

/**
 * "Shopping: Recreational" in the header. Where the store offers both licence types, a button
 * reopens the licence choice (the same radio group as the age gate) in a dialog; without
 * JavaScript it is a link to the stand-alone licence page.
 */
export function LicenseSwitcher() {
  const { store, shopper } = useRootData();
  const storePath = useStorePath();
  const location = useLocation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<AgeGateActionData>({ key: ID });
  const dialogRef = useRef<HTMLDialogElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [announcement, setAnnouncement] = useState('');
  const current = LICENSE_LABELS[shopper.licenseType];
  const canChange = store.licenseTypes.length > 1;
  const here = `${location.pathname}${location.search}`;

  // Close once the change is saved and the page has revalidated.
  useEffect(() => {
    const result = fetcher.data?.result;
    if (fetcher.state !== 'idle' || !result?.ok) return;
    if (dialogRef.current?.open) {
      dialogRef.current.close();
      buttonRef.current?.focus();
    }
    setAnnouncement(`You are now shopping ${LICENSE_LABELS[result.licenseType].toLowerCase()}.`);
  }, [fetcher.state, fetcher.data]);

  const indicator = (
    <p className="text-right text-xs leading-tight text-stone-600 sm:text-sm">
      <span className="block sm:inline">Shopping:</span>{' '}
      <strong className="text-sm font-semibold text-stone-900">{current}</strong>
    </p>
  );
  if (!canChange) return indicator;

  const changeClass =
    'inline-flex min-h-11 items-center rounded-full border border-stone-300 px-3 text-sm font-medium text-stone-800 hover:bg-stone-100 sm:px-4';
  const changeLabel = (
    <>
      Change<span className="sr-only"> shopping type</span>
    </>
  );
  const saved = fetcher.data?.result;
  const errors = saved && !saved.ok && 'errors' in saved ? saved.errors : undefined;

  return (
    <div className="flex items-center gap-2 sm:gap-3">
      {indicator}
      {hydrated ? (
        <button
          ref={buttonRef}
          type="button"
          aria-haspopup="dialog"
          className={changeClass}
          onClick={() => dialogRef.current?.showModal()}
        >
          {changeLabel}
        </button>
      ) : (
        <a
          href={`${storePath(AGE_GATE_PATH)}?change=license&redirectTo=${encodeURIComponent(here)}`}
          className={changeClass}
        >
          {changeLabel}
        </a>
      )}
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {hydrated ? (
        <dialog
          ref={dialogRef}
          aria-labelledby={`${ID}-title`}
          className="m-auto w-[calc(100%-2rem)] max-w-md rounded-3xl bg-white p-0 text-stone-900 shadow-2xl"
        >
          <fetcher.Form method="post" action={storePath(AGE_GATE_PATH)} className="px-6 pt-6 pb-6">
            <h2 id={`${ID}-title`} className="font-display text-2xl font-bold">
              {LICENSE_DIALOG_TITLE}
            </h2>
            <p className="mt-1 mb-5 text-sm text-stone-700">Prices, deals and product lists follow your choice.</p>
            <input type="hidden" name={AGE_GATE_FIELD.intent} value="license" />
            <input type="hidden" name={AGE_GATE_FIELD.js} value="1" />
            <input type="hidden" name={AGE_GATE_FIELD.redirectTo} value={here} />
            <LicenseChoice
              key={shopper.licenseType}
              idPrefix={ID}
              licenseTypes={store.licenseTypes}
              defaultValue={shopper.licenseType}
              error={errors?.licenseType}
            />
            <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <button
                type="button"
                onClick={() => dialogRef.current?.close()}
                className="inline-flex min-h-11 items-center justify-center rounded-full border border-stone-300 px-6 font-medium text-stone-800 hover:bg-stone-100"
              >
                Cancel
              </button>
              <button
                type="submit"
                disabled={fetcher.state !== 'idle'}
                className="inline-flex min-h-11 items-center justify-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90 disabled:opacity-70"
              >
                Save
              </button>
            </div>
          </fetcher.Form>
        </dialog>
      ) : null}
    </div>
  );
}
