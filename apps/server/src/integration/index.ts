/**
 * The integration API for POS systems (issue 13): per-store API keys (./keys.ts, managed in the
 * console and by `npm run api-key`), and the /api/integration/v1 routes (./routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { registerApiKeyConsoleRoutes } from './console-routes.ts';
import { registerIntegrationRoutes, type IntegrationDeps } from './routes.ts';

export { INTEGRATION_PREFIX, integrationRateFromEnv, type IntegrationRateLimit } from './routes.ts';
export { API_SCOPES, createApiKey, listApiKeys, revokeApiKey } from './keys.ts';

export function registerIntegration(app: FastifyInstance, deps: IntegrationDeps): void {
  registerApiKeyConsoleRoutes(app, { db: deps.db, now: deps.now });
  registerIntegrationRoutes(app, deps);
}
