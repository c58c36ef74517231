import type { FastifyReply } from 'fastify';

/**
 * Every API response is `{code, result}` (spec §7). Errors keep the same envelope with the HTTP
 * status as `code` and a human-readable `result`, so a client never has to guess the format.
 */
export interface Envelope<T> {
  code: number;
  result: T;
  meta?: Record<string, unknown>;
}

export function ok<T>(result: T, meta?: Record<string, unknown>): Envelope<T> {
  return meta ? { code: 200, result, meta } : { code: 200, result };
}

/** Beside the text: a stable code clients branch on (never the message), and data such as the allowed moves. */
export interface ErrorExtra {
  errorCode?: string;
  meta?: Record<string, unknown>;
  /** Sent as the Retry-After header (whole seconds; a 429's or a 503's wait before trying again). */
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  readonly statusCode: number;
  readonly extra: ErrorExtra | undefined;
  constructor(statusCode: number, message: string, extra?: ErrorExtra) {
    super(message);
    this.statusCode = statusCode;
    this.extra = extra;
  }
}

export function sendError(reply: FastifyReply, statusCode: number, message: string, extra?: ErrorExtra): FastifyReply {
  const body: Envelope<string> & { errorCode?: string } = { code: statusCode, result: message };
  if (extra?.errorCode) body.errorCode = extra.errorCode;
  if (extra?.meta) body.meta = extra.meta;
  if (extra?.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(extra.retryAfterSeconds))));
  return reply.code(statusCode).send(body);
}
