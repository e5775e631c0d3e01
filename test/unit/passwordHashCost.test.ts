import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_HASH_COST_ENV, verifyPassword } from '../../shared/domain/identity/credentials.ts';

/**
 * The cost new password hashes are made with: the test suites lower it (vitest.config.ts), a
 * deployment never sets it and gets 16384, and a hash made at any cost verifies.
 */
const costOf = (hash: string) => Number(hash.split('$')[1]);
const set = process.env[PASSWORD_HASH_COST_ENV];

afterEach(() => {
  if (set === undefined) delete process.env[PASSWORD_HASH_COST_ENV];
  else process.env[PASSWORD_HASH_COST_ENV] = set;
});

describe('the password hash cost', () => {
  it('is 16384 when not set, and anything but a power of two from 1024 to 16384 is ignored', async () => {
    for (const value of [undefined, '', 'low', '512', '1000', '2047.5', '32768']) {
      if (value === undefined) delete process.env[PASSWORD_HASH_COST_ENV];
      else process.env[PASSWORD_HASH_COST_ENV] = value;
      expect(costOf(await hashPassword('secret words')), String(value)).toBe(16384);
    }
  });

  it('is the one set, and hashes of either cost verify whatever is set now', async () => {
    process.env[PASSWORD_HASH_COST_ENV] = '1024';
    const cheap = await hashPassword('secret words');
    expect(costOf(cheap)).toBe(1024);
    delete process.env[PASSWORD_HASH_COST_ENV];
    const full = await hashPassword('secret words');
    expect(await verifyPassword('secret words', cheap)).toBe(true);
    expect(await verifyPassword('other words', cheap)).toBe(false);
    process.env[PASSWORD_HASH_COST_ENV] = '1024';
    expect(await verifyPassword('secret words', full)).toBe(true);
    expect(await verifyPassword('other words', full)).toBe(false);
  });
});
