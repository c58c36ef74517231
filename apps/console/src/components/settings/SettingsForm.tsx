/**
 * The parts every store settings page shares (issue 14), around lib/use-settings-section.ts: the
 * loading state, the form (read-only for members who may not save), the list of problems, a
 * field's own problems (tied to it by aria-describedby, see `fieldProps`), the Save button and the
 * section's history (when, who, what changed).
 */
import type { ReactNode } from 'react';
import type { FieldProblem, SettingsSectionForm } from '../../lib/use-settings-section.ts';
import { dateTime } from '../../lib/format.ts';
import { ErrorNote, Loading } from '../ui.tsx';

// The hook's form, whatever its value and draft types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = SettingsSectionForm<any, any>;

/** Loading, or the read's error; null once the section and its draft are there. */
export function SettingsLoading({ form }: { form: AnyForm }) {
  if (form.current && form.draft !== null) return null;
  return form.loadError ? <ErrorNote>{form.loadError}</ErrorNote> : <Loading />;
}

export function SettingsForm({
  form,
  label,
  problemsTitle,
  className,
  noValidate,
  children,
}: {
  form: AnyForm;
  /** The form's accessible name. */
  label: string;
  /** Heads the list of problems: "The zones were not saved:". */
  problemsTitle: string;
  className?: string;
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {!form.canEdit && (
        <p className="mb-4 max-w-3xl rounded border border-stone-300 bg-stone-50 px-3 py-2 text-stone-800">
          You can read these settings; only the store’s managers can change them.
        </p>
      )}
      <form onSubmit={form.onSubmit} className={className} aria-label={label} noValidate={noValidate}>
        <ErrorNote>{form.error}</ErrorNote>
        <div role="status">{form.saved}</div>
        <ProblemList title={problemsTitle} problems={form.problems.filter((p) => !p.quiet)} />
        {/* `contents`: the fieldset only disables; the form's own layout places the fields. */}
        <fieldset disabled={!form.canEdit} className="contents">
          {children}
        </fieldset>
      </form>
    </>
  );
}

function ProblemList({ title, problems }: { title: string; problems: FieldProblem[] }) {
  return (
    <div role="alert">
      {problems.length > 0 && (
        <div className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          <p className="font-semibold">{title}</p>
          <ul className="list-disc pl-5">
            {problems.map((p, i) => (
              <li key={`${p.field}:${i}`}>{p.where ? `${p.where}: ${p.message}` : p.message}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** A field's problems, under it; the field names this element in its aria-describedby (`form.fieldProps`). */
export function FieldProblems({ form, field, className }: { form: AnyForm; field: string; className?: string }) {
  const mine = form.problemsOf(field);
  if (mine.length === 0) return null;
  return (
    <p id={`${field}-problem`} className={className ?? 'text-sm text-red-800'}>
      {mine.map((p) => p.message).join(' ')}
    </p>
  );
}

/** The submit button; none for a member who may not save. */
export function SaveButton({ form, children = 'Save' }: { form: AnyForm; children?: ReactNode }) {
  if (!form.canEdit) return null;
  return (
    <div>
      <button type="submit" className="btn" disabled={form.busy}>
        {form.busy ? 'Saving…' : children}
      </button>
    </div>
  );
}

const MAX_CHANGES = 6;

const shown = (v: unknown): string => {
  if (v === undefined) return '(none)';
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/** What a save changed, one `path: before → after` per leaf that differs (arrays by position). */
export function changesBetween(before: unknown, after: unknown, path: string[] = []): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  if (isObject(before) && isObject(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => changesBetween(before[k], after[k], [...path, k]));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [`${path.join('.') || 'value'}: ${shown(before)} → ${shown(after)}`];
}

/** The section's latest saves, newest first: when (the store's time), who, what changed. */
export function SettingsHistory({ form, title = 'History of changes' }: { form: AnyForm; title?: string }) {
  if (!form.canEdit) return null;
  const entries = form.history.data;
  return (
    // A scroll container on a phone: focusable (tabIndex) so the keyboard can scroll it, named by its title (axe scrollable-region-focusable).
    <section className="card mt-6 max-w-4xl overflow-x-auto" aria-label={title} tabIndex={0}>
      <h2 className="mb-2 text-lg font-semibold">{title}</h2>
      {form.history.error ? (
        <ErrorNote>{form.history.error}</ErrorNote>
      ) : !entries ? (
        <Loading />
      ) : entries.length === 0 ? (
        <p className="text-stone-700">No changes saved in the console yet.</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What changed</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => {
              const changes = changesBetween(e.before, e.after);
              return (
                <tr key={e.id}>
                  <td className="whitespace-nowrap">{dateTime(e.at, form.store.timezone)}</td>
                  <td>{e.actor.type === 'cli' ? `${e.actor.name} (command line)` : e.actor.name}</td>
                  <td>
                    {changes.length === 0 ? (
                      'Saved unchanged'
                    ) : (
                      <ul className="font-mono text-sm">
                        {changes.slice(0, MAX_CHANGES).map((c) => (
                          <li key={c}>{c}</li>
                        ))}
                        {changes.length > MAX_CHANGES && <li>and {changes.length - MAX_CHANGES} more</li>}
                      </ul>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
