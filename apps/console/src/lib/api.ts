/**
 * The console's one way to call the server: JSON envelope in and out, the staff session's CSRF
 * token on every write, and failures as `ApiFailure` (status, text, stable errorCode, meta).
 */

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorCode?: string,
    readonly meta?: Record<string, unknown>,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
/** Who hears of a 401 (the session ended): the session provider sends the member to the log-in page. */
let onLoggedOut: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function onSessionLost(listener: (() => void) | null): void {
  onLoggedOut = listener;
}

interface Envelope<T> {
  code: number;
  result: T;
  errorCode?: string;
  meta?: Record<string, unknown>;
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/api/console${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiFailure(0, 'The server could not be reached. Check the connection and try again.');
  }
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (!response.ok || !envelope) {
    const text = envelope && typeof envelope.result === 'string' ? envelope.result : `The server answered ${response.status}.`;
    const failure = new ApiFailure(response.status, text, envelope?.errorCode, envelope?.meta);
    // A session that ended mid-work: back to the log-in (the log-in call itself reports its own 401).
    if (response.status === 401 && failure.errorCode === 'login_required' && path !== '/session') onLoggedOut?.();
    throw failure;
  }
  return envelope.result;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : 'Something went wrong.';
}

/** `?a=1&b=2` from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
