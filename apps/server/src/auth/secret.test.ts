import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { resolveAuthSecret } from './secret.ts';

describe('auth secret and SMS config', () => {
  it('generates the secret once into DATA_DIR/auth-secret (0600) and keeps it across restarts', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'verdant-secret-'));
    try {
      const first = resolveAuthSecret(dir);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(Buffer.from(resolveAuthSecret(dir)).equals(Buffer.from(first))).toBe(true);
      expect((await stat(path.join(dir, 'auth-secret'))).mode & 0o777).toBe(0o600);
      expect(new TextDecoder().decode(resolveAuthSecret(dir, 'x'.repeat(32)))).toBe('x'.repeat(32));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('reads AUTH_SECRET, SMS_PROVIDER and SMS_HTTP_URL', () => {
    expect(loadConfig({})).toMatchObject({ authSecret: undefined, smsProvider: 'outbox' });
    expect(() => loadConfig({ AUTH_SECRET: 'short' })).toThrow(/AUTH_SECRET/);
    expect(() => loadConfig({ SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL/);
    expect(loadConfig({ SMS_PROVIDER: 'http', SMS_HTTP_URL: 'https://sms.example/send' })).toMatchObject({ smsProvider: 'http', smsHttpUrl: 'https://sms.example/send' });
  });
});
