/**
 * Test doubles shared by the offline tests (imported by *.test.ts only): a fake store server for
 * `fetch`, a Web Locks stand-in shared by "tabs", and an `authorized` with AuthState's contract.
 */
import { ApiError } from '../../app/api/envelope.ts';
import type { LockRequest } from '../../app/state/cart-queue.ts';

export const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Route = (req: SentRequest) => Response | Promise<Response>;

/** A `fetch` that records every request and answers with `route` (throws TypeError while offline). */
export function fakeServer(route: Route = () => json({ code: 200, result: 'ok' })) {
  const sent: SentRequest[] = [];
  const state = { offline: false, route, delayMs: 0 };
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (state.delayMs) await tick(state.delayMs);
    if (state.offline) throw new TypeError('Failed to fetch');
    const req: SentRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(req);
    return state.route(req);
  }) as typeof globalThis.fetch;
  return { fetch, sent, state };
}

/** Web Locks as two tabs of one browser see them: one holder per name, others wait in order. */
export function sharedLocks(): LockRequest & { held: string[] } {
  const tails = new Map<string, Promise<unknown>>();
  const held: string[] = [];
  const lock = ((name: string, fn: () => Promise<unknown>) => {
    const run = (tails.get(name) ?? Promise.resolve()).then(() => {
      held.push(name);
      return fn();
    });
    tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }) as LockRequest & { held: string[] };
  lock.held = held;
  return lock;
}

/** AuthState.authorized's contract: the call gets a token; one 401 refreshes it and repeats the call. */
export function fakeAuthorized(tokens: string[], opts: { refreshFails?: boolean } = {}) {
  const log = { refreshes: 0 };
  let current = 0;
  const authorized = async <T>(call: (token: string) => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(tokens[current]);
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 401) || attempt >= 1) throw e;
        log.refreshes++;
        if (opts.refreshFails || current + 1 >= tokens.length) throw e;
        current++;
      }
    }
  };
  return { authorized, log };
}

export const quietLogger = { warn: () => {} };
