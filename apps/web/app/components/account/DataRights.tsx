import { useId, useState, type FormEvent } from 'react';
import { accountApi } from '../../api/account.ts';
import { notify } from '../../state/notifications.ts';
import { useAuthApi } from '../../state/use-auth.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { useRootData } from '../../lib/root-data.ts';
import { Block, FormError, errorMessage, primaryButton, secondaryButton } from './ui.tsx';

/** Years a store keeps its sales records when its setting is not known (the server's SALES_RECORD_RETENTION_YEARS). */
const DEFAULT_RETENTION_YEARS = 7;
const CONFIRM_WORD = 'DELETE';

/**
 * The shopper's data rights (issue 31; docs/operators/privacy.md): download everything the store
 * holds about them (one zip), and delete the account after a dialog that says what goes and what
 * the store must keep, confirmed by typing DELETE.
 */
export function DataRights() {
  const auth = useAuthApi();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      const { blob, filename } = await auth.getState().authorized((token) => accountApi.dataExport(token));
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setDownloadError(null);
    } catch (e) {
      setDownloadError(errorMessage(e));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Block id="your-data" title="Your data">
      <p className="text-stone-700">Download everything this store holds about you: your details, addresses, orders, messages, points, reviews and documents, as one ZIP file (JSON and CSV).</p>
      <FormError message={downloadError} />
      <div className="mt-4 flex flex-wrap gap-3">
        <button type="button" className={secondaryButton} onClick={() => void download()} disabled={downloading}>
          {downloading ? 'Preparing your data…' : 'Download my data'}
        </button>
        <button type="button" aria-haspopup="dialog" className="inline-flex min-h-11 items-center rounded-full border border-red-700 px-5 font-semibold text-red-800 hover:bg-red-50" onClick={() => setOpen(true)}>
          Delete my account
        </button>
      </div>
      <DeleteDialog open={open} onClose={() => setOpen(false)} />
    </Block>
  );
}

function DeleteDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const auth = useAuthApi();
  // The store's own period (setting `data-retention`, issue 31); the delete answer says it too.
  const retentionYears = useRootData().store.salesRecordYears ?? DEFAULT_RETENTION_YEARS;
  const titleId = useId();
  const inputId = useId();
  const hintId = useId();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim().toUpperCase() !== CONFIRM_WORD) {
      setError(`Type ${CONFIRM_WORD} to confirm.`);
      document.getElementById(inputId)?.focus();
      return;
    }
    setBusy(true);
    try {
      await auth.getState().authorized((token) => accountApi.deleteAccount(token));
      onClose();
      await auth.getState().logout({ silent: true });
      notify({ type: 'success', message: 'Your account was deleted.' });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} labelledBy={titleId} className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-3xl bg-white p-6 text-stone-900 shadow-2xl">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id={titleId} className="font-display text-2xl font-bold">
          Delete your account?
        </h2>
        <div className="mt-3 space-y-3 text-stone-700">
          <p>
            <strong>Deleted now:</strong> your name, phone, e-mail, birthday, addresses, ID and medical card images, reward points, reviews, newsletter and back-in-stock alerts,
            and the messages we sent you. You are logged out everywhere.
          </p>
          <p>
            <strong>Kept for {retentionYears} years:</strong> the store must keep its sales records (what was bought, when, prices and taxes). Your orders stay in them without
            your name, phone, e-mail or street address.
          </p>
          <p>Orders that are not finished yet must be collected, delivered or cancelled first. This cannot be undone.</p>
        </div>
        <label htmlFor={inputId} className="mt-4 block font-medium">
          Type {CONFIRM_WORD} to confirm
        </label>
        <p id={hintId} className="text-sm text-stone-600">
          Capital letters or not, it does not matter.
        </p>
        <input
          id={inputId}
          data-autofocus
          autoComplete="off"
          aria-describedby={hintId}
          aria-invalid={error ? true : undefined}
          className="mt-1 block min-h-11 w-full rounded-lg border border-stone-400 px-3"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <FormError message={error} />
        <div className="mt-5 flex flex-wrap gap-3">
          <button type="submit" className={`${primaryButton} !bg-red-700 hover:!bg-red-800`} disabled={busy}>
            {busy ? 'Deleting…' : 'Delete my account'}
          </button>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Keep my account
          </button>
        </div>
      </form>
    </Dialog>
  );
}
