import { useCallback, useEffect, useState } from 'react';
import type { AccountWrite, PendingWrite } from '../../offline/account-writes.ts';
import type { AppSync } from '../../offline/app-sync.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useAuth, useAuthApi } from '../../state/use-auth.ts';
import { appSyncOf } from '../../state/use-sync-boot.ts';

export type WriteOutcome = 'sent' | 'queued';

/**
 * The account blocks' door to the sync-task queue (issue 6; the queue code loads on demand):
 *  - `write(w, direct)`: online with nothing waiting, the call is made directly as before (clear
 *    errors from the store); offline — or while earlier writes still wait, so this one never
 *    overtakes them — it is queued (stored in IndexedDB first) and sent when the network returns.
 *  - `pending`: the customer's waiting writes, read again whenever the queue changes (this tab or
 *    another), so a reload offline still shows them.
 *  - `round`: grows each time the queue changed; blocks read their data again on it.
 */
export function useAccountSync(): {
  app: AppSync | null;
  pending: PendingWrite[];
  round: number;
  write(write: AccountWrite, direct: () => Promise<unknown>): Promise<WriteOutcome>;
} {
  const { store } = useRootData();
  const auth = useAuthApi();
  const customerId = useAuth((s) => s.user?.id ?? null);
  const [app, setApp] = useState<AppSync | null>(null);
  const [pending, setPending] = useState<PendingWrite[]>([]);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    let off: (() => void) | undefined;
    void appSyncOf(store.storeCode, auth).then((a) => {
      if (!live || !a) return;
      setApp(a);
      // Reads can overlap (the queue changes while one runs): only the latest one started is shown.
      let latest = 0;
      const read = () => {
        const mine = ++latest;
        void a.pendingWrites().then((p) => live && mine === latest && setPending(p), () => {});
      };
      read();
      off = a.subscribe((sent) => {
        if (sent?.length) setPending((p) => p.filter((w) => !sent.includes(w.taskId)));
        read();
        setRound((r) => r + 1);
      });
    });
    return () => {
      live = false;
      off?.();
    };
  }, [store.storeCode, auth, customerId]);

  const write = useCallback(
    async (w: AccountWrite, direct: () => Promise<unknown>): Promise<WriteOutcome> => {
      const a = await appSyncOf(store.storeCode, auth);
      // No IndexedDB (very old browser): nothing can be kept; the call is made as before.
      if (!a) {
        await direct();
        return 'sent';
      }
      const offline = navigator.onLine === false;
      if (!offline && (await a.pendingWrites()).length === 0) {
        await direct();
        return 'sent';
      }
      await a.queueWrite(w);
      return 'queued';
    },
    [store.storeCode, auth],
  );

  return { app, pending, round, write };
}
