/**
 * Request validation for every area (the console and integration routes use it; the storefront's
 * older routes still use cart/routes.ts `parseOr400`, whose wording keeps the cart's spec copy).
 * The first problem answers 400 in words a person can read: our own messages stand alone, zod's
 * generic ones get the field path.
 */
import type { z } from 'zod';
import { ApiError } from './envelope.ts';

export function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const field = issue.path.at(-1);
  if (issue.path.length === 0 || (field != null && issue.message.includes(String(field)))) return issue.message;
  return `${issue.path.join('.')}: ${issue.message}`;
}

export function parseOr400<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new ApiError(400, issueText(parsed.error), { errorCode: 'invalid_request' });
  return parsed.data;
}
