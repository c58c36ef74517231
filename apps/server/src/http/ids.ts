/**
 * Ids and id cursors in requests (issue 26): the schemas live with the console's contracts
 * (@verdant/domain/console-api, fields.ts) so the server and the console read the same rule.
 */
export { dbId, ID_MESSAGE, INT4_MAX, isDbId } from '@verdant/domain/console-api';
