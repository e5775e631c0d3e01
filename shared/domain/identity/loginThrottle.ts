import { isIPv4, isIPv6 } from 'node:net';

/**
 * Bugzilla's max_login_attempts: after that many failed password logins for one account from one
 * client address within the window, password logins for that account from that address are
 * refused until the oldest failure leaves the window. Other addresses are not affected, so a
 * stranger's wrong guesses cannot lock the owner out (Bugzilla keys its `login_failure` rows on
 * user and address alike, and a success clears only its own address's rows).
 */
export const LOCKOUT_WINDOW_MS = 30 * 60 * 1000;

/** The bucket for a request whose address is missing or unreadable (never the case behind API Gateway). */
export const UNKNOWN_SOURCE = 'unknown';

/**
 * The client address failures are counted under: the address itself for IPv4, the /64 prefix for
 * IPv6. One IPv6 subscriber usually holds a whole /64 (2^64 addresses), so counting single
 * addresses would give them an unlimited number of guesses; a /64 is one site, as an IPv4
 * address is. An IPv4 address carried in IPv6 form (`::ffff:a.b.c.d`, as a dual-stack socket
 * reports it) counts as that IPv4 address.
 */
export function failureSource(sourceIp: string | undefined): string {
  const address = (sourceIp ?? '').trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return `${ipv6Groups(address.replace(/%.*$/, '')).slice(0, 4).join(':')}::/64`;
  return UNKNOWN_SOURCE;
}

/** The eight 16-bit groups of a valid IPv6 address, without leading zeros. */
function ipv6Groups(address: string): string[] {
  const parse = (part: string): string[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [group];
          // An embedded IPv4 tail (`64:ff9b::1.2.3.4`) is the last two groups.
          const [a, b, c, d] = group.split('.').map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const [head, tail] = address.split('::');
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}

export function recentFailures(failures: readonly number[], now: number): number[] {
  return failures.filter((at) => now - at < LOCKOUT_WINDOW_MS);
}

/**
 * A password check claims a slot before the password is compared: the failure list of this
 * account and address with this attempt added, or null when they are locked (max_login_attempts
 * slots taken within the window). The slot is cleared with the whole list when the login succeeds.
 */
export function claimSlot(failures: readonly number[], maxAttempts: number, now: number): number[] | null {
  const recent = recentFailures(failures, now);
  return recent.length >= maxAttempts ? null : [...recent, now];
}
