import { useEffect, useRef, useState } from 'react';
import { useAuthApi } from '../../state/use-auth.ts';
import { errorMessage } from './ui.tsx';

export type Query<T> = { status: 'loading'; data: null; error: null } | { status: 'done'; data: T; error: null } | { status: 'failed'; data: null; error: string };

/**
 * One customer call for a block (orders, one order, newsletter status), made with the session's
 * token (refreshed under the lock when it expired), again whenever `key` changes. `reload()`
 * makes it again (after a change the block made itself).
 */
export function useAccountQuery<T>(key: string, call: (token: string) => Promise<T>): Query<T> & { reload(): void } {
  const auth = useAuthApi();
  const [state, setState] = useState<Query<T>>({ status: 'loading', data: null, error: null });
  const [round, setRound] = useState(0);
  const lastKey = useRef(key);
  useEffect(() => {
    let live = true;
    // A new question shows "loading"; asking the same again (reload) keeps the answer on screen.
    if (lastKey.current !== key) setState({ status: 'loading', data: null, error: null });
    lastKey.current = key;
    auth
      .getState()
      .authorized(call)
      .then((data) => live && setState({ status: 'done', data, error: null }))
      .catch((e: unknown) => live && setState({ status: 'failed', data: null, error: errorMessage(e) }));
    return () => {
      live = false;
    };
    // `call` is a new closure each render; `key` says what it asks for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [auth, key, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}
