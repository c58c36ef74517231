/**
 * One store settings section in a console page (issue 14): what every settings page shares — read
 * the section (GET /stores/:id/settings/sections/:section), keep an editable draft of it, check the
 * draft with the page's own rules (the domain's zod schemas) and tie each problem to its field,
 * save over the version read (a save made meanwhile answers 409 `stale_settings` with the current
 * value, which replaces the draft: nothing is overwritten), announce the outcome, and read the
 * section's history (managers only: the history route needs settings:write, as saving does).
 *
 * Decisions where the issue is silent:
 *  - A member without settings:write (a budtender) reads the page with every field disabled and no
 *    Save button; the server refuses their save with 403 anyway.
 *  - Problems are shown after the first Save and then follow the draft as it is edited, so a fixed
 *    field stops being marked at once; the first problem's field gets the focus on Save.
 *  - A 409's current value comes with the refusal (meta.current): it is shown without another read.
 */
import { useCallback, useEffect, useRef, useState, type FocusEvent, type FormEvent } from 'react';
import { useStore } from '../routes/layout.tsx';
import { ApiFailure, api, errorText } from './api.ts';
import { can, useSession } from './session.tsx';
import { useResource } from './use-resource.ts';
import type { SectionAnswer, SectionSaveRequest, SettingsHistoryEntry } from './types.ts';

export type { SectionAnswer, SettingsHistoryEntry, SettingsSource } from './types.ts';

/** A problem of the draft: the id of the field it belongs to and what is wrong, in words. */
export interface FieldProblem {
  field: string;
  message: string;
  /** Where the field is, for the list of problems ("Line 2 › Rate"); the field itself shows the message alone. */
  where?: string;
  /** Shown at the field only, not in the list (the list has it already in other words, e.g. at a JSON editor). */
  quiet?: boolean;
}

export interface SettingsSectionOptions<T, D> {
  /** The section's name (server registry): `hours`, `zones`, `tax`, `limits`, `age`. */
  section: string;
  /** The editable draft of a value read or saved. */
  toDraft(value: T): D;
  /** The value to save from a draft that has no problems. */
  toValue(draft: D): T;
  /** The draft's problems (none: it may be saved). */
  validate?(draft: D): FieldProblem[];
  /** Announced after a save. */
  savedText: string;
  /** Shown when someone else saved meanwhile (409). */
  staleText: string;
  /**
   * Also show a field's own problems (at the field, not in the list) once the field was left, before
   * any Save: inline validation while typing a form of many fields (zones, limit buckets).
   */
  validateOnBlur?: boolean;
}

/** How many history entries a page shows. */
const HISTORY_LIMIT = 10;

export function useSettingsSection<T, D>(options: SettingsSectionOptions<T, D>) {
  const { store } = useStore();
  const { staff } = useSession();
  const canEdit = can(staff, 'settings:write');
  const path = `/stores/${store.id}/settings/sections/${options.section}`;
  const key = `${store.id}:${options.section}`;
  const section = useResource(key, () => api<SectionAnswer<T>>('GET', path));
  const history = useResource(canEdit ? key : null, () => api<SettingsHistoryEntry[]>('GET', `${path}/history?limit=${HISTORY_LIMIT}`));
  const [draft, setDraftState] = useState<D | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const opts = useRef(options);
  opts.current = options;

  useEffect(() => {
    if (section.data) setDraftState(opts.current.toDraft(section.data.value));
  }, [section.data]);

  /** Replace the draft, or change it with a function of the current one; an edit ends the "saved" notice. */
  const setDraft = useCallback((next: D | ((current: D) => D)) => {
    setSaved(null);
    setDraftState((current) => (typeof next === 'function' ? (next as (c: D) => D)(current as D) : next));
  }, []);

  const found: FieldProblem[] = (attempted || left.size > 0) && draft !== null ? (options.validate?.(draft) ?? []) : [];
  const problems: FieldProblem[] = attempted ? found : [];

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const current = section.data;
    if (!canEdit || !current || draft === null || busy) return;
    setSaved(null);
    setError(null);
    const found = opts.current.validate?.(draft) ?? [];
    setAttempted(true);
    if (found.length > 0) {
      document.getElementById(found[0].field)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await api<SectionAnswer<T>>('PUT', path, { value: opts.current.toValue(draft), version: current.version } satisfies SectionSaveRequest);
      setAttempted(false);
      section.setData(answer);
      setSaved(opts.current.savedText);
      void history.reload();
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 409) {
        setError(opts.current.staleText);
        const now = err.meta?.current as Omit<SectionAnswer<T>, 'section' | 'title'> | undefined;
        setAttempted(false);
        if (now && typeof now.version === 'number') section.setData({ ...current, ...now });
        else await section.reload();
        void history.reload();
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const problemsOf = (field: string) => (attempted || left.has(field) ? found.filter((p) => p.field === field) : []);
  /** A field was left (validateOnBlur): its problems show at it from now on. */
  const leave = (field: string) => {
    if (options.validateOnBlur && !left.has(field)) setLeft((l) => new Set([...l, field]));
  };

  return {
    store,
    canEdit,
    /** The section as read or last saved (null while loading). */
    current: section.data,
    loadError: section.error,
    draft,
    setDraft,
    problems,
    problemsOf,
    /** `aria-invalid` and `aria-describedby` of a field: its help texts and, when it has any, its problems. */
    fieldProps(field: string, ...helpIds: string[]) {
      const invalid = problemsOf(field).length > 0;
      const ids = [...helpIds, ...(invalid ? [`${field}-problem`] : [])];
      return {
        id: field,
        'aria-invalid': invalid || undefined,
        'aria-describedby': ids.length ? ids.join(' ') : undefined,
        // Marked when the focus moves on to another field, not to a button: a message appearing under
        // the field as a button is pressed would move the button away from under the pointer.
        ...(options.validateOnBlur
          ? {
              onBlur: (e: FocusEvent<HTMLElement>) => {
                if (e.relatedTarget instanceof HTMLElement && e.relatedTarget.matches('input, select, textarea')) leave(field);
              },
            }
          : {}),
      } as const;
    },
    error,
    saved,
    busy,
    onSubmit,
    history,
  };
}

export type SettingsSectionForm<T, D> = ReturnType<typeof useSettingsSection<T, D>>;
