/**
 * Multistore by path (spec §4: storeCode is added in multistore mode). A page under `/{code}/…`
 * shows a store its host does not name, so its API calls carry `storeCode={code}`, by which the
 * server resolves `/api/*` calls (apps/server/src/app.ts). The root route sets it in the browser;
 * null (the default, and always on the server) means the host names the store.
 */
let apiStoreCode: string | null = null;

export function setApiStoreCode(code: string | null): void {
  apiStoreCode = code;
}

export function apiStoreCodeParam(): string | null {
  return apiStoreCode;
}
