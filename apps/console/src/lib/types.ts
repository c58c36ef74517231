/**
 * The console API's shapes: re-exported from the one contract the server validates and answers with
 * (@verdant/domain/console-api), type-only so the console bundle carries none of its schemas.
 */
export type * from '@verdant/domain/console-api';

/** The console's older names of the webhook views. */
export type {
  WebhookAttemptView as WebhookAttempt,
  WebhookDeliveryView as WebhookDelivery,
  WebhookEndpointView as WebhookEndpoint,
} from '@verdant/domain/console-api';
