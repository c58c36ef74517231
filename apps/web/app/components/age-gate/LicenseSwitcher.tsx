import { useEffect, useRef, useState } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { LICENSE_LABELS } from '@verdant/domain';
import { AGE_GATE_PATH, LICENSE_SWITCH_ID, type AgeGateActionData } from '../../lib/age-gate.ts';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { lazyPanel, usePanelLoad } from '../ui/LazyPanel.tsx';

const License = lazyPanel(() => import('./LicenseDialog.tsx').then((m) => m.LicenseDialog));

/**
 * "Shopping: Recreational" in the header. Where the store offers both licence types, a button
 * reopens the licence choice (the same radio group as the age gate) in a dialog
 * (./LicenseDialog.tsx, loaded when first opened); without JavaScript it is a link to the
 * stand-alone licence page.
 */
export function LicenseSwitcher() {
  const { store, shopper } = useRootData();
  const storePath = useStorePath();
  const location = useLocation();
  const hydrated = useHydrated();
  // The dialog's form posts through this same fetcher (same key).
  const fetcher = useFetcher<AgeGateActionData>({ key: LICENSE_SWITCH_ID });
  const [open, setOpen] = useState(false);
  const load = usePanelLoad(open);
  const [announcement, setAnnouncement] = useState('');
  const current = LICENSE_LABELS[shopper.licenseType];
  const canChange = store.licenseTypes.length > 1;
  const here = `${location.pathname}${location.search}`;

  // Close once the change is saved and the page has revalidated (focus goes back to the button).
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    const result = fetcher.data?.result;
    if (fetcher.state !== 'idle' || !result?.ok) return;
    if (openRef.current) setOpen(false);
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

  return (
    <div className="flex items-center gap-2 sm:gap-3">
      {indicator}
      {hydrated ? (
        <button
          type="button"
          aria-haspopup="dialog"
          className={changeClass}
          onClick={() => setOpen(true)}
          onPointerEnter={License.preload}
          onFocus={License.preload}
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
      {hydrated ? <License.Panel load={load} onLoadError={() => setOpen(false)} open={open} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}
