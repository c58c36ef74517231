import { useEffect, useState } from 'react';
import { documentRule } from '@verdant/domain';
import type { UploadedDocument } from '../../api/user.ts';
import { accountApi } from '../../api/account.ts';
import { formatDate } from '@verdant/domain';
import { useRootData } from '../../lib/root-data.ts';
import { notify } from '../../state/notifications.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { documentStatusText } from '../../lib/document-status.ts';
import { FileField, FormError, errorMessage, secondaryButton } from './ui.tsx';

const KIND_LABELS = { id: 'Photo ID', medcard: 'Medical card' } as const;

/**
 * The customer's ID and medical card uploads (spec §3): what is on file, and a way to upload one
 * (PNG, JPEG or PDF, at most 10 MB). The files themselves are private; only their names show.
 */
export function Documents({ idPrefix }: { idPrefix: string }) {
  const { store } = useRootData();
  const auth = useAuthApi();
  const licenseType = useAuth((s) => s.user?.license_type);
  const user = useAuth((s) => s.user);
  const [docs, setDocs] = useState<UploadedDocument[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const kinds = licenseType === 'medical' ? (['id', 'medcard'] as const) : (['id'] as const);

  const reload = () =>
    auth
      .getState()
      .authorized((t) => accountApi.uploads(t))
      .then((d) => {
        setDocs(d);
        setLoadError(null);
      })
      .catch((e: unknown) => setLoadError(errorMessage(e)));
  // A new upload goes back to review: read the customer again for its status (quietly; the list says it is on file).
  const afterUpload = () => {
    void reload();
    void auth
      .getState()
      .refreshUser()
      .catch(() => null);
  };

  useEffect(() => {
    void reload();
    // Staff may have reviewed a document since the customer was read (a client-side visit reads nothing): read it again, quietly.
    void auth
      .getState()
      .refreshUser()
      .catch(() => null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [auth]);

  return (
    <div className="space-y-4">
      <FormError message={loadError} />
      <ul className="space-y-2">
        {kinds.map((kind) => {
          const latest = docs?.find((d) => d.kind === kind);
          const review =
            docs == null ? null : documentStatusText(kind, user?.[`${kind}_status`], user?.[`${kind}_review_reason`], latest != null);
          return (
            <li key={kind} className="flex flex-wrap items-baseline justify-between gap-2 rounded-xl bg-stone-50 px-4 py-3">
              <span className="font-medium text-stone-900">{KIND_LABELS[kind]}</span>
              <span className="text-sm text-stone-700">
                {docs == null
                  ? 'Checking…'
                  : latest
                    ? latest.deleted_at
                      ? `Checked, and the image deleted on ${formatDate(latest.deleted_at, store.placeInfo.timezone)}`
                      : `On file: ${latest.original_name ?? 'document'} (uploaded ${formatDate(latest.created_at, store.placeInfo.timezone)})`
                    : 'Not uploaded yet'}
              </span>
              {review ? (
                <span
                  data-testid={`document-status-${kind}`}
                  className={`w-full text-sm font-medium ${statusTone(user?.[`${kind}_status`])}`}
                >
                  {review}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {store.documentImagesNote ? (
        <ul className="space-y-1 text-sm text-stone-700" data-testid="document-retention">
          {kinds.map((kind) => (
            <li key={kind}>{store.documentImagesNote?.[kind]}</li>
          ))}
        </ul>
      ) : null}
      {kinds.map((kind) => (
        <UploadForm key={kind} id={`${idPrefix}-upload-${kind}`} kind={kind} onUploaded={afterUpload} />
      ))}
    </div>
  );
}

function statusTone(status: string | undefined): string {
  if (status === 'verified') return 'text-brand-ink';
  if (status === 'rejected') return 'text-red-800';
  return 'text-stone-800';
}

function UploadForm({ id, kind, onUploaded }: { id: string; kind: 'id' | 'medcard'; onUploaded(): void }) {
  const auth = useAuthApi();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(0);
  const upload = async () => {
    const problem = documentRule(kind, file ? { type: file.type, size: file.size, name: file.name } : null);
    setError(problem);
    setFailure(null);
    if (problem || !file) {
      document.getElementById(id)?.focus();
      return;
    }
    setBusy(true);
    try {
      await auth.getState().authorized((t) => accountApi.upload(t, kind, file, file.name));
      notify({ type: 'success', message: `${KIND_LABELS[kind]} uploaded.` });
      setFile(null);
      setKey((k) => k + 1);
      onUploaded();
    } catch (e) {
      setFailure(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1">
        <FileField key={key} id={id} label={`Upload ${KIND_LABELS[kind].toLowerCase()}`} onChange={setFile} error={error} />
      </div>
      <button type="button" disabled={busy} onClick={() => void upload()} className={secondaryButton}>
        Upload<span className="sr-only"> {KIND_LABELS[kind].toLowerCase()}</span>
      </button>
      {failure ? (
        <div className="w-full">
          <FormError message={failure} />
        </div>
      ) : null}
    </div>
  );
}
