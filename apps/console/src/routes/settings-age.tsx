/**
 * Age check (issue 14, "Age on every order"): the minimum age of a medical order at this store,
 * 18 to 21 (recreational orders always need 21). Saved through the settings section `age` over the
 * version read (a save made meanwhile answers 409: the current value is shown, nothing overwritten).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { AGE_THRESHOLD, MEDICAL_MINIMUM_AGE_FLOOR, type AgeSettings } from '@verdant/domain';
import { ErrorNote, Loading, PageTitle } from '../components/ui.tsx';
import { ApiFailure, api, errorText } from '../lib/api.ts';
import { useResource } from '../lib/use-resource.ts';
import { useStore, useTitle } from './layout.tsx';

interface Section {
  value: AgeSettings;
  version: number;
  source: 'saved' | 'stores-file' | 'default';
  updatedAt: string | null;
}

const SOURCE: Record<Section['source'], string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default',
};

const AGES = Array.from({ length: AGE_THRESHOLD - MEDICAL_MINIMUM_AGE_FLOOR + 1 }, (_, i) => MEDICAL_MINIMUM_AGE_FLOOR + i);

export function AgeSettingsPage() {
  useTitle('Age check');
  const { store } = useStore();
  const path = `/stores/${store.id}/settings/sections/age`;
  const section = useResource(String(store.id), () => api<Section>('GET', path));
  const [medical, setMedical] = useState(AGE_THRESHOLD);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (section.data) setMedical(section.data.value.medicalMinimumAge);
  }, [section.data]);

  if (!section.data) return section.error ? <ErrorNote>{section.error}</ErrorNote> : <Loading />;
  const current = section.data;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    setError(null);
    setBusy(true);
    try {
      const answer = await api<Section>('PUT', path, { value: { medicalMinimumAge: medical }, version: current.version });
      section.setData(answer);
      setSaved('Age check saved.');
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 409) {
        setError('Someone saved the age check meanwhile. Their value is shown now; make your change again.');
        await section.reload();
      } else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageTitle>Age check</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Every order carries the shopper’s date of birth (asked at checkout from guests, taken from the account for customers), and the
        server refuses anyone younger than the minimum on the order date in the store’s time zone. Recreational orders always need{' '}
        {AGE_THRESHOLD}. The value now is {current.value.medicalMinimumAge} ({SOURCE[current.source]}).
      </p>
      <form onSubmit={submit} className="card grid max-w-md gap-3" aria-label="Age check">
        <ErrorNote>{error}</ErrorNote>
        <div role="status">{saved}</div>
        <label htmlFor="medical-minimum-age" className="font-semibold">
          Minimum age for medical orders
        </label>
        <p id="medical-minimum-age-help" className="text-sm text-stone-700">
          Lower it only where the store’s state lets patients of that age buy for themselves.
        </p>
        <select
          id="medical-minimum-age"
          aria-describedby="medical-minimum-age-help"
          value={medical}
          onChange={(e) => setMedical(Number(e.target.value))}
          className="field"
        >
          {AGES.map((age) => (
            <option key={age} value={age}>
              {age}
            </option>
          ))}
        </select>
        <div>
          <button type="submit" className="btn" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </>
  );
}
