/**
 * Hours and time slots (issue 14): weekly hours per order type, dated exceptions (holidays), slot
 * rules and what happens to an order outside ordering hours. Saved through the settings section
 * `hours` over the version read (a save made meanwhile answers 409: the current value is shown,
 * nothing overwritten); the server checks the whole document with the same schema as the domain.
 */
import { HOURS_ORDER_TYPES, WEEKDAY_NAMES, hoursSettingsSchema, type HoursOrderType, type HoursSettings } from '@verdant/domain';
import { FieldProblems, SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection, type FieldProblem } from '../lib/use-settings-section.ts';
import { useTitle } from './layout.tsx';

const TYPE_LABEL: Record<HoursOrderType, string> = { pickup: 'Pickup', delivery: 'Delivery' };
type Exception = HoursSettings['exceptions'][number];

const weeklyField = (type: HoursOrderType, day: string, which: 'open' | 'close') => `hours-${type}-${day}-${which}`;
const slotField = (type: HoursOrderType, key: string) => `hours-${type}-${key}`;
const exceptionField = (i: number, key: 'date' | 'open' | 'close') => `hours-exception-${i}-${key}`;

const SLOT_PROBLEM: Record<string, [label: string, message: string]> = {
  lead_minutes: ['Preparation (min)', 'Enter whole minutes from 0 to 1440.'],
  days_ahead: ['Days ahead', 'Enter a whole number of days from 0 to 30.'],
  capacity: ['Orders per slot', 'Enter a whole number from 1 to 10000, or leave it empty for no limit.'],
};

/** The domain schema's problems, at their fields, in words (its own are terse: "expected YYYY-MM-DD"). */
function hoursProblems(v: HoursSettings): FieldProblem[] {
  const checked = hoursSettingsSchema.safeParse(v);
  if (checked.success) return [];
  return checked.error.issues.map((issue): FieldProblem => {
    const [head, part, index, key] = issue.path;
    if (head === 'exceptions' && typeof part === 'number') {
      const where = `Exception ${part + 1}`;
      if (index === 'date')
        return {
          field: exceptionField(part, 'date'),
          where: `${where} › Date`,
          message: issue.message.startsWith('expected') ? 'Enter the date.' : issue.message,
        };
      if (index === 'open' || index === 'close') return { field: exceptionField(part, index), where, message: 'Enter a time.' };
      return { field: exceptionField(part, 'open'), where, message: 'Give the opening and closing times, or tick Closed all day.' };
    }
    if ((head === 'pickup' || head === 'delivery') && part === 'weekly' && typeof index === 'number') {
      const day = v[head].weekly[index]?.day ?? 'Sunday';
      const which = key === 'open' ? 'open' : 'close';
      return {
        field: weeklyField(head, day, which),
        where: `${TYPE_LABEL[head]} › ${day}`,
        message: issue.message === 'open and close are the same time' ? 'It opens and closes at the same time.' : issue.message,
      };
    }
    if ((head === 'pickup' || head === 'delivery') && part === 'slots' && typeof index === 'string' && SLOT_PROBLEM[index]) {
      const [label, message] = SLOT_PROBLEM[index];
      return { field: slotField(head, index), where: `${TYPE_LABEL[head]} › ${label}`, message };
    }
    return { field: 'outside-hours', message: `${issue.path.join('.')}: ${issue.message}` };
  });
}

export function HoursSettingsPage() {
  useTitle('Hours and time slots');
  // Checked with the domain's schema (the server checks the same document again), problems at their fields.
  const form = useSettingsSection<HoursSettings, HoursSettings>({
    section: 'hours',
    toDraft: (v) => structuredClone(v),
    toValue: (d) => d,
    validate: hoursProblems,
    savedText: 'Hours and time slots saved.',
    staleText: 'Someone saved the hours meanwhile. Their value is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const { store } = form;
  const value = form.draft;
  const change = (edit: (v: HoursSettings) => void) =>
    form.setDraft((v) => {
      const next = structuredClone(v);
      edit(next);
      return next;
    });

  const setDay = (type: HoursOrderType, day: (typeof WEEKDAY_NAMES)[number], open: boolean) =>
    change((v) => {
      const weekly = v[type].weekly.filter((w) => w.day !== day);
      if (open) weekly.push({ day, open: '09:00', close: '21:00' });
      v[type].weekly = WEEKDAY_NAMES.flatMap((d) => weekly.filter((w) => w.day === d));
    });

  return (
    <>
      <PageTitle>Hours and time slots</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Times are the store’s ({store.timezone}). Checkout offers “as soon as possible” while the store is open for the order type, and the
        time slots with room; the server checks the slot again when the order is saved.
      </p>
      <SettingsForm
        form={form}
        label="Hours and time slots"
        problemsTitle="The hours were not saved:"
        className="grid max-w-4xl gap-6"
        noValidate
      >
        <div className="card grid gap-2">
          <label htmlFor="outside-hours" className="font-semibold">
            Orders outside ordering hours
          </label>
          <select
            id="outside-hours"
            className="field"
            value={value.outside_hours}
            onChange={(e) => change((v) => void (v.outside_hours = e.target.value as HoursSettings['outside_hours']))}
          >
            <option value="next_slot">Take them for the next free slot</option>
            <option value="refuse">Refuse them (the shopper is told when the store opens)</option>
          </select>
        </div>
        {HOURS_ORDER_TYPES.map((type) => (
          <fieldset key={type} className="card grid gap-3">
            <legend className="font-semibold">{TYPE_LABEL[type]}</legend>
            {/* Three columns, a day's hours wrapping under each other on a phone: the table fits 390 px. */}
            <table className="w-full text-left">
              <caption className="sr-only">{TYPE_LABEL[type]} hours by weekday</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Open</th>
                  <th scope="col">Hours (opens – closes)</th>
                </tr>
              </thead>
              <tbody>
                {WEEKDAY_NAMES.map((day) => {
                  const w = value[type].weekly.find((x) => x.day === day);
                  const edit = (field: 'open' | 'close', t: string) =>
                    change((v) => {
                      const row = v[type].weekly.find((x) => x.day === day);
                      if (row) row[field] = t;
                    });
                  return (
                    <tr key={day} className="border-t border-stone-200">
                      <th scope="row" className="py-1 pr-2 align-top">
                        <span className="mt-3 block">{day}</span>
                      </th>
                      <td className="py-1 pr-2 align-top">
                        <input
                          type="checkbox"
                          className="mt-3 size-5"
                          aria-label={`${TYPE_LABEL[type]} open on ${day}`}
                          checked={!!w}
                          onChange={(e) => setDay(type, day, e.target.checked)}
                        />
                      </td>
                      <td className="py-1 align-top">
                        {w ? (
                          <div className="flex flex-wrap items-start gap-x-2">
                            <div>
                              <input
                                {...form.fieldProps(weeklyField(type, day, 'open'))}
                                type="time"
                                className="field w-36"
                                aria-label={`${TYPE_LABEL[type]} opens on ${day}`}
                                value={w.open}
                                onChange={(e) => edit('open', e.target.value)}
                              />
                              <FieldProblems form={form} field={weeklyField(type, day, 'open')} />
                            </div>
                            <div>
                              <input
                                {...form.fieldProps(weeklyField(type, day, 'close'))}
                                type="time"
                                className="field w-36"
                                aria-label={`${TYPE_LABEL[type]} closes on ${day}`}
                                value={w.close}
                                onChange={(e) => edit('close', e.target.value)}
                              />
                              <FieldProblems form={form} field={weeklyField(type, day, 'close')} />
                            </div>
                          </div>
                        ) : (
                          <p className="mt-3">Closed</p>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <div className="grid gap-3 sm:grid-cols-4">
              <label className="grid gap-1">
                Slot length
                <select
                  className="field"
                  value={value[type].slots.length_minutes}
                  onChange={(e) => change((v) => void (v[type].slots.length_minutes = Number(e.target.value) as 15 | 30 | 60))}
                >
                  {[15, 30, 60].map((m) => (
                    <option key={m} value={m}>
                      {m} min
                    </option>
                  ))}
                </select>
              </label>
              <div className="grid gap-1">
                <label className="grid gap-1">
                  Preparation (min)
                  <input
                    {...form.fieldProps(slotField(type, 'lead_minutes'))}
                    type="number"
                    min={0}
                    max={1440}
                    className="field"
                    value={value[type].slots.lead_minutes}
                    onChange={(e) => change((v) => void (v[type].slots.lead_minutes = Number(e.target.value)))}
                  />
                </label>
                <FieldProblems form={form} field={slotField(type, 'lead_minutes')} />
              </div>
              <div className="grid gap-1">
                <label className="grid gap-1">
                  Days ahead
                  <input
                    {...form.fieldProps(slotField(type, 'days_ahead'))}
                    type="number"
                    min={0}
                    max={30}
                    className="field"
                    value={value[type].slots.days_ahead}
                    onChange={(e) => change((v) => void (v[type].slots.days_ahead = Number(e.target.value)))}
                  />
                </label>
                <FieldProblems form={form} field={slotField(type, 'days_ahead')} />
              </div>
              <div className="grid gap-1">
                <label className="grid gap-1">
                  Orders per slot (empty: no limit)
                  <input
                    {...form.fieldProps(slotField(type, 'capacity'))}
                    type="number"
                    min={1}
                    className="field"
                    value={value[type].slots.capacity ?? ''}
                    onChange={(e) => change((v) => void (v[type].slots.capacity = e.target.value === '' ? null : Number(e.target.value)))}
                  />
                </label>
                <FieldProblems form={form} field={slotField(type, 'capacity')} />
              </div>
            </div>
          </fieldset>
        ))}
        <fieldset className="card grid gap-3">
          <legend className="font-semibold">Exceptions (holidays)</legend>
          {value.exceptions.length === 0 ? <p className="text-stone-700">No exceptions.</p> : null}
          {value.exceptions.map((x, i) => {
            const edit = (e: (x: Exception) => void) => change((v) => e(v.exceptions[i]));
            return (
              <div key={i} className="grid items-end gap-2 sm:grid-cols-6">
                <div className="grid gap-1">
                  <label className="grid gap-1">
                    Date
                    <input
                      {...form.fieldProps(exceptionField(i, 'date'))}
                      type="date"
                      className="field"
                      value={x.date}
                      onChange={(e) => edit((x) => void (x.date = e.target.value))}
                    />
                  </label>
                  <FieldProblems form={form} field={exceptionField(i, 'date')} />
                </div>
                <label className="grid gap-1">
                  Label
                  <input className="field" value={x.label} onChange={(e) => edit((x) => void (x.label = e.target.value))} />
                </label>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={x.closed} onChange={(e) => edit((x) => void (x.closed = e.target.checked))} />
                  Closed all day
                </label>
                <div className="grid gap-1">
                  <label className="grid gap-1">
                    Opens
                    <input
                      {...form.fieldProps(exceptionField(i, 'open'))}
                      type="time"
                      className="field"
                      disabled={x.closed}
                      value={x.open ?? ''}
                      onChange={(e) => edit((x) => void (x.open = e.target.value))}
                    />
                  </label>
                  <FieldProblems form={form} field={exceptionField(i, 'open')} />
                </div>
                <div className="grid gap-1">
                  <label className="grid gap-1">
                    Closes
                    <input
                      {...form.fieldProps(exceptionField(i, 'close'))}
                      type="time"
                      className="field"
                      disabled={x.closed}
                      value={x.close ?? ''}
                      onChange={(e) => edit((x) => void (x.close = e.target.value))}
                    />
                  </label>
                  <FieldProblems form={form} field={exceptionField(i, 'close')} />
                </div>
                <button type="button" className="btn" onClick={() => change((v) => void v.exceptions.splice(i, 1))}>
                  Remove {x.date || 'exception'}
                </button>
              </div>
            );
          })}
          <div>
            <button
              type="button"
              className="btn"
              onClick={() =>
                change((v) => void v.exceptions.push({ date: '', label: '', order_types: ['pickup', 'delivery'], closed: true }))
              }
            >
              Add an exception
            </button>
          </div>
        </fieldset>
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
