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

export class ApiError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.code(statusCode).send({ code: statusCode, result: message } satisfies Envelope<string>);
}
