/**
 * The store's API keys for the integration API (issue 13; server: apps/server/src/integration/).
 * Managers and owners create a key with its scopes (the key is shown once, with a copy button),
 * see when each was last used, and revoke one after confirming.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { CheckboxGroup } from '../components/forms.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import { useStore, useTitle } from './layout.tsx';
import type { ApiKeyCreated, ApiKeyCreateRequest, ApiKeyView, ApiScope } from '../lib/types.ts';

type Scope = ApiScope;
type ApiKey = ApiKeyView;

const SCOPES: { scope: Scope; label: string }[] = [
  { scope: 'menu:write', label: 'menu:write — update products, prices and stock' },
  { scope: 'orders:read', label: 'orders:read — read orders, manage webhooks' },
  { scope: 'orders:write', label: 'orders:write — move orders (confirm, ready, complete, cancel)' },
];

export function ApiKeysPage() {
  useTitle('API keys');
  const { store } = useStore();
  const keys = useResource(String(store.id), () => api<ApiKey[]>('GET', `/stores/${store.id}/api-keys`));
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  return (
    <>
      <PageTitle
        actions={
          <button type="button" className="btn" onClick={() => setCreating(true)}>
            Create an API key
          </button>
        }
      >
        API keys
      </PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Keys let your point-of-sale system update this store’s menu and stock and work its orders through the integration API (
        <code>/api/integration/v1</code>). Send a key as <code>Authorization: Bearer …</code>.
      </p>
      {shown && <ShownKey name={shown.name} secret={shown.key} onDone={() => setShown(null)} />}
      <div role="status" className="sr-only">
        {status}
      </div>
      <ErrorNote>{error ?? keys.error}</ErrorNote>
      {!keys.data ? (
        keys.loading && <Loading />
      ) : keys.data.length === 0 ? (
        <p>No API keys yet.</p>
      ) : (
        // On a phone the table scrolls sideways in its own box, which a keyboard can focus and scroll
        // (relative: its visually hidden texts stay inside the box instead of widening the page).
        <div className="relative overflow-x-auto" role="region" aria-label={`API keys of ${store.name}, scrollable`} tabIndex={0}>
          <table className="w-full min-w-[40rem] text-left">
            <caption className="sr-only">API keys of {store.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id} className="border-t border-stone-300">
                  <td className="py-2 pr-2 break-words">{k.name}</td>
                  <td className="whitespace-nowrap pr-2 font-mono">{k.hint}</td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>
                    {dateTime(k.created_at, store.timezone)} by {k.created_by}
                  </td>
                  <td>{k.last_used_at ? dateTime(k.last_used_at, store.timezone) : 'Never'}</td>
                  <td>
                    {k.revoked_at ? (
                      <Badge tone="red">Revoked</Badge>
                    ) : (
                      <button type="button" className="btn-danger" onClick={() => setRevoking(k)}>
                        Revoke<span className="sr-only"> {k.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CreateDialog
        open={creating}
        storeId={store.id}
        onClose={() => setCreating(false)}
        onCreated={(created) => {
          setCreating(false);
          setShown(created);
          setStatus(`API key ${created.name} created.`);
          void keys.reload();
        }}
      />
      <Dialog title={`Revoke the key ${revoking?.name ?? ''}?`} open={revoking !== null} onClose={() => setRevoking(null)}>
        <div className="grid gap-4">
          <p>A system using this key is refused from now on. This cannot be undone.</p>
          <div className="flex gap-2">
            {/* Focus starts on the safe choice. */}
            <button type="button" className="btn-secondary" data-autofocus onClick={() => setRevoking(null)}>
              Keep it
            </button>
            <button
              type="button"
              className="btn-danger"
              onClick={async () => {
                const key = revoking!;
                setError(null);
                try {
                  await api('POST', `/stores/${store.id}/api-keys/${key.id}/revoke`);
                  setStatus(`API key ${key.name} revoked.`);
                  await keys.reload();
                } catch (err) {
                  setError(errorText(err));
                }
                setRevoking(null);
              }}
            >
              Revoke the key
            </button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

function ShownKey({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const code = useRef<HTMLElement>(null);
  return (
    <div role="alert" className="card mb-4 border-amber-500 bg-amber-50">
      <h2 className="font-semibold">The key “{name}”</h2>
      <p>Copy it now: it is shown only once and cannot be shown again.</p>
      <code ref={code} className="mt-2 block break-all rounded bg-white p-2 font-mono" data-testid="api-key-secret">
        {secret}
      </code>
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          className="btn-secondary"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(secret);
              setCopied(true);
            } catch {
              // No clipboard (permissions, plain http): select the key so Ctrl+C copies it.
              const range = document.createRange();
              if (code.current) range.selectNodeContents(code.current);
              window.getSelection()?.removeAllRanges();
              window.getSelection()?.addRange(range);
            }
          }}
        >
          Copy the key
        </button>
        <button type="button" className="btn-ghost" onClick={onDone}>
          I copied it
        </button>
      </div>
      <p aria-live="polite" className="text-sm">
        {copied ? 'Copied to the clipboard.' : ''}
      </p>
    </div>
  );
}

function CreateDialog({
  open,
  storeId,
  onClose,
  onCreated,
}: {
  open: boolean;
  storeId: number;
  onClose: () => void;
  onCreated: (created: { name: string; key: string }) => void;
}) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['menu:write', 'orders:read']);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const created = await api<ApiKeyCreated>('POST', `/stores/${storeId}/api-keys`, { name, scopes } satisfies ApiKeyCreateRequest);
      setName('');
      onCreated({ name: created.name, key: created.key });
    } catch (err) {
      setError(errorText(err));
    }
  }
  return (
    <Dialog title="Create an API key" open={open} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4">
        <ErrorNote>{error}</ErrorNote>
        <div>
          <label htmlFor="api-key-name">Name (e.g. the POS it is for)</label>
          <input id="api-key-name" className="field" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <CheckboxGroup legend="Scopes" options={SCOPES.map(({ scope, label }) => ({ value: scope, label }))} value={scopes} onChange={setScopes} />
        <button type="submit" className="btn" disabled={scopes.length === 0}>
          Create the key
        </button>
      </form>
    </Dialog>
  );
}
