import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './api.ts';

/** Data a screen reads: loads on mount and when `key` changes; `reload()` reads it again (older answers are dropped). */
export function useResource<T>(key: string | null, load: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(key !== null);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    setLoading(true);
    try {
      const value = await loadRef.current();
      if (ticket !== latest.current) return;
      setData(value);
      setError(null);
    } catch (err) {
      if (ticket !== latest.current) return;
      setError(errorText(err));
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (key === null) return;
    void reload();
  }, [key, reload]);

  return { data, error, loading, reload, setData };
}
