import { useState, type FormEvent } from 'react';
import type { Address, AddressInput } from '../../../api/user.ts';
import { firstInvalid, validateAddressForm, type AddressField, type AddressForm, type FieldErrors } from '../../../lib/account-forms.ts';
import { addressLine } from '../../../lib/account-view.ts';
import { AUTH_COPY } from '../../../state/auth-types.ts';
import { notify } from '../../../state/notifications.ts';
import { useAuth, useAuthApi } from '../../../state/use-auth.ts';
import { Field } from '../../checkout/Field.tsx';
import { OFFLINE_WRITE_COPY, type PendingWrite } from '../../../offline/account-writes.ts';
import { useAccountSync, type WriteOutcome } from '../use-account-sync.ts';
import { Block, FormError, errorMessage, primaryButton, secondaryButton, focusField, useSubmit } from '../ui.tsx';

const EMPTY: AddressForm = { title: '', street: '', house_number: '', apt_ste: '', city: '', postcode: '' };
const ORDER: AddressField[] = ['title', 'street', 'house_number', 'apt_ste', 'city', 'postcode'];

function formOf(a: Address): AddressForm {
  return { title: a.title ?? '', street: a.street, house_number: a.house_number ?? '', apt_ste: a.apt_ste ?? '', city: a.city, postcode: a.postcode };
}

function lineOf(a: AddressInput): string {
  return addressLine({ title: a.title ?? null, street: a.street, house_number: a.house_number ?? null, apt_ste: a.apt_ste ?? null, city: a.city, postcode: a.postcode });
}

/** What waits for the network, per saved address and as new ones (the last edit of an address wins). */
function waitingOf(pending: PendingWrite[]) {
  const edits = new Map<number, AddressInput>();
  const removals = new Set<number>();
  const added: { key: string; address: AddressInput }[] = [];
  for (const p of pending) {
    if (p.write.kind === 'address-remove') removals.add(p.write.id);
    else if (p.write.kind === 'address' && p.write.address.id != null) edits.set(p.write.address.id, p.write.address);
    else if (p.write.kind === 'address') added.push({ key: p.taskId, address: p.write.address });
  }
  return { edits, removals, added };
}

function Waiting({ children }: { children: string }) {
  return <p className="mt-1 text-sm font-medium text-amber-900">{children}</p>;
}

/**
 * /my-account/shipping-details (spec §3 Shipping details): the customer's addresses, added,
 * edited, removed. Offline a change waits in the sync queue and is shown as waiting.
 */
export function ShippingBlock() {
  const addresses = useAuth((s) => s.user?.addresses ?? []);
  const auth = useAuthApi();
  const sync = useAccountSync();
  const waiting = waitingOf(sync.pending);
  const [editing, setEditing] = useState<number | 'new' | null>(addresses.length === 0 ? 'new' : null);
  const [removing, setRemoving] = useState<number | null>(null);

  const remove = async (a: Address) => {
    setRemoving(a.id);
    try {
      const outcome = await sync.write({ kind: 'address-remove', id: a.id }, () => auth.getState().deleteAddress(a.id));
      if (outcome === 'sent') notify({ type: 'success', message: AUTH_COPY.accountUpdated });
    } catch (e) {
      notify({ type: 'error', message: errorMessage(e), action1: { label: 'OK' } });
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Block
      id="addresses"
      title="Your addresses"
      actions={
        editing === null ? (
          <button type="button" className={secondaryButton} onClick={() => setEditing('new')}>
            Add an address
          </button>
        ) : null
      }
    >
      {addresses.length === 0 && waiting.added.length === 0 && editing !== 'new' ? <p className="text-stone-700">No addresses yet.</p> : null}
      <ul className="space-y-3" aria-label="Saved addresses">
        {addresses.map((a) => {
          const edit = waiting.edits.get(a.id);
          const removal = waiting.removals.has(a.id);
          return (
            <li key={a.id} className="rounded-xl border border-stone-200 p-4">
              {editing === a.id ? (
                <AddressEditor initial={edit ? formOf({ ...a, ...edit, title: edit.title ?? null, house_number: edit.house_number ?? null, apt_ste: edit.apt_ste ?? null }) : formOf(a)} id={a.id} isDefault={a.is_default} write={sync.write} onDone={() => setEditing(null)} />
              ) : (
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div>
                    <p className={removal ? 'text-stone-600 line-through' : 'text-stone-900'}>
                      {edit ? lineOf(edit) : addressLine(a)}
                      {a.is_default ? <span className="ml-2 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">Default</span> : null}
                    </p>
                    {removal ? <Waiting>{OFFLINE_WRITE_COPY.removalPending}</Waiting> : edit ? <Waiting>{OFFLINE_WRITE_COPY.addressPending}</Waiting> : null}
                  </div>
                  {removal ? null : (
                    <div className="flex gap-2">
                      <button type="button" className={secondaryButton} onClick={() => setEditing(a.id)}>
                        Edit<span className="sr-only"> {addressLine(a)}</span>
                      </button>
                      <button type="button" className={secondaryButton} disabled={removing === a.id} onClick={() => void remove(a)}>
                        Remove<span className="sr-only"> {addressLine(a)}</span>
                      </button>
                    </div>
                  )}
                </div>
              )}
            </li>
          );
        })}
        {waiting.added.map(({ key, address }) => (
          <li key={key} className="rounded-xl border border-dashed border-amber-400 p-4">
            <p className="text-stone-900">{lineOf(address)}</p>
            <Waiting>{OFFLINE_WRITE_COPY.addressPending}</Waiting>
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        <div className="mt-4 rounded-xl border border-stone-200 p-4">
          <AddressEditor initial={EMPTY} isDefault={addresses.length === 0} write={sync.write} onDone={() => setEditing(null)} />
        </div>
      ) : null}
    </Block>
  );
}

type Write = ReturnType<typeof useAccountSync>['write'];

function AddressEditor({ initial, id, isDefault, write, onDone }: { initial: AddressForm; id?: number; isDefault: boolean; write: Write; onDone(): void }) {
  const auth = useAuthApi();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<AddressField>>({});
  const { busy, error, run } = useSubmit();
  const prefix = id == null ? 'address-new' : `address-${id}`;
  const set = (k: AddressField) => (v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    if (errors[k]) setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateAddressForm(form);
    setErrors(found);
    const first = firstInvalid(ORDER, found);
    if (first) return focusField(`${prefix}-${first}`);
    const t = (v: string) => v.trim() || null;
    const input: AddressInput = {
      ...(id != null ? { id } : {}),
      title: t(form.title),
      street: form.street.trim(),
      house_number: t(form.house_number),
      apt_ste: t(form.apt_ste),
      city: form.city.trim(),
      postcode: form.postcode.trim(),
      country_id: 'US',
      is_default: isDefault,
    };
    let outcome: WriteOutcome = 'sent';
    const ok = await run(async () => {
      outcome = await write({ kind: 'address', address: input }, () => auth.getState().updateMe({ addresses: [input] }));
    });
    if (ok) {
      if (outcome === 'sent') notify({ type: 'success', message: AUTH_COPY.accountUpdated });
      onDone();
    }
  };
  return (
    <form noValidate onSubmit={submit} aria-label={id == null ? 'New address' : 'Edit address'} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${prefix}-title`} label="Address name" hint="For example Home or Work." data-autofocus value={form.title} onChange={set('title')} error={errors.title} />
        <Field id={`${prefix}-street`} label="Street" required autoComplete="address-line1" value={form.street} onChange={set('street')} error={errors.street} />
        <Field id={`${prefix}-house_number`} label="House number" value={form.house_number} onChange={set('house_number')} error={errors.house_number} />
        <Field id={`${prefix}-apt_ste`} label="Apartment" autoComplete="address-line2" value={form.apt_ste} onChange={set('apt_ste')} error={errors.apt_ste} />
        <Field id={`${prefix}-city`} label="City" required autoComplete="address-level2" value={form.city} onChange={set('city')} error={errors.city} />
        <Field id={`${prefix}-postcode`} label="ZIP code" required autoComplete="postal-code" inputMode="numeric" value={form.postcode} onChange={set('postcode')} error={errors.postcode} />
      </div>
      <FormError message={error} />
      <div className="flex gap-3">
        <button type="submit" disabled={busy} className={primaryButton}>
          Save address
        </button>
        <button type="button" className={secondaryButton} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
