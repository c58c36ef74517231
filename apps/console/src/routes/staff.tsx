import { firstNameRule } from '@verdant/domain';
import { useRef, useState, type FormEvent } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText } from '../lib/api.ts';
import { can, useSession } from '../lib/session.tsx';
import { useResource } from '../lib/use-resource.ts';
import type { CreateStaffRequest, PatchStaffRequest, ResendInviteAnswer, Role, StaffView } from '../lib/types.ts';
import { TopBar, useTitle } from './layout.tsx';

const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', manager: 'Manager', budtender: 'Budtender', driver: 'Driver' };

export function StaffPage() {
  useTitle('Staff');
  const { staff: me, stores } = useSession();
  const members = useResource(can(me, 'staff:manage') ? 'staff' : null, () => api<StaffView[]>('GET', '/staff'));
  const [editing, setEditing] = useState<StaffView | 'new' | null>(null);
  // What the last invitation, resend or save did (announced; a failed resend is an alert instead).
  const [notice, setNotice] = useState('');
  const [resendError, setResendError] = useState<string | null>(null);
  const [resending, setResending] = useState<number | null>(null);
  const storeName = (id: number) => stores.find((s) => s.id === id)?.name ?? `Store ${id}`;

  return (
    <>
      <TopBar />
      <main id="main" className="mx-auto max-w-6xl p-4">
        <PageTitle
          actions={
            can(me, 'staff:manage') && (
              <button type="button" className="btn" onClick={() => setEditing('new')}>
                Add a staff member
              </button>
            )
          }
        >
          Staff
        </PageTitle>
        <p role="status" className={notice ? 'mb-3 rounded border border-green-300 bg-green-50 px-3 py-2 text-green-950' : ''}>
          {notice}
        </p>
        <ErrorNote>{resendError}</ErrorNote>
        {!can(me, 'staff:manage') ? (
          <p>Only owners and managers manage staff.</p>
        ) : (
          <>
            <ErrorNote>{members.error}</ErrorNote>
            {!members.data ? (
              <Loading />
            ) : (
              // relative: the table's visually hidden texts stay inside the scroll box (not widening the page).
              <div className="relative overflow-x-auto" role="region" aria-label="Staff members, scrollable" tabIndex={0}>
                <table className="data-table" aria-label="Staff members">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">E-mail</th>
                      <th scope="col">Role</th>
                      <th scope="col">Stores</th>
                      <th scope="col">Sign-in</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {members.data.map((m) => (
                      <tr key={m.id}>
                        <td>{m.name}</td>
                        <td>{m.email}</td>
                        <td>{ROLE_LABELS[m.role]}</td>
                        <td>{m.role === 'owner' ? 'All stores' : m.storeIds.map(storeName).join(', ') || '—'}</td>
                        <td>
                          {m.disabled ? (
                            <Badge tone="red">Disabled</Badge>
                          ) : m.invitePending ? (
                            <Badge tone="amber">Invited</Badge>
                          ) : (
                            <Badge tone="green">Active</Badge>
                          )}{' '}
                          {m.totpEnabled && <Badge>Two-step</Badge>}
                        </td>
                        <td>
                          <div className="flex flex-wrap gap-1">
                            <button type="button" className="btn-ghost" onClick={() => setEditing(m)} aria-label={`Edit ${m.name}`}>
                              Edit
                            </button>
                            {m.invitePending && !m.disabled && (
                              <button
                                type="button"
                                className="btn-ghost"
                                disabled={resending === m.id}
                                aria-label={`Resend invite to ${m.name}`}
                                onClick={() => void resend(m)}
                              >
                                {resending === m.id ? 'Sending…' : 'Resend invite'}
                              </button>
                            )}
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
        <MemberDialog
          member={editing}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            setResendError(null);
            setNotice(text);
            void members.reload();
          }}
        />
      </main>
    </>
  );

  async function resend(m: StaffView) {
    setResending(m.id);
    setNotice('');
    setResendError(null);
    try {
      const answer = await api<ResendInviteAnswer>('POST', `/staff/${m.id}/resend-invite`);
      setNotice(answer.message);
    } catch (err) {
      setResendError(errorText(err));
    } finally {
      setResending(null);
    }
  }
}

function MemberDialog({
  member,
  onClose,
  onSaved,
}: {
  member: StaffView | 'new' | null;
  onClose: () => void;
  /** With what to announce: the invitation sent, or the member added or saved. */
  onSaved: (notice: string) => void;
}) {
  const { staff: me, stores } = useSession();
  const isNew = member === 'new';
  const current = member && member !== 'new' ? member : null;
  const [form, setForm] = useState({
    email: '',
    name: '',
    role: 'budtender' as Role,
    storeIds: [] as number[],
    password: '',
    disabled: false,
  });
  const [error, setError] = useState<string | null>(null);
  // The name's rule (the shoppers': at least 2 letters) shows once the field was left or the form sent.
  const [nameChecked, setNameChecked] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const [loadedFor, setLoadedFor] = useState<StaffView | 'new' | null>(null);
  if (member !== loadedFor) {
    setLoadedFor(member);
    setError(null);
    setNameChecked(false);
    setForm(
      current
        ? {
            email: current.email,
            name: current.name,
            role: current.role,
            storeIds: current.storeIds,
            password: '',
            disabled: !!current.disabled,
          }
        : { email: '', name: '', role: 'budtender', storeIds: stores.length === 1 ? [stores[0].id] : [], password: '', disabled: false },
    );
  }
  // Managers may not make owners (the server refuses it too).
  const roles: Role[] = me?.role === 'owner' ? ['owner', 'manager', 'budtender', 'driver'] : ['manager', 'budtender', 'driver'];

  // An unchanged name is not judged again (a member named before the rule can still be edited).
  const nameChanged = isNew || form.name !== current?.name;
  const nameProblem = nameChanged ? firstNameRule(form.name) : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (nameProblem) {
      setNameChecked(true);
      nameInput.current?.focus();
      return;
    }
    try {
      let notice: string;
      if (isNew) {
        const made = await api<StaffView>('POST', '/staff', {
          email: form.email,
          name: form.name,
          role: form.role,
          storeIds: form.storeIds,
          ...(form.password ? { password: form.password } : {}),
        } satisfies CreateStaffRequest);
        notice = made.invitePending
          ? `Invitation sent to ${made.email}: the link to set a password works for 7 days.`
          : `${made.name} was added and can sign in with the password you gave.`;
      } else if (current) {
        await api('PATCH', `/staff/${current.id}`, {
          ...(nameChanged ? { name: form.name } : {}),
          role: form.role,
          storeIds: form.storeIds,
          disabled: form.disabled,
        } satisfies PatchStaffRequest);
        notice = `${form.name.trim() || current.name}: changes saved.`;
      } else return;
      onSaved(notice);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <Dialog title={isNew ? 'Add a staff member' : `Edit ${current?.name ?? ''}`} open={member !== null} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4">
        <ErrorNote>{error}</ErrorNote>
        {isNew && (
          <div>
            <label htmlFor="member-email">E-mail</label>
            <input
              id="member-email"
              className="field"
              type="email"
              required
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
            />
          </div>
        )}
        <div>
          <label htmlFor="member-name">Name</label>
          <input
            id="member-name"
            ref={nameInput}
            className="field"
            required
            autoComplete="off"
            value={form.name}
            aria-invalid={nameChecked && !!nameProblem}
            aria-describedby={nameChecked && nameProblem ? 'member-name-error' : undefined}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            onBlur={() => setNameChecked(true)}
          />
          {nameChecked && nameProblem && (
            <p id="member-name-error" className="mt-1 text-sm text-red-800">
              {nameProblem}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="member-role">Role</label>
          <select id="member-role" className="field" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        {form.role !== 'owner' && (
          <fieldset>
            <legend className="font-semibold">Stores</legend>
            {stores.map((s) => (
              <label key={s.id} className="flex items-center gap-2 font-normal">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={form.storeIds.includes(s.id)}
                  onChange={(e) =>
                    setForm({ ...form, storeIds: e.target.checked ? [...form.storeIds, s.id] : form.storeIds.filter((id) => id !== s.id) })
                  }
                />
                {s.name}
              </label>
            ))}
          </fieldset>
        )}
        {isNew ? (
          <div>
            <label htmlFor="member-password">First password (optional)</label>
            <p id="member-password-help" className="text-sm text-stone-700">
              Left empty, the member sets one from the reset link.
            </p>
            <input
              id="member-password"
              className="field"
              type="password"
              autoComplete="new-password"
              aria-describedby="member-password-help"
              value={form.password}
              onChange={(e) => setForm({ ...form, password: e.target.value })}
            />
          </div>
        ) : (
          <label className="flex items-center gap-2 font-normal">
            <input
              type="checkbox"
              className="size-5"
              checked={form.disabled}
              onChange={(e) => setForm({ ...form, disabled: e.target.checked })}
            />
            Disabled (cannot sign in)
          </label>
        )}
        <button type="submit" className="btn">
          {isNew ? 'Add the member' : 'Save'}
        </button>
      </form>
    </Dialog>
  );
}
