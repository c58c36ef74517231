/**
 * The HMAC key of customer tokens and login-code hashes. AUTH_SECRET wins; otherwise a random key
 * is generated once into DATA_DIR/auth-secret (mode 0600) so that a restart keeps sessions. Only
 * valid for a single node: several nodes must share AUTH_SECRET (see config.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export function resolveAuthSecret(dataDir: string, configured?: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, 'auth-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': never overwrite a key another process wrote first (its tokens would all become invalid).
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}
