import { describe, expect, it } from 'vitest';
import { pollLoop, type PollTurn } from './poll-loop.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pass the test opens and closes by hand, counting passes and passes at once. */
function gatedPasses(result = 1) {
  const state = { passes: 0, active: 0, most: 0, gates: [] as (() => void)[], turns: [] as PollTurn[] };
  const pass = async (turn: PollTurn) => {
    state.passes += 1;
    state.active += 1;
    state.most = Math.max(state.most, state.active);
    state.turns.push(turn);
    await new Promise<void>((resolve) => state.gates.push(resolve));
    state.active -= 1;
    return result;
  };
  const open = async () => {
    while (!state.gates.length) await tick(1);
    state.gates.shift()!();
    await tick(1);
  };
  return { state, pass, open };
}

describe('pollLoop: the polling loop of the outbox consumers, the message sender and the alert planner', () => {
  it('never runs two passes at once; wakes during a pass run one more pass right after it, not one each', async () => {
    const { state, pass, open } = gatedPasses();
    const loop = pollLoop({ pass, pollMs: 60_000 });
    loop.start();
    loop.start();
    await tick(1);
    expect(state.passes).toBe(1);
    loop.wake();
    loop.wake();
    loop.wake();
    await tick(5);
    expect(state.passes).toBe(1);
    await open();
    // The wakes during the first pass: one more pass, at once (not after pollMs).
    expect(state.passes).toBe(2);
    await open();
    await tick(5);
    expect(state.passes).toBe(2);
    expect(state.most).toBe(1);
    await loop.stop();
  });

  it('polls every pollMs without a wake, and a wake before start does nothing', async () => {
    let passes = 0;
    const loop = pollLoop({ pass: async () => ++passes && 0, pollMs: 10 });
    loop.wake();
    await tick(20);
    expect(passes).toBe(0);
    loop.start();
    await tick(65);
    expect(passes).toBeGreaterThanOrEqual(3);
    await loop.stop();
    const after = passes;
    await tick(30);
    expect(passes).toBe(after);
  });

  it('inside a pass, more() reads another batch when the batch was full or a wake came; never after stop', async () => {
    const seen: boolean[] = [];
    let wakeDuring = false;
    const loop = pollLoop({
      pass: async (turn) => {
        if (wakeDuring) {
          wakeDuring = false;
          loop.wake();
        }
        seen.push(turn.more(false), turn.more(true), turn.more(false));
        return 0;
      },
      pollMs: 60_000,
    });
    loop.start();
    await tick(2);
    expect(seen).toEqual([false, true, false]);
    seen.length = 0;
    wakeDuring = true;
    await loop.drain();
    expect(seen).toEqual([true, true, false]);
    await loop.stop();
    seen.length = 0;
    await loop.drain();
    expect(seen).toEqual([false, false, false]);
  });

  it('drain awaits the pass in flight, then runs one, and resolves with what both handled', async () => {
    const { state, pass, open } = gatedPasses(3);
    const loop = pollLoop({ pass, pollMs: 60_000 });
    loop.start();
    await tick(1);
    let drained: number | null = null;
    const d = loop.drain().then((n) => (drained = n));
    await tick(5);
    expect(state.passes).toBe(1);
    await open();
    expect(state.passes).toBe(2);
    expect(drained).toBeNull();
    await open();
    await d;
    expect(drained).toBe(6);
    expect(state.most).toBe(1);
    await loop.stop();
  });

  it('stop during a pass awaits it, tells the pass it is stopping, and leaves no timer or pass behind', async () => {
    const { state, pass, open } = gatedPasses();
    const loop = pollLoop({ pass, pollMs: 5 });
    loop.start();
    await tick(1);
    let stopped = false;
    const s = loop.stop().then(() => (stopped = true));
    await tick(5);
    expect(stopped).toBe(false);
    expect(state.turns[0]!.stopped).toBe(true);
    loop.wake();
    loop.start();
    await open();
    await s;
    expect(stopped).toBe(true);
    await tick(30);
    expect(state.passes).toBe(1);
  });

  it('listens for kicks from start to stop: a kick runs a pass at once', async () => {
    const listeners = new Set<() => void>();
    const kicks = { onKick: (l: () => void) => (listeners.add(l), () => listeners.delete(l)) };
    let passes = 0;
    const loop = pollLoop({ pass: async () => ++passes && 0, pollMs: 60_000, wakeOn: kicks });
    expect(listeners.size).toBe(0);
    loop.start();
    loop.start();
    await tick(2);
    expect([passes, listeners.size]).toEqual([1, 1]);
    for (const l of listeners) l();
    await tick(2);
    expect(passes).toBe(2);
    await loop.stop();
    expect(listeners.size).toBe(0);
  });

  it('reports a pass that throws, counts it 0 and goes on polling', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const loop = pollLoop({
      pass: async () => {
        passes += 1;
        if (passes === 1) throw new Error('database away');
        return 2;
      },
      pollMs: 5,
      onError: (err) => errors.push(err),
    });
    expect(await loop.drain()).toBe(0);
    expect(errors).toEqual([new Error('database away')]);
    expect(await loop.drain()).toBe(2);
    loop.start();
    await tick(30);
    expect(passes).toBeGreaterThan(3);
    await loop.stop();
  });
});
