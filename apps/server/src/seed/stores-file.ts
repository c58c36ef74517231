import { readFileSync } from 'node:fs';
import { parseStoresFile, type StoresFile } from '@verdant/domain';

/** Read and validate a stores file; errors name the file and every bad field. */
export function readStoresFile(path: string): StoresFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read stores file ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return parseStoresFile(json);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n(in ${path})`, { cause: error });
  }
}
