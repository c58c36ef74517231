/**
 * The menu page's panels: the file import (check the file → a report of what would change and
 * every problem as row, column, value, reason → apply exactly that file) and the history.
 * The upload sends the file's bytes; applying sends the same bytes with the preview's hash, which
 * the server compares, so what is applied is what the report showed (menu-admin/routes.ts).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorNote, Loading } from '../components/ui.tsx';
import { api, ApiFailure, errorText, query } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import type { MenuHistoryPage, MenuImportAnswer as ImportAnswer, MenuImportQuery, PlannedVariantView as PlannedVariant, SessionAnswer } from '../lib/types.ts';

/** POST the raw file (the console's api() sends JSON only); the CSRF token comes from the session answer. */
async function upload(storeId: number, file: File, params: MenuImportQuery): Promise<ImportAnswer> {
  const { csrfToken } = await api<SessionAnswer>('GET', '/session');
  const response = await fetch(`/api/console/stores/${storeId}/menu/import${query(params)}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/octet-stream', 'x-csrf-token': csrfToken },
    body: await file.arrayBuffer(),
    credentials: 'same-origin',
  }).catch(() => {
    throw new ApiFailure(0, 'The server could not be reached. Check the connection and try again.');
  });
  const envelope = (await response.json().catch(() => null)) as { result: unknown; errorCode?: string } | null;
  if (!response.ok || !envelope)
    throw new ApiFailure(
      response.status,
      envelope && typeof envelope.result === 'string' ? envelope.result : `The server answered ${response.status}.`,
      envelope?.errorCode,
    );
  return envelope.result as ImportAnswer;
}

export function MenuImport({ storeId, storeCode, onApplied }: { storeId: number; storeCode: string; onApplied: (text: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [full, setFull] = useState(false);
  // The file looks like another store's (its content): the operator says it is this store's (issue 26).
  const [confirmStore, setConfirmStore] = useState(false);
  const [askConfirm, setAskConfirm] = useState(false);
  const [report, setReport] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'apply' | null>(null);
  const [status, setStatus] = useState('');
  const reportRef = useRef<HTMLHeadingElement>(null);
  const format = file && /\.json$/i.test(file.name) ? 'json' : 'csv';

  useEffect(() => {
    if (report) reportRef.current?.focus();
  }, [report]);

  async function check(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setError('Choose a menu file (CSV or JSON) first.');
      return;
    }
    setBusy('check');
    setError(null);
    setReport(null);
    try {
      const answer = await upload(storeId, file, { format, full: full ? 'yes' : 'no', confirmStore: confirmStore ? 'yes' : 'no' });
      setReport(answer);
      if (answer.problems.some((p) => p.code === 'looks_like_another_store')) setAskConfirm(true);
      setStatus(
        answer.outcome === 'problems'
          ? `The file has ${answer.counts.problems} ${answer.counts.problems === 1 ? 'problem' : 'problems'}; nothing was changed.`
          : `Checked: ${summary(answer)}. Nothing is changed until you apply it.`,
      );
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  }

  async function apply() {
    if (!file || !report) return;
    setBusy('apply');
    setError(null);
    try {
      const answer = await upload(storeId, file, {
        format,
        full: full ? 'yes' : 'no',
        confirmStore: confirmStore ? 'yes' : 'no',
        apply: report.fileHash,
      });
      const text =
        answer.outcome === 'applied'
          ? `Menu updated: ${summary(answer)}.`
          : answer.outcome === 'unchanged'
            ? 'The menu already matches this file: nothing changed.'
            : `The file could not be applied: ${answer.counts.problems} ${answer.counts.problems === 1 ? 'problem' : 'problems'}; nothing was changed.`;
      // Said once: a done import by the menu page's notice (it stays above the list), a refusal here.
      setStatus(answer.outcome === 'applied' || answer.outcome === 'unchanged' ? '' : text);
      setReport(answer);
      if (answer.outcome === 'applied' || answer.outcome === 'unchanged') onApplied(text);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  }

  const changes = report ? report.counts.created + report.counts.updated + report.counts.removed : 0;
  return (
    <section aria-labelledby="import-title" className="card mb-4 grid gap-3">
      <h2 id="import-title" className="text-lg font-semibold">
        Import a menu file
      </h2>
      <p className="text-stone-700">
        A CSV or JSON file in the menu file format (the export is an example). It is checked first; nothing changes until you apply it.
      </p>
      <form onSubmit={check} className="grid gap-3">
        <div>
          <label htmlFor="import-file">Menu file</label>
          <input
            id="import-file"
            type="file"
            accept=".csv,.json,text/csv,application/json"
            className="field"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setReport(null);
              setStatus('');
              // A new file is judged afresh: the insisting was about the other one.
              setConfirmStore(false);
              setAskConfirm(false);
            }}
          />
        </div>
        <label className="flex items-center gap-2 font-normal">
          <input type="checkbox" className="size-5" checked={full} onChange={(e) => (setFull(e.target.checked), setReport(null))} />
          This file is the whole menu: take items that are not in it off the menu
        </label>
        {askConfirm && (
          // Offered once the check says the file looks like another store's; ticking it and checking again
          // previews the file as this store's (the server skips only that check).
          <label className="flex items-center gap-2 font-normal">
            <input
              type="checkbox"
              className="size-5"
              checked={confirmStore}
              onChange={(e) => (setConfirmStore(e.target.checked), setReport(null))}
            />
            This is {storeCode}'s menu: check it again and apply it although it looks like another store's
          </label>
        )}
        <div>
          <button type="submit" className="btn" disabled={busy !== null}>
            {busy === 'check' ? 'Checking…' : 'Check the file'}
          </button>
        </div>
      </form>
      <ErrorNote>{error}</ErrorNote>
      <p role="status" aria-live="polite" data-testid="import-status">
        {status}
      </p>
      {report && (
        <div className="grid gap-3">
          <h3 ref={reportRef} tabIndex={-1} className="font-semibold">
            {report.outcome === 'problems'
              ? 'Problems in the file'
              : report.outcome === 'planned'
                ? 'What this file would change'
                : report.outcome === 'applied'
                  ? 'Applied'
                  : 'No change'}
          </h3>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-6" aria-label="Counts">
            <Count label="Rows" value={report.rows} />
            <Count label="New" value={report.counts.created} />
            <Count label="Updated" value={report.counts.updated} />
            <Count label="Unchanged" value={report.counts.unchanged} />
            <Count label="Taken off" value={report.counts.removed} />
            <Count label="Problems" value={report.counts.problems} />
          </dl>
          {report.problems.some((p) => p.row === 0) && (
            // Problems of the whole file (another store's menu, an unreadable file) block it before any row.
            <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900" data-testid="file-problems">
              <p className="font-semibold">This file cannot be applied:</p>
              <ul className="list-disc pl-5">
                {report.problems
                  .filter((p) => p.row === 0)
                  .map((p, i) => (
                    <li key={i}>{p.reason.charAt(0).toUpperCase() + p.reason.slice(1)}</li>
                  ))}
              </ul>
            </div>
          )}
          {report.problems.length > 0 && (
            // Focusable: a keyboard can scroll the table sideways on a phone.
            <div className="overflow-x-auto" role="region" aria-label="Problems in the file" tabIndex={0}>
              <table className="data-table" aria-label="Problems">
                <caption className="sr-only">Problems: row, item, column, value and reason</caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Item</th>
                    <th scope="col">Column</th>
                    <th scope="col">Value</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {report.problems.map((p, i) => (
                    <tr key={i}>
                      <td>{p.row || '—'}</td>
                      <td>{itemOf(p)}</td>
                      <td className="font-mono">{p.column || '—'}</td>
                      <td className="max-w-48 break-all font-mono">{p.value}</td>
                      <td>{p.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {report.counts.problems > report.problems.length && (
                <p>
                  The first {report.problems.length} of {report.counts.problems} problems are shown.
                </p>
              )}
            </div>
          )}
          {report.outcome === 'planned' && (
            <>
              <Planned title="New" items={report.created} total={report.counts.created} />
              <Planned title="Updated" items={report.updated} total={report.counts.updated} />
              <Planned title="Taken off the menu" items={report.removed} total={report.counts.removed} />
              {changes > 0 ? (
                <div>
                  <button type="button" className="btn" disabled={busy !== null} onClick={() => void apply()}>
                    {busy === 'apply' ? 'Applying…' : `Apply these ${changes} ${changes === 1 ? 'change' : 'changes'}`}
                  </button>
                </div>
              ) : (
                <p>The menu already matches this file.</p>
              )}
            </>
          )}
          {report.notifyError && <p>The menu was saved; the storefront may take a moment to show it.</p>}
        </div>
      )}
    </section>
  );
}

/** A problem's row as the file names it: `RX-OG-35 — OG Kush 3.5 g`, or a dash for the file as a whole. */
function itemOf(p: ImportAnswer['problems'][number]): string {
  if (p.sku && p.name) return `${p.sku} — ${p.name}`;
  return p.sku || p.name || '—';
}

function summary(r: ImportAnswer): string {
  return `${r.counts.created} new, ${r.counts.updated} updated, ${r.counts.unchanged} unchanged${r.counts.removed ? `, ${r.counts.removed} taken off the menu` : ''}`;
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt className="text-sm text-stone-700">{label}</dt>
      <dd className="text-lg font-semibold">{value}</dd>
    </div>
  );
}

function Planned({ title, items, total }: { title: string; items: PlannedVariant[]; total: number }) {
  if (total === 0) return null;
  const shown = items.slice(0, 50);
  return (
    <details>
      <summary className="cursor-pointer font-semibold">
        {title}: {total}
      </summary>
      <ul className="mt-2 grid gap-1">
        {shown.map((v) => (
          <li key={`${v.external_id}:${v.row}`}>
            {v.row ? `Row ${v.row}: ` : ''}
            {v.name} ({v.sku})
            {v.changes && (
              <span className="text-stone-700">
                {' '}
                — {v.changes.map((c) => `${c.column}: ${c.before || '(empty)'} → ${c.after || '(empty)'}`).join('; ')}
              </span>
            )}
          </li>
        ))}
      </ul>
      {total > shown.length && <p>…and {total - shown.length} more.</p>}
    </details>
  );
}

const SOURCES: Record<string, string> = { console: 'Console', import: 'File import', api: 'POS (API)' };

export function MenuHistory({
  storeId,
  timeZone,
  item,
  onClear,
}: {
  storeId: number;
  timeZone: string;
  /** The menu row whose history is shown (./menu.tsx), or none for the whole menu's. */
  item: { productId: number; name: string } | null;
  onClear: () => void;
}) {
  const [rows, setRows] = useState<MenuHistoryPage['items']>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const productId = item?.productId;

  async function load(before?: number) {
    setLoading(true);
    try {
      const page = await api<MenuHistoryPage>(
        'GET',
        `/stores/${storeId}/menu/history${query({ productId, before, limit: 25 })}`,
      );
      setRows((r) => (before ? [...r, ...page.items] : page.items));
      setNext(page.next);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setLoading(false);
    }
  }

  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storeId, productId]);

  return (
    <section aria-labelledby="history-title" className="card mb-4 grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="history-title" className="text-lg font-semibold">
          History{item ? ` of ${item.name}` : ''}
        </h2>
        {item && (
          <button type="button" className="btn-ghost" onClick={onClear}>
            Show the whole menu’s history
          </button>
        )}
      </div>
      <ErrorNote>{error}</ErrorNote>
      {rows.length === 0 && !loading ? (
        <p>No changes recorded yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="data-table" aria-label="Menu changes">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Item</th>
                <th scope="col">What</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
                <th scope="col">How</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{dateTime(r.at, timeZone)}</td>
                  <td>{r.actor.name}</td>
                  <td className="font-mono">{r.sku}</td>
                  <td>{r.field}</td>
                  <td className="break-all">{r.before ?? '—'}</td>
                  <td className="break-all">{r.after ?? '—'}</td>
                  <td>{SOURCES[r.source] ?? r.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loading && <Loading label="Loading the history…" />}
      {next !== null && !loading && (
        <div>
          <button type="button" className="btn-secondary" onClick={() => void load(next)}>
            Show older changes
          </button>
        </div>
      )}
    </section>
  );
}
