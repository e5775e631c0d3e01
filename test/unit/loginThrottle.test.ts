import { describe, expect, it } from 'vitest';
import {
  claimSlot,
  failureSource,
  LOCKOUT_WINDOW_MS,
  UNKNOWN_SOURCE,
} from '../../shared/domain/identity/loginThrottle.ts';

describe('failureSource: the address login failures are counted under', () => {
  it.each([
    ['192.0.2.10', '192.0.2.10'],
    [' 192.0.2.10 ', '192.0.2.10'],
    ['::ffff:192.0.2.10', '192.0.2.10'],
    ['::FFFF:192.0.2.10', '192.0.2.10'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['1:2:3:4:5:6:192.0.2.1', '1:2:3:4::/64'],
  ])('counts %s as %s', (address, source) => {
    expect(failureSource(address)).toBe(source);
  });

  it.each([undefined, '', 'unknown', '192.0.2.300', 'not-an-address', '1.2.3.4, 5.6.7.8'])(
    'puts a missing or unreadable address (%s) in one shared bucket',
    (address) => {
      expect(failureSource(address)).toBe(UNKNOWN_SOURCE);
    },
  );
});

describe('claimSlot', () => {
  const now = 1_750_000_000_000;

  it('adds this attempt to the failures still inside the window', () => {
    expect(claimSlot([now - LOCKOUT_WINDOW_MS - 1, now - 1000], 5, now)).toEqual([now - 1000, now]);
  });

  it('refuses a claim once max_login_attempts failures are inside the window', () => {
    expect(claimSlot([now - 3, now - 2, now - 1], 3, now)).toBeNull();
    expect(claimSlot([now - LOCKOUT_WINDOW_MS, now - 2, now - 1], 3, now)).toEqual([now - 2, now - 1, now]);
  });
});
