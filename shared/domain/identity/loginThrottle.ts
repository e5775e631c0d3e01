/**
 * Bugzilla's max_login_attempts: after that many failed password logins for one account within
 * the window, password logins for it are refused until the oldest failure leaves the window.
 */
export const LOCKOUT_WINDOW_MS = 30 * 60 * 1000;

export function recentFailures(failures: readonly number[], now: number): number[] {
  return failures.filter((at) => now - at < LOCKOUT_WINDOW_MS);
}

/**
 * A password check claims a slot before the password is compared: the failure list with this
 * attempt added, or null when the account is locked (max_login_attempts slots taken within the
 * window). The slot is cleared with the whole list when the login succeeds.
 */
export function claimSlot(failures: readonly number[], maxAttempts: number, now: number): number[] | null {
  const recent = recentFailures(failures, now);
  return recent.length >= maxAttempts ? null : [...recent, now];
}
