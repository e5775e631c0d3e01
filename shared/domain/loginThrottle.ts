import { TrackerError } from '../trackerError.ts';

/**
 * Bugzilla's max_login_attempts: after that many failed password logins for one account within
 * the window, password logins for it are refused until the oldest failure leaves the window.
 */
export const LOCKOUT_WINDOW_MS = 30 * 60 * 1000;

export function recentFailures(failures: readonly number[], now: number): number[] {
  return failures.filter((at) => now - at < LOCKOUT_WINDOW_MS);
}

export function assertNotLockedOut(failures: readonly number[], maxAttempts: number, now: number): void {
  const recent = recentFailures(failures, now).sort((a, b) => a - b);
  if (recent.length < maxAttempts) return;
  const unlockAt = recent[recent.length - maxAttempts] + LOCKOUT_WINDOW_MS;
  const minutes = Math.max(1, Math.ceil((unlockAt - now) / 60_000));
  throw new TrackerError(
    32000,
    `This account has been locked after ${maxAttempts} failed login attempts within 30 minutes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or use an API key.`,
  );
}
