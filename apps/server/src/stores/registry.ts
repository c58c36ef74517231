import fs from 'node:fs';
import {
  findStoreByCode,
  parseStoresFile,
  resolveStore,
  type Store,
  type StoreResolution,
  type StoresFile,
} from '@verdant/domain';

/**
 * The deployment's stores, loaded once from the stores file and validated. Resolution per request
 * is the pure rule set of @verdant/domain; this class only holds the file and precomputed views.
 */
export class StoreRegistry {
  readonly file: StoresFile;

  constructor(file: StoresFile) {
    this.file = file;
  }

  static fromFile(filePath: string): StoreRegistry {
    let raw: string;
    try {
      raw = fs.readFileSync(filePath, 'utf8');
    } catch (err) {
      throw new Error(`Cannot read stores file ${filePath}: ${(err as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw new Error(`Stores file ${filePath} is not valid JSON: ${(err as Error).message}`);
    }
    try {
      return new StoreRegistry(parseStoresFile(json));
    } catch (err) {
      throw new Error(`${(err as Error).message}\n(in ${filePath})`);
    }
  }

  get stores(): readonly Store[] {
    return this.file.stores;
  }

  byCode(code: string): Store | undefined {
    return findStoreByCode(this.file, code);
  }

  resolve(host: string | undefined, pathname: string): StoreResolution {
    return resolveStore({ host, pathname }, this.file);
  }
}
