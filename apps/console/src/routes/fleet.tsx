/**
 * Drivers and vehicles (issue 29 "Drivers, vehicles, trips"): the store's delivery fleet, each a page
 * of its own (`drivers`, `vehicles`) built from one list-and-dialog pattern. Managers and owners add,
 * edit, deactivate and delete; budtenders read (the server checks `delivery:manage` either way).
 *
 * - Deactivate keeps the record on old trips and stops offering it for new ones; delete is only for
 *   one never on a trip — the server answers 409 otherwise, and its sentence is shown as it is.
 * - A driver who logs in is linked to a staff member with the role Driver and this store: the
 *   dialog offers exactly those (GET /staff, which managers may read), not linked to another driver.
 * - The form is checked with the shared zod schemas (driverCreateBody, vehicleCreateBody) before it
 *   is sent, so the words match the server's; the server checks again.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { driverCreateBody, vehicleCreateBody } from '@verdant/domain/console-api';
import { Dialog } from '../components/Dialog.tsx';
import { Badge, ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { api, errorText } from '../lib/api.ts';
import { can, useSession } from '../lib/session.tsx';
import { useResource } from '../lib/use-resource.ts';
import type { DriverView, StaffView, VehicleView } from '../lib/types.ts';
import { useStore, useTitle } from './layout.tsx';

/** The first problem the schema finds, per field (`{ name: 'Name is required.' }`). */
function problemsOf(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = String(i.path[0] ?? '');
    if (!(key in out)) out[key] = i.message;
  }
  return out;
}

function Notice({ text }: { text: string }) {
  return (
    <p role="status" className={text ? 'mb-3 rounded border border-green-300 bg-green-50 px-3 py-2 text-green-950' : ''}>
      {text}
    </p>
  );
}

function TextField({
  id,
  label,
  value,
  onChange,
  problem,
  help,
  autoCapitalize,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  problem?: string;
  help?: string;
  autoCapitalize?: string;
}) {
  const described = [help ? `${id}-help` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {help && (
        <p id={`${id}-help`} className="text-sm text-stone-700">
          {help}
        </p>
      )}
      <input
        id={id}
        className="field"
        autoComplete="off"
        autoCapitalize={autoCapitalize}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && (
        <p id={`${id}-problem`} className="mt-1 text-sm text-red-800">
          {problem}
        </p>
      )}
    </div>
  );
}

/** Links between the three delivery pages. */
export function DeliveryNav({ storeId }: { storeId: number }) {
  return (
    <p className="mb-3 flex flex-wrap gap-x-4 gap-y-1">
      <Link to={`/stores/${storeId}/dispatch`} className="link">
        Dispatch board
      </Link>
      <Link to={`/stores/${storeId}/drivers`} className="link">
        Drivers
      </Link>
      <Link to={`/stores/${storeId}/vehicles`} className="link">
        Vehicles
      </Link>
    </p>
  );
}

// --- Drivers -------------------------------------------------------------------------------------

export function DriversPage() {
  useTitle('Drivers');
  const { store } = useStore();
  const { staff } = useSession();
  const manager = can(staff, 'settings:write');
  const base = `/stores/${store.id}/delivery/drivers`;
  const drivers = useResource(`${store.id}|drivers`, () => api<{ items: DriverView[] }>('GET', base));
  // Staff with the Driver role in this store, to link a driver's login (managers only read /staff).
  const members = useResource(manager ? 'staff' : null, () => api<StaffView[]>('GET', '/staff'));
  const driverStaff = (members.data ?? []).filter((m) => m.role === 'driver' && m.storeIds.includes(store.id));
  const [editing, setEditing] = useState<DriverView | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  async function act(d: DriverView, what: 'toggle' | 'delete') {
    setNotice('');
    setError(null);
    if (what === 'delete' && !window.confirm(`Delete ${d.name}? This cannot be undone.`)) return;
    setBusy(d.id);
    try {
      if (what === 'delete') {
        await api('DELETE', `${base}/${d.id}`);
        setNotice(`${d.name} was deleted.`);
      } else {
        await api('PATCH', `${base}/${d.id}`, { active: !d.active });
        setNotice(d.active ? `${d.name} is inactive: kept on old trips, not offered for new ones.` : `${d.name} is active again.`);
      }
      await drivers.reload();
    } catch (err) {
      setError(`${d.name}: ${errorText(err)}`);
    } finally {
      setBusy(null);
    }
  }

  const staffName = (id: number | null) => (id == null ? null : (members.data?.find((m) => m.id === id)?.name ?? `Staff member ${id}`));

  return (
    <>
      <PageTitle
        actions={
          manager && (
            <button type="button" className="btn" onClick={() => setEditing('new')}>
              Add a driver
            </button>
          )
        }
      >
        Drivers
      </PageTitle>
      <DeliveryNav storeId={store.id} />
      <p className="mb-3 max-w-3xl text-stone-700">
        The name, employee number and driver’s licence number go on every trip’s delivery ledger. A driver who left is set inactive: kept
        on old trips, not offered for new ones.
      </p>
      <Notice text={notice} />
      <ErrorNote>{error}</ErrorNote>
      <ErrorNote>{drivers.error}</ErrorNote>
      {!drivers.data ? (
        <Loading />
      ) : drivers.data.items.length === 0 ? (
        <p>No drivers yet.</p>
      ) : (
        <table className="data-table stack-table">
          <caption className="sr-only">Drivers</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Employee number</th>
              <th scope="col">Licence number</th>
              <th scope="col">Login</th>
              <th scope="col">Status</th>
              {manager && (
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {drivers.data.items.map((d) => (
              <tr key={d.id}>
                <td data-label="Name" className="font-semibold [overflow-wrap:anywhere]">
                  {d.name}
                </td>
                <td data-label="Employee number">{d.employee_number}</td>
                <td data-label="Licence number">{d.licence_number}</td>
                <td data-label="Login">{d.staff_id == null ? '—' : manager ? staffName(d.staff_id) : 'Linked'}</td>
                <td data-label="Status">{d.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}</td>
                {manager && (
                  <td>
                    <div className="flex flex-wrap gap-1">
                      <button type="button" className="btn-ghost" aria-label={`Edit ${d.name}`} onClick={() => setEditing(d)}>
                        Edit
                      </button>
                      <button type="button" className="btn-ghost" disabled={busy === d.id} aria-label={`${d.active ? 'Deactivate' : 'Reactivate'} ${d.name}`} onClick={() => void act(d, 'toggle')}>
                        {d.active ? 'Deactivate' : 'Reactivate'}
                      </button>
                      <button type="button" className="btn-ghost text-red-800" disabled={busy === d.id} aria-label={`Delete ${d.name}`} onClick={() => void act(d, 'delete')}>
                        Delete
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manager && (
        <DriverDialog
          driver={editing}
          base={base}
          choices={driverStaff.filter((m) => !drivers.data?.items.some((d) => d.staff_id === m.id && (editing === 'new' || d.id !== editing?.id)))}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            setError(null);
            setNotice(text);
            void drivers.reload();
          }}
        />
      )}
    </>
  );
}

function DriverDialog({
  driver,
  base,
  choices,
  onClose,
  onSaved,
}: {
  driver: DriverView | 'new' | null;
  base: string;
  choices: StaffView[];
  onClose: () => void;
  onSaved: (notice: string) => void;
}) {
  const current = driver && driver !== 'new' ? driver : null;
  const empty = { name: '', employee_number: '', licence_number: '', staff_id: '' };
  const [form, setForm] = useState(empty);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [loadedFor, setLoadedFor] = useState<DriverView | 'new' | null>(null);
  if (driver !== loadedFor) {
    setLoadedFor(driver);
    setProblems({});
    setError(null);
    setForm(current ? { name: current.name, employee_number: current.employee_number, licence_number: current.licence_number, staff_id: current.staff_id == null ? '' : String(current.staff_id) } : empty);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const body = { name: form.name, employee_number: form.employee_number, licence_number: form.licence_number, staff_id: form.staff_id ? Number(form.staff_id) : null };
    const checked = driverCreateBody.safeParse(body);
    if (!checked.success) {
      const found = problemsOf(checked.error.issues);
      setProblems(found);
      document.getElementById(`driver-${Object.keys(found)[0]?.replace(/_/g, '-')}`)?.focus();
      return;
    }
    setProblems({});
    try {
      if (current) await api('PATCH', `${base}/${current.id}`, body);
      else await api('POST', base, body);
      onSaved(current ? `${checked.data.name}: changes saved.` : `${checked.data.name} was added.`);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <Dialog title={current ? `Edit ${current.name}` : 'Add a driver'} open={driver !== null} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <ErrorNote>{error}</ErrorNote>
        <TextField id="driver-name" label="Name" value={form.name} problem={problems.name} onChange={(name) => setForm({ ...form, name })} />
        <TextField id="driver-employee-number" label="Employee number" value={form.employee_number} problem={problems.employee_number} onChange={(v) => setForm({ ...form, employee_number: v })} />
        <TextField id="driver-licence-number" label="Driver’s licence number" value={form.licence_number} problem={problems.licence_number} onChange={(v) => setForm({ ...form, licence_number: v })} />
        <div>
          <label htmlFor="driver-staff-id">Login (staff member with the Driver role)</label>
          <p id="driver-staff-id-help" className="text-sm text-stone-700">
            The driver then sees their own trips when signed in. Add the login on the Staff page first, with the role Driver and this store.
          </p>
          <select id="driver-staff-id" className="field" aria-describedby="driver-staff-id-help" value={form.staff_id} onChange={(e) => setForm({ ...form, staff_id: e.target.value })}>
            <option value="">No login</option>
            {choices.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.email})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn">
          {current ? 'Save' : 'Add the driver'}
        </button>
      </form>
    </Dialog>
  );
}

// --- Vehicles ------------------------------------------------------------------------------------

export function VehiclesPage() {
  useTitle('Vehicles');
  const { store } = useStore();
  const { staff } = useSession();
  const manager = can(staff, 'settings:write');
  const base = `/stores/${store.id}/delivery/vehicles`;
  const vehicles = useResource(`${store.id}|vehicles`, () => api<{ items: VehicleView[] }>('GET', base));
  const [editing, setEditing] = useState<VehicleView | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const label = (v: VehicleView) => `${v.make} ${v.model} ${v.plate}`;

  async function act(v: VehicleView, what: 'toggle' | 'delete') {
    setNotice('');
    setError(null);
    if (what === 'delete' && !window.confirm(`Delete ${label(v)}? This cannot be undone.`)) return;
    setBusy(v.id);
    try {
      if (what === 'delete') {
        await api('DELETE', `${base}/${v.id}`);
        setNotice(`${label(v)} was deleted.`);
      } else {
        await api('PATCH', `${base}/${v.id}`, { active: !v.active });
        setNotice(v.active ? `${label(v)} is inactive: kept on old trips, not offered for new ones.` : `${label(v)} is active again.`);
      }
      await vehicles.reload();
    } catch (err) {
      setError(`${label(v)}: ${errorText(err)}`);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <PageTitle
        actions={
          manager && (
            <button type="button" className="btn" onClick={() => setEditing('new')}>
              Add a vehicle
            </button>
          )
        }
      >
        Vehicles
      </PageTitle>
      <DeliveryNav storeId={store.id} />
      <p className="mb-3 max-w-3xl text-stone-700">Make, model and plate go on every trip’s delivery ledger. Plates are kept in capitals.</p>
      <Notice text={notice} />
      <ErrorNote>{error}</ErrorNote>
      <ErrorNote>{vehicles.error}</ErrorNote>
      {!vehicles.data ? (
        <Loading />
      ) : vehicles.data.items.length === 0 ? (
        <p>No vehicles yet.</p>
      ) : (
        <table className="data-table stack-table">
          <caption className="sr-only">Vehicles</caption>
          <thead>
            <tr>
              <th scope="col">Plate</th>
              <th scope="col">Make</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              {manager && (
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {vehicles.data.items.map((v) => (
              <tr key={v.id}>
                <td data-label="Plate" className="font-semibold">
                  {v.plate}
                </td>
                <td data-label="Make">{v.make}</td>
                <td data-label="Model">{v.model}</td>
                <td data-label="Status">{v.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}</td>
                {manager && (
                  <td>
                    <div className="flex flex-wrap gap-1">
                      <button type="button" className="btn-ghost" aria-label={`Edit ${label(v)}`} onClick={() => setEditing(v)}>
                        Edit
                      </button>
                      <button type="button" className="btn-ghost" disabled={busy === v.id} aria-label={`${v.active ? 'Deactivate' : 'Reactivate'} ${label(v)}`} onClick={() => void act(v, 'toggle')}>
                        {v.active ? 'Deactivate' : 'Reactivate'}
                      </button>
                      <button type="button" className="btn-ghost text-red-800" disabled={busy === v.id} aria-label={`Delete ${label(v)}`} onClick={() => void act(v, 'delete')}>
                        Delete
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manager && (
        <VehicleDialog
          vehicle={editing}
          base={base}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            setError(null);
            setNotice(text);
            void vehicles.reload();
          }}
        />
      )}
    </>
  );
}

function VehicleDialog({ vehicle, base, onClose, onSaved }: { vehicle: VehicleView | 'new' | null; base: string; onClose: () => void; onSaved: (notice: string) => void }) {
  const current = vehicle && vehicle !== 'new' ? vehicle : null;
  const empty = { make: '', model: '', plate: '' };
  const [form, setForm] = useState(empty);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [loadedFor, setLoadedFor] = useState<VehicleView | 'new' | null>(null);
  if (vehicle !== loadedFor) {
    setLoadedFor(vehicle);
    setProblems({});
    setError(null);
    setForm(current ? { make: current.make, model: current.model, plate: current.plate } : empty);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const checked = vehicleCreateBody.safeParse(form);
    if (!checked.success) {
      const found = problemsOf(checked.error.issues);
      setProblems(found);
      document.getElementById(`vehicle-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setProblems({});
    try {
      if (current) await api('PATCH', `${base}/${current.id}`, checked.data);
      else await api('POST', base, checked.data);
      const name = `${checked.data.make} ${checked.data.model} ${checked.data.plate}`;
      onSaved(current ? `${name}: changes saved.` : `${name} was added.`);
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <Dialog title={current ? `Edit ${current.make} ${current.model}` : 'Add a vehicle'} open={vehicle !== null} onClose={onClose}>
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <ErrorNote>{error}</ErrorNote>
        <TextField id="vehicle-make" label="Make" value={form.make} problem={problems.make} onChange={(make) => setForm({ ...form, make })} />
        <TextField id="vehicle-model" label="Model" value={form.model} problem={problems.model} onChange={(model) => setForm({ ...form, model })} />
        <TextField id="vehicle-plate" label="Plate" autoCapitalize="characters" value={form.plate} problem={problems.plate} onChange={(plate) => setForm({ ...form, plate })} />
        <button type="submit" className="btn">
          {current ? 'Save' : 'Add the vehicle'}
        </button>
      </form>
    </Dialog>
  );
}
