/**
 * A sync task (spec §3 "Sync/offline order task", §7 "Generic queued sync task") and the executor
 * that sends ONE task: placeholders filled at the moment of sending, the storeCode parameter in
 * multistore mode, the 401 refresh through the session's `authorized(call)` lock, the `{code,
 * result}` envelope read. The executor never decides what happens to the task afterwards; the
 * queue (./sync-queue.ts) and the offline orders (./offline-orders.ts) do.
 *
 * Outcomes are kept apart on purpose:
 *  - answered: the store answered (any code). It decided; sending again would repeat the action.
 *  - network: no answer from the store (offline, timeout, a gateway 502/503/504, a body that is
 *    not the store's JSON: a captive portal or an offline page). Nothing is known; keep the task.
 *  - unauthorized: 401 even after the refresh (the session is gone).
 *  - no-cart: the URL needs a cart id and there is none; nothing was sent.
 */
import { API_TIMEOUT_MS, ApiError, NetworkError } from '../api/envelope.ts';
import type { AuthState } from '../state/auth-types.ts';
import type { Clock } from '../state/notifications.ts';
import { newIdempotencyKey } from '../state/place-order.ts';

/** Spec §9: network task attempts 1 (each execution sends at most once; the task stays queued after a failure). */
export const NETWORK_TASK_ATTEMPTS = 1;

/** Spec §8 offline and sync copy, word for word. */
export const SYNC_COPY = {
  missingCartId: (url: string) => `Error executing sync task ${url} the required cartId argument is null. Re-creating shopping cart synchro.`,
  badContentType: 'Error with response - bad content-type!',
  wrongFormat: 'Unhandled error, wrong response format!',
  orderQueued: 'The order can not be transfered because of server error. Order has been queued.',
  orderWaitingTitle: 'Order waiting!',
  orderWaitingMessage: 'Click here to confirm the order that you made offline',
} as const;

export type TaskMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface SyncTaskPayload {
  method: TaskMethod;
  headers: Record<string, string>;
  body?: unknown;
}

/** Spec §3 fields (the spec's spelling `transmited` kept), plus the idempotency key. */
export interface SyncTask {
  /** Sortable: creation time, then a per-tab sequence, then a random suffix (unique across tabs). */
  task_id: string;
  /** With `{{token}}` / `{{cartId}}` placeholders, filled when sent. */
  url: string;
  payload: SyncTaskPayload;
  /** Emitted with the task once it is answered (see SyncQueue.on). */
  callback_event: string | null;
  /** No notice for the server's message. */
  silent: boolean;
  /** Keep the result (in the persistent cache) after the task leaves the queue. */
  is_result_cacheable: boolean;
  /** Sent as the `Idempotency-Key` header: a re-send after a lost answer is recognisable. */
  idempotency_key: string;
  transmited: boolean;
  transmited_at: number | null;
  created_at: number;
  updated_at: number;
  result: unknown;
  /** The envelope's code (or the HTTP status). */
  resultCode: number | null;
  /** A machine code inside an error result (e.g. 'ENOTFOUND'). */
  code: string | null;
  acknowledged: boolean;
  meta: unknown;
}

export interface SyncTaskInput {
  url: string;
  payload?: { method?: TaskMethod; headers?: Record<string, string>; body?: unknown };
  callback_event?: string | null;
  silent?: boolean;
  is_result_cacheable?: boolean;
  idempotency_key?: string;
  meta?: unknown;
}

let sequence = 0;

export function newTaskId(now: number): string {
  sequence = (sequence + 1) % 36 ** 4;
  const rand = Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, '0');
  return `${now.toString(36).padStart(9, '0')}-${sequence.toString(36).padStart(4, '0')}-${rand}`;
}

export function createTask(input: SyncTaskInput, now: number): SyncTask {
  return {
    task_id: newTaskId(now),
    url: input.url,
    payload: { method: input.payload?.method ?? 'GET', headers: { ...(input.payload?.headers ?? {}) }, body: input.payload?.body },
    callback_event: input.callback_event ?? null,
    silent: input.silent === true,
    is_result_cacheable: input.is_result_cacheable === true,
    idempotency_key: input.idempotency_key ?? newIdempotencyKey(),
    transmited: false,
    transmited_at: null,
    created_at: now,
    updated_at: now,
    result: null,
    resultCode: null,
    code: null,
    acknowledged: false,
    meta: input.meta ?? null,
  };
}

/** A stored value that is a task (another build may have written it). */
export function isSyncTask(value: unknown): value is SyncTask {
  if (!value || typeof value !== 'object') return false;
  const t = value as Partial<SyncTask>;
  return typeof t.task_id === 'string' && typeof t.url === 'string' && !!t.payload && typeof t.payload.method === 'string' && typeof t.created_at === 'number';
}

export function compareTasks(a: SyncTask, b: SyncTask): number {
  return a.created_at - b.created_at || (a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0);
}

export function needsCartId(url: string): boolean {
  return url.includes('{{cartId}}');
}

/** Fill `{{token}}` and `{{cartId}}`; add `storeCode` (multistore mode) unless the URL has one. */
export function fillTaskUrl(url: string, values: { token?: string | null; cartId?: string | null; storeCode?: string | null }): string {
  let out = url.replaceAll('{{token}}', encodeURIComponent(values.token ?? '')).replaceAll('{{cartId}}', encodeURIComponent(values.cartId ?? ''));
  if (values.storeCode) {
    const hashAt = out.indexOf('#');
    const base = hashAt < 0 ? out : out.slice(0, hashAt);
    const hash = hashAt < 0 ? '' : out.slice(hashAt);
    if (!/[?&]storeCode=/.test(base)) out = `${base}${base.includes('?') ? '&' : '?'}storeCode=${encodeURIComponent(values.storeCode)}${hash}`;
  }
  return out;
}

/** The message a failed answer carries, or null (none, or the ENOTFOUND code the spec keeps quiet). */
export function serverMessage(result: unknown, code: string | null = null): string | null {
  if (code === 'ENOTFOUND') return null;
  if (typeof result === 'string') return result || null;
  if (result && typeof result === 'object') {
    const r = result as { code?: unknown; result?: unknown; message?: unknown; errorMessage?: unknown };
    if (r.code === 'ENOTFOUND') return null;
    for (const m of [r.result, r.message, r.errorMessage]) if (typeof m === 'string' && m) return m;
  }
  return null;
}

export type TaskOutcome =
  | { kind: 'answered'; code: number; result: unknown; meta: unknown; errorCode: string | null }
  | { kind: 'network'; error: unknown }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'no-cart' };

export interface TaskExecutorOptions {
  /** `fetch` (injected in tests). */
  fetch?: typeof fetch;
  /**
   * The session's 401 lock (AuthState.authorized): the call gets the access token; on a 401 the
   * token is refreshed once and the call repeated. Without it, `token()` is used and a 401 is
   * final at once (outcome `unauthorized`).
   */
  authorized?: AuthState['authorized'] | null;
  token?: () => string | null;
  /** The server cart's id (this app's cart token), or null while there is none. */
  cartId: () => string | null | Promise<string | null>;
  /** Multistore mode: the store code added as `storeCode` to every task URL (null: single store). */
  storeCode?: () => string | null;
  /** Also send the token as `Authorization: Bearer` (spec §6 token-in-header option; this app's convention). */
  tokenInHeader?: boolean;
  timeoutMs?: number;
  attempts?: number;
  timers?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  logger?: Pick<Console, 'warn'>;
}

export interface TaskExecutor {
  run(task: SyncTask): Promise<TaskOutcome>;
  /** The URL as the task would be sent now, without the token (for cache keys and logs). */
  publicUrl(task: SyncTask): Promise<string | null>;
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);

class NoAnswer extends NetworkError {}

export function createTaskExecutor(o: TaskExecutorOptions): TaskExecutor {
  const doFetch = o.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timers = o.timers ?? { setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>) };
  const logger = o.logger ?? console;
  const attempts = Math.max(1, o.attempts ?? NETWORK_TASK_ATTEMPTS);
  const tokenInHeader = o.tokenInHeader ?? true;

  /** One HTTP exchange. Throws NetworkError (no answer) or ApiError(401); returns any other answer. */
  async function send(task: SyncTask, url: string, token: string | null): Promise<Extract<TaskOutcome, { kind: 'answered' }>> {
    const headers: Record<string, string> = { accept: 'application/json', 'idempotency-key': task.idempotency_key };
    if (task.payload.body !== undefined) headers['content-type'] = 'application/json';
    if (tokenInHeader && token) headers.authorization = `Bearer ${token}`;
    Object.assign(headers, task.payload.headers);
    const body = task.payload.body === undefined ? undefined : typeof task.payload.body === 'string' ? task.payload.body : JSON.stringify(task.payload.body);

    let res: Response | null = null;
    let lastError: unknown = null;
    for (let attempt = 1; attempt <= attempts && !res; attempt++) {
      const controller = new AbortController();
      const timer = timers.setTimeout(() => controller.abort(), o.timeoutMs ?? API_TIMEOUT_MS);
      try {
        res = await doFetch(url, { method: task.payload.method, headers, body, credentials: 'same-origin', signal: controller.signal });
      } catch (e) {
        lastError = e;
      } finally {
        timers.clearTimeout(timer);
      }
    }
    if (!res) throw new NoAnswer(lastError instanceof Error ? lastError.message : undefined);
    if (GATEWAY_STATUSES.has(res.status)) throw new NoAnswer(`HTTP ${res.status}`);

    const type = res.headers.get('content-type') ?? '';
    if (!type.includes('json')) {
      logger.warn(SYNC_COPY.badContentType, res.status, url);
      throw new NoAnswer(SYNC_COPY.badContentType);
    }
    let envelope: { code?: unknown; resultCode?: unknown; result?: unknown; meta?: unknown };
    try {
      envelope = (await res.json()) as typeof envelope;
      if (!envelope || typeof envelope !== 'object') throw new Error('not an object');
    } catch {
      logger.warn(SYNC_COPY.wrongFormat, res.status, url);
      throw new NoAnswer(SYNC_COPY.wrongFormat);
    }
    let code = typeof envelope.code === 'number' ? envelope.code : typeof envelope.resultCode === 'number' ? envelope.resultCode : res.status;
    if (!res.ok && code === 200) code = res.status;
    const errorCode = typeof envelope.code === 'string' ? envelope.code : null;
    if (code === 401) throw new ApiError(401, serverMessage(envelope.result) ?? 'Unauthorized');
    return { kind: 'answered', code, result: envelope.result ?? null, meta: envelope.meta ?? null, errorCode };
  }

  async function values(task: SyncTask) {
    const cartId = needsCartId(task.url) ? await o.cartId() : null;
    return { cartId, storeCode: o.storeCode?.() ?? null };
  }

  return {
    async run(task) {
      const { cartId, storeCode } = await values(task);
      if (needsCartId(task.url) && !cartId) {
        logger.warn(SYNC_COPY.missingCartId(task.url));
        return { kind: 'no-cart' };
      }
      const urlFor = (token: string | null) => fillTaskUrl(task.url, { token, cartId, storeCode });
      try {
        if (o.authorized) return await o.authorized((token) => send(task, urlFor(token), token));
        const token = o.token?.() ?? null;
        return await send(task, urlFor(token), token);
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return { kind: 'unauthorized', message: e.message };
        if (e instanceof NetworkError) return { kind: 'network', error: e };
        // Anything else came from authorized() (a refresh that failed otherwise): the store did not answer this task.
        return { kind: 'network', error: e };
      }
    },
    async publicUrl(task) {
      const { cartId, storeCode } = await values(task);
      if (needsCartId(task.url) && !cartId) return null;
      return fillTaskUrl(task.url, { token: '{{token}}', cartId, storeCode }).replaceAll(encodeURIComponent('{{token}}'), '{{token}}');
    },
  };
}
