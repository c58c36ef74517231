/**
 * The search engine's query errors as 400s with their message (bad input gets a clear 4xx, never a
 * 500). Used by the catalogue and CMS APIs.
 */
import { InvalidQueryError, SearchTermTooShortError } from '@verdant/search';
import { ApiError } from './envelope.ts';

function toApiError(error: unknown): unknown {
  if (error instanceof SearchTermTooShortError || error instanceof InvalidQueryError)
    return new ApiError(400, error.message);
  return error;
}

/** Run an engine call (sync or async), turning its query errors into 400s with their message. */
export function searching<T>(run: () => T): T {
  try {
    const result = run();
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw toApiError(error);
      }) as T;
    }
    return result;
  } catch (error) {
    throw toApiError(error);
  }
}
