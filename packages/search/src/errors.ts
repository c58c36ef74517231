import { MESSAGES } from '@verdant/domain';

/** Free text shorter than the spec's minimum (3 characters after trimming, spec §5/§9). */
export class SearchTermTooShortError extends Error {
  readonly code = 'search_term_too_short';
  constructor() {
    super(MESSAGES.searchTermTooShort);
    this.name = 'SearchTermTooShortError';
  }
}

/** A query the engine cannot run as asked: unknown filter key, malformed value, bad shape. The API
 *  answers it with 400 and this message, never a 500. */
export class InvalidQueryError extends Error {
  readonly code = 'invalid_query';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidQueryError';
  }
}
