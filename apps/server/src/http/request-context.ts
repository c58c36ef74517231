/**
 * Issue 32: the id of the request being served, wherever the code runs during it (AsyncLocalStorage,
 * entered by buildApp's first onRequest hook around the rest of the request). Fastify's own logger
 * already prints it as `reqId` on `request.log`; code that has no request at hand (the outbox append
 * deep in an order's transaction) reads it here, so the events it writes carry it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<{ requestId: string }>();

/** Run the rest of the request (`next`) with its id known. */
export function withRequestId(requestId: string, next: () => void): void {
  // The id may come from the client's X-Request-Id (a proxy's): kept to 128 characters when stored.
  storage.run({ requestId: requestId.slice(0, 128) }, next);
}

/** The id of the request this code serves, or undefined outside a request (jobs, CLIs, tests). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
