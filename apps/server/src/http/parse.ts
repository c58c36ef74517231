/**
 * Request validation for every area: one `parseOr400`, whose first problem answers 400 in words a
 * person can read. Each API keeps the wording its clients were written against:
 *
 * | wording     | used by                                              | message                                   | errorCode         |
 * | ----------- | ---------------------------------------------------- | ----------------------------------------- | ----------------- |
 * | `console`   | console, integration and staff APIs (the default)    | issueText                                 | `invalid_request` |
 * | `shopper`   | storefront cart, checkout, account, stock, prices    | shopperIssueText (spec copy stands alone) | none (spec §7)    |
 * | `catalog`   | storefront catalogue, URL and CMS reads              | issueText                                 | none (spec §7)    |
 *
 * A missing body or query (`undefined`/`null`) is read as `{}`.
 */
import type { z } from 'zod';
import { CART_MESSAGES, MAX_LINE_QTY } from '../cart/messages.ts';
import { ApiError } from './envelope.ts';

export type Wording = 'console' | 'shopper' | 'catalog';

/** The first issue: our own messages name their field or stand alone; zod's generic ones get the field path. */
export function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const field = issue.path.at(-1);
  if (issue.path.length === 0 || (field != null && issue.message.includes(String(field)))) return issue.message;
  return `${issue.path.join('.')}: ${issue.message}`;
}

/**
 * The first problem in words a shopper can read: a union's most specific branch issue, and the
 * cart's spec copy (cart/messages.ts, spec §5 and §8) stands alone, whatever field it is about.
 */
export function shopperIssueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  // A union reports its branches' issues nested; the most specific one is the useful one.
  if (issue.code === 'invalid_union' && 'errors' in issue && Array.isArray(issue.errors)) {
    const nested = (issue.errors as z.core.$ZodIssue[][]).flat();
    const specific = nested.find((i) => i.code !== 'invalid_type' || i.path.length > 1) ?? nested[0];
    if (specific) return shopperText(specific);
  }
  return shopperText(issue);
}

function shopperText(issue: z.core.$ZodIssue): string {
  const field = issue.path.at(-1);
  if (issue.path.length === 0 || (field != null && issue.message.includes(String(field)))) return issue.message;
  if (Object.values(CART_MESSAGES).includes(issue.message as never) || issue.message === CART_MESSAGES.qtyTooLarge(MAX_LINE_QTY)) return issue.message;
  return `${issue.path.join('.')}: ${issue.message}`;
}

/** Parse `value` with `schema`, or throw the 400 of the route's API wording (table above). */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown, wording: Wording = 'console'): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  if (wording === 'shopper') throw new ApiError(400, shopperIssueText(parsed.error));
  if (wording === 'catalog') throw new ApiError(400, issueText(parsed.error));
  throw new ApiError(400, issueText(parsed.error), { errorCode: 'invalid_request' });
}

/** `a,b, c` → ['a', 'b', 'c'], empty parts dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
