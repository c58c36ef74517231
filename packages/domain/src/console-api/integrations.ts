/**
 * The console's API-key and webhook routes (apps/server/src/integration/console-routes.ts and
 * webhooks/console-routes.ts, under /stores/:storeId).
 */
import { z } from 'zod';
import { dbId } from './fields.ts';
import { WEBHOOK_EVENT_TYPES } from './live.ts';

export const API_SCOPES = ['menu:write', 'orders:read', 'orders:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const keyNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the key a name (e.g. the POS it is for).')
  .max(80, 'The name is too long (80 characters at most).');
export const scopesSchema = z
  .array(z.enum(API_SCOPES, { message: `Scopes must be among: ${API_SCOPES.join(', ')}.` }))
  .min(1, 'Choose at least one scope.')
  .transform((list) => API_SCOPES.filter((s) => list.includes(s)));

/** POST /api-keys. */
export const apiKeyCreateBody = z.strictObject({ name: keyNameSchema, scopes: scopesSchema });
export type ApiKeyCreateRequest = z.input<typeof apiKeyCreateBody>;

/** GET /api-keys (each), POST /api-keys/:keyId/revoke. */
export interface ApiKeyView {
  id: number;
  store_id: number;
  name: string;
  /** `vdk_<prefix>_…`: enough to tell keys apart, useless to call with. */
  hint: string;
  scopes: ApiScope[];
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** POST /api-keys: the key itself is in this answer only. */
export interface ApiKeyCreated extends ApiKeyView {
  key: string;
}

const url = z.string().trim().min(1, 'Enter the URL to send webhooks to.').max(2000, 'The URL is too long.');
const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `Events must be among: ${WEBHOOK_EVENT_TYPES.join(', ')}.` }))
  .min(1, 'Choose at least one event.')
  .transform((list) => [...new Set(list)]);
const description = z.string().trim().max(200, 'The description is too long (200 characters at most).');

/** POST /webhooks. */
export const webhookCreateBody = z.strictObject({ url, events, description: description.optional() });
export type WebhookCreateRequest = z.input<typeof webhookCreateBody>;
/** PATCH /webhooks/:endpointId. */
export const webhookPatchBody = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  description: description.nullable().optional(),
  disabled: z.boolean().optional(),
});
export type WebhookPatchRequest = z.input<typeof webhookPatchBody>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'disabled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** GET /webhooks/:endpointId/deliveries. */
export const webhookDeliveriesQuery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  cursor: dbId('cursor: not a cursor from this list').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type WebhookDeliveriesQuery = z.input<typeof webhookDeliveriesQuery>;

/** GET /webhooks (each), POST, PATCH. */
export interface WebhookEndpointView {
  id: number;
  store_id: number;
  url: string;
  description: string | null;
  events: string[];
  disabled: boolean;
  disabled_at: string | null;
  disabled_reason: string | null;
  /** ISO; while set, the previous secret still signs beside the current one. */
  previous_secret_until: string | null;
  created_at: string;
  updated_at: string;
}

/** POST /webhooks and POST /webhooks/:endpointId/rotate-secret: the secret is in these answers only. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  secret: string;
}

/** DELETE /webhooks/:endpointId. */
export interface WebhookDeleted {
  deleted: number;
}

export interface WebhookAttemptView {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  node: string | null;
}

/** One delivery (POST /webhook-deliveries/:deliveryId/replay answers it). */
export interface WebhookDeliveryView {
  id: number;
  event_id: string;
  event_type: string | null;
  endpoint_id: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  attempt_log: WebhookAttemptView[];
}

/** GET /webhooks/:endpointId/deliveries: newest first; `nextCursor` is the next page's `cursor`. */
export interface WebhookDeliveryPage {
  items: WebhookDeliveryView[];
  nextCursor: string | null;
}
