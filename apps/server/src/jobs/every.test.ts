import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { every } from './every.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('every: a repeating job on this node', () => {
  it('never runs twice at once, goes on after a failure, and closing the app waits for the run in flight', async () => {
    const app = Fastify({ logger: false });
    let active = 0;
    let most = 0;
    let runs = 0;
    let finished = 0;
    const results: number[] = [];
    every(
      app,
      5,
      'test job',
      async () => {
        runs += 1;
        active += 1;
        most = Math.max(most, active);
        await tick(30); // several turns come due meanwhile
        active -= 1;
        finished += 1;
        if (runs === 2) throw new Error('second run fails');
        return runs;
      },
      (n) => results.push(n),
    );
    await app.ready();
    while (runs < 4) await tick(5);
    await app.close();
    // The close waited for the run it found going; no turn starts after it.
    expect(finished).toBe(runs);
    const after = runs;
    await tick(40);
    expect(runs).toBe(after);
    expect(most).toBe(1);
    // The failed run gave no result; the runs after it did.
    expect(results).not.toContain(2);
    expect(results).toEqual(expect.arrayContaining([1, 3]));
  });
});
