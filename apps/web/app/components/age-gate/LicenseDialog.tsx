import { useFetcher, useLocation } from 'react-router';
import { AGE_GATE_FIELD, AGE_GATE_PATH, LICENSE_DIALOG_TITLE, LICENSE_SWITCH_ID as ID, type AgeGateActionData } from '../../lib/age-gate.ts';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { LicenseChoice } from './LicenseChoice.tsx';

/**
 * The licence change dialog, loaded the first time the header's "Change" button opens it
 * (./LicenseSwitcher.tsx, which owns the fetcher's outcome: it closes this and announces the change).
 * Focus goes to the checked licence, and back to the button on close.
 */
export function LicenseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { store, shopper } = useRootData();
  const storePath = useStorePath();
  const location = useLocation();
  const fetcher = useFetcher<AgeGateActionData>({ key: ID });
  const saved = fetcher.data?.result;
  const errors = saved && !saved.ok && 'errors' in saved ? saved.errors : undefined;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy={`${ID}-title`}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-3xl bg-white p-0 text-stone-900 shadow-2xl"
    >
      <fetcher.Form method="post" action={storePath(AGE_GATE_PATH)} className="px-6 pt-6 pb-6">
        <h2 id={`${ID}-title`} className="font-display text-2xl font-bold">
          {LICENSE_DIALOG_TITLE}
        </h2>
        <p className="mt-1 mb-5 text-sm text-stone-700">Prices, deals and product lists follow your choice.</p>
        <input type="hidden" name={AGE_GATE_FIELD.intent} value="license" />
        <input type="hidden" name={AGE_GATE_FIELD.js} value="1" />
        <input type="hidden" name={AGE_GATE_FIELD.redirectTo} value={`${location.pathname}${location.search}`} />
        <LicenseChoice
          key={shopper.licenseType}
          idPrefix={ID}
          licenseTypes={store.licenseTypes}
          defaultValue={shopper.licenseType}
          error={errors?.licenseType}
          autoFocusChecked
        />
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onClose}
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
    </Dialog>
  );
}
