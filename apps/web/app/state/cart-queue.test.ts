import { describe, expect, it } from 'vitest';
import { createSerialQueue, type LockRequest } from './cart-queue.ts';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('serial queue (VSF #5743: load, add and sync never overlap)', () => {
  it('runs tasks one at a time in the order asked, and a failure does not stop the next', async () => {
    const q = createSerialQueue();
    const log: string[] = [];
    const task = (name: string, ms: number, fail = false) => async () => {
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    };
    const a = q.run(task('load', 10));
    const b = q.run(task('add', 1, true));
    const c = q.run(task('sync', 0));
    expect(q.size).toBe(3);
    await expect(a).resolves.toBe('load');
    await expect(b).rejects.toThrow('add');
    await expect(c).resolves.toBe('sync');
    expect(log).toEqual(['start load', 'end load', 'start add', 'end add', 'start sync', 'end sync']);
    await q.idle();
    expect(q.size).toBe(0);
  });

  it('idle() also waits for tasks queued while it waits', async () => {
    const q = createSerialQueue();
    const done: string[] = [];
    void q.run(async () => {
      await tick(5);
      void q.run(async () => void done.push('second'));
      done.push('first');
    });
    await q.idle();
    expect(done).toEqual(['first', 'second']);
  });

  it('holds the named cross-tab lock around each task, so two tabs take turns', async () => {
    const held: string[] = [];
    let holder: string | null = null;
    const tails = new Map<string, Promise<unknown>>();
    const lock: LockRequest = (name, fn) => {
      const run = (tails.get(name) ?? Promise.resolve()).then(async () => {
        holder = name;
        try {
          return await fn();
        } finally {
          holder = null;
        }
      });
      tails.set(name, run.catch(() => undefined));
      return run;
    };
    const tab1 = createSerialQueue('verdant-cart-downtown', lock);
    const tab2 = createSerialQueue('verdant-cart-downtown', lock);
    const step = (tab: string) => async () => {
      held.push(`${tab}:${holder}`);
      await tick(2);
      held.push(`${tab} done`);
    };
    await Promise.all([tab1.run(step('tab1')), tab2.run(step('tab2')), tab1.run(step('tab1'))]);
    expect(held).toEqual([
      'tab1:verdant-cart-downtown', 'tab1 done',
      'tab2:verdant-cart-downtown', 'tab2 done',
      'tab1:verdant-cart-downtown', 'tab1 done',
    ]);
  });
});
