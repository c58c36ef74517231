/**
 * `npm run api-key -- <command>`: the integration API's keys from the command line (the console's
 * "API keys" page does the same). Opens the database the server would use, migrates it and brings
 * the stores table up to the stores file first, as `npm start` does.
 *
 *   create --store CODE --name NAME --scopes menu:write,orders:read[,orders:write]
 *   list --store CODE
 *   revoke --id N
 *
 * `create` prints the key once; it is stored hashed and cannot be shown again (revoke and create a
 * new one when it is lost).
 */
import { runWhenMain } from '../cli/run.ts';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { dbId } from '../http/ids.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, migrateToLatest, syncStores } from '../db/index.ts';
import type { ApiScope, Database } from '../db/schema.ts';
import { readStoresFile } from '../seed/index.ts';
import { API_SCOPES, createApiKey, keyNameSchema, listApiKeys, revokeApiKey, scopesSchema } from './keys.ts';

export const API_KEY_USAGE = [
  'Usage:',
  `  npm run api-key -- create --store CODE --name NAME --scopes ${API_SCOPES.join(',')}`,
  '  npm run api-key -- list --store CODE',
  '  npm run api-key -- revoke --id N',
].join('\n');

export type ApiKeyCommand =
  | { command: 'create'; store: string; name: string; scopes: ApiScope[] }
  | { command: 'list'; store: string }
  | { command: 'revoke'; id: number };

function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${what}: ${parsed.error.issues[0]?.message ?? 'invalid'}\n${API_KEY_USAGE}`);
  return parsed.data;
}

const storeCode = z.string().trim().toLowerCase().min(1, 'give the store code');

export function parseApiKeyArgs(argv: string[]): ApiKeyCommand {
  const [command, ...rest] = argv;
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { store: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, id: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${API_KEY_USAGE}`);
  }
  if (command === 'list') return { command, store: check(storeCode, values.store, '--store') };
  if (command === 'revoke') return { command, id: check(dbId(), values.id, '--id') };
  if (command !== 'create') throw new Error(API_KEY_USAGE);
  return {
    command,
    store: check(storeCode, values.store, '--store'),
    name: check(keyNameSchema, values.name, '--name'),
    scopes: check(
      scopesSchema,
      (values.scopes ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      '--scopes',
    ),
  };
}

/** Run a command against a database; returns the lines to print. */
export async function runApiKeyCommand(db: Kysely<Database>, args: ApiKeyCommand, now: Date): Promise<string[]> {
  const storeId = async (code: string) => {
    const store = await db.selectFrom('stores').select('id').where('code', '=', code).executeTakeFirst();
    if (!store) {
      const known = (await db.selectFrom('stores').select('code').orderBy('id').execute()).map((s) => s.code);
      throw new Error(`Unknown store code ${code}. Known: ${known.join(', ')}`);
    }
    return store.id;
  };
  if (args.command === 'create') {
    const key = await createApiKey(db, await storeId(args.store), { name: args.name, scopes: args.scopes, createdBy: 'command line' }, now);
    return [
      `Created API key ${key.id} "${key.name}" for ${args.store} (${key.scopes.join(', ')}).`,
      'The key (shown only now; it is stored hashed and cannot be shown again):',
      key.key,
    ];
  }
  if (args.command === 'list') {
    const keys = await listApiKeys(db, await storeId(args.store));
    if (keys.length === 0) return [`No API keys for ${args.store} yet.`];
    return keys.map(
      (k) =>
        `${String(k.id).padStart(4)}  ${k.hint.padEnd(16)} ${k.name.padEnd(24)} ${k.scopes.join(',').padEnd(34)} last used ${k.last_used_at ?? 'never'}${k.revoked_at ? `  [revoked ${k.revoked_at}]` : ''}`,
    );
  }
  try {
    const key = await revokeApiKey(db, null, args.id, now);
    return [`Revoked API key ${key.id} "${key.name}" (revoked at ${key.revoked_at}).`];
  } catch {
    throw new Error(`No API key with id ${args.id}.`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) return console.log(API_KEY_USAGE);
  const args = parseApiKeyArgs(argv);
  const config = loadConfig();
  const { db, destroy } = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    await syncStores(db, readStoresFile(config.storesFile));
    for (const line of await runApiKeyCommand(db, args, new Date())) console.log(line);
  } finally {
    await destroy();
  }
}

runWhenMain(import.meta.url, () => main());
