import { createHash, randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * Secrets never stored in clear: passwords with scrypt and a per-user salt, API keys and login
 * tokens (long random values, so a fast hash is enough) as SHA-256.
 */
const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

const SCRYPT_PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;
const SCHEME = 'scrypt';

/**
 * The cost (scrypt's N) new hashes are made with: 16384 unless `TRACKER_PASSWORD_HASH_COST` names
 * a power of two from 1024 up. The test suites set it low (vitest.config.ts): their hundreds of
 * accounts and password logins each cost a fifth of a second of CPU at full cost on a busy
 * two-core machine. The stack never sets it. A stored hash names its own cost, so hashes made at
 * any cost verify.
 */
export const PASSWORD_HASH_COST_ENV = 'TRACKER_PASSWORD_HASH_COST';
function hashCost(): number {
  const cost = Number(process.env[PASSWORD_HASH_COST_ENV]);
  return Number.isInteger(cost) && cost >= 1024 && cost <= SCRYPT_PARAMS.N && (cost & (cost - 1)) === 0
    ? cost
    : SCRYPT_PARAMS.N;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = hashCost();
  const derived = await scrypt(password, salt, KEY_LENGTH, { ...SCRYPT_PARAMS, N });
  return [SCHEME, N, SCRYPT_PARAMS.r, SCRYPT_PARAMS.p, salt.toString('base64'), derived.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, expected] = stored.split('$');
  if (scheme !== SCHEME || !salt || !expected) return false;
  const expectedBytes = Buffer.from(expected, 'base64');
  const derived = await scrypt(password, Buffer.from(salt, 'base64'), expectedBytes.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT_PARAMS.maxmem,
  });
  return timingSafeEqual(derived, expectedBytes);
}

/** A hash that stands in for a user without a password, so a failed lookup costs as much as a real one. */
let decoyHash: Promise<string> | undefined;
export function passwordDecoy(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(12).toString('hex'));
  return decoyHash;
}

/** API keys look like Bugzilla's: 40 alphanumeric characters. */
export function generateApiKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: 40 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

export function generateLoginToken(userId: number): string {
  // Bugzilla's tokens read `<user id>-<random>`; clients treat them as opaque.
  return `${userId}-${randomBytes(15).toString('base64url')}`;
}

export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
