/**
 * Password hashes with Node's built-in scrypt (no native add-on, no new package). Stored as
 * `scrypt$<N>$<r>$<p>$<salt b64url>$<key b64url>`: the parameters travel with each hash, so they
 * can be raised later without invalidating existing passwords (`needsRehash` upgrades a hash at
 * the next successful login).
 *
 * Parameters: N=2^15, r=8, p=1 (32 MiB, ~50 ms on a current server core, ~160 ms on our CI
 * machines), 16-byte random salt, 64-byte key. That is OWASP's scrypt floor for memory with p=1;
 * login is also rate-limited per IP and per e-mail, which bounds the CPU an attacker can burn.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** Upper bounds accepted when reading a stored hash (a corrupted row must not allocate gigabytes). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly N=2^15, r=8, so allow headroom. */
const maxmem = (N: number, r: number) => 128 * N * r + 16 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_PARAMS;
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || !Number.isInteger(r) || r < 1 || r > MAX_R || !Number.isInteger(p) || p < 1 || p > MAX_P) return null;
  if (salt.length < 8 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** True when `password` matches `stored`; false for a wrong password or an unreadable hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parseHash(stored);
  if (!h) return false;
  const key = await scrypt(password, h.salt, h.key.length, { N: h.N, r: h.r, p: h.p, maxmem: maxmem(h.N, h.r) });
  return timingSafeEqual(key, h.key);
}

/** A stored hash made with other (older) parameters than today's. */
export function needsRehash(stored: string): boolean {
  const h = parseHash(stored);
  return !h || h.N !== SCRYPT_PARAMS.N || h.r !== SCRYPT_PARAMS.r || h.p !== SCRYPT_PARAMS.p || h.key.length !== KEY_LENGTH;
}

/**
 * A valid hash of a random password, computed once: verifying against it when an e-mail is unknown
 * or has no password makes those answers take as long as a wrong password for a real account.
 */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}
