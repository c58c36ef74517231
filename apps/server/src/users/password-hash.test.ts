import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword } from './password-hash.ts';

describe('password hashes (scrypt)', () => {
  it('stores the parameters and a random salt with the hash, and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMS.N}\\$${SCRYPT_PARAMS.r}\\$${SCRYPT_PARAMS.p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{86}$`));
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horse', b)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse ', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats the same text in composed and decomposed Unicode as one password', async () => {
    const h = await hashPassword('Caf\u00e9-p\u00e4ss');
    expect(await verifyPassword('Cafe\u0301-pa\u0308ss', h)).toBe(true);
  });

  it('refuses unreadable or tampered hashes instead of throwing', async () => {
    const h = await hashPassword('password1');
    const parts = h.split('$');
    expect(await verifyPassword('password1', 'plain-text')).toBe(false);
    expect(await verifyPassword('password1', ['bcrypt', ...parts.slice(1)].join('$'))).toBe(false);
    expect(await verifyPassword('password1', [...parts.slice(0, 1), String(2 ** 30), ...parts.slice(2)].join('$'))).toBe(false);
    expect(await verifyPassword('password1', [...parts.slice(0, 1), '1000', ...parts.slice(2)].join('$'))).toBe(false);
    const flipped = Buffer.from(parts[5], 'base64url');
    flipped[0] ^= 1;
    expect(await verifyPassword('password1', [...parts.slice(0, 5), flipped.toString('base64url')].join('$'))).toBe(false);
  });

  it('verifies a hash made with older parameters and says it needs a rehash', async () => {
    const salt = randomBytes(16);
    const old = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64url'), scryptSync('password1', salt, 64, { N: 2 ** 14, r: 8, p: 1 }).toString('base64url')].join('$');
    expect(await verifyPassword('password1', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('password1'))).toBe(false);
    expect(needsRehash('garbage')).toBe(true);
  });
});
