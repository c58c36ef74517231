/**
 * Standard Webhooks signing: `webhook-signature` = `v1,<base64 HMAC-SHA256("{id}.{ts}.{body}")>`
 * made by the `standardwebhooks` package itself, so what receivers verify with it is exactly
 * what we compute. During a secret rotation both secrets sign (space-separated), so a receiver
 * that still has the old secret keeps verifying until the overlap ends.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` + base64 of 24 random bytes (the form Standard Webhooks libraries read). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface SigningSecrets {
  secret: string;
  previous_secret: string | null;
  /** ISO; the previous secret signs while `now` is before it. */
  previous_secret_until: string | null;
}

/** The secrets that sign at `now`: the current one, then the previous one during the overlap. */
export function activeSecrets(endpoint: SigningSecrets, now: Date): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previous_secret && endpoint.previous_secret_until && endpoint.previous_secret_until > now.toISOString()) {
    secrets.push(endpoint.previous_secret);
  }
  return secrets;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three Standard Webhooks headers for `body` sent as message `id` at `at` (whole seconds). */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}
