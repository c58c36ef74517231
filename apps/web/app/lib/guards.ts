import { data } from 'react-router';
import { isStorePrefixValid } from './paths.ts';

/** A 404 for the whole request (the document response status becomes 404). */
export function notFound(): never {
  throw data(null, { status: 404, statusText: 'Not Found' });
}

/** Routes of the `/:storeCode/...` tree answer only for the store the server resolved from that prefix. */
export function assertStorePrefix(storeCode: string | undefined, basePath: string): void {
  if (!isStorePrefixValid(storeCode, basePath)) notFound();
}
