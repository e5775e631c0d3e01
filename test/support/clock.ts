import { afterAll, beforeAll } from 'vitest';
import { s3Client } from '../../shared/storage/s3Client.ts';

/**
 * Bugzilla times have whole seconds, so a test that needs two changes to land in different
 * seconds moves the clock instead of sleeping. The app runs in the test's process (testApp.ts),
 * so a shifted `Date` there moves every time it stamps; timers stay real (retries still pause).
 */

const RealDate = globalThis.Date;
let offsetMs = 0;

/**
 * The real Date with "now" moved on by `offsetMs`: real time keeps flowing exactly (unlike a
 * ticking fake clock, which lags and would put the app behind s3rver's object times), and every
 * object it makes is a genuine Date, so `instanceof Date` holds both ways.
 */
const SteppableDate = new Proxy(RealDate, {
  construct: (target, args, newTarget) =>
    Reflect.construct(target, args.length === 0 ? [RealDate.now() + offsetMs] : args, newTarget),
  apply: () => new RealDate(RealDate.now() + offsetMs).toString(),
  get: (target, property, receiver) =>
    property === 'now' ? () => RealDate.now() + offsetMs : Reflect.get(target, property, receiver),
});

/**
 * Puts the steppable clock in place for the whole test file. It is never moved back in between,
 * so stored times never go backwards; the real Date returns after the file.
 */
export function useSteppableClock(): void {
  beforeAll(() => {
    offsetMs = 0;
    globalThis.Date = SteppableDate;
  });
  afterAll(() => {
    globalThis.Date = RealDate;
    // S3 refuses a request signed days ahead (RequestTimeTooSkewed), and the SDK then corrects its
    // client's clock by the difference. The client outlives the file (the files of a project share
    // a process: vitest.config.ts), so its correction goes with the moved clock.
    s3Client().config.systemClockOffset = 0;
  });
}

/** Moves the clock on by a whole second: whatever is stamped next has a later whole-second time. */
export function nextSecond(): void {
  if (globalThis.Date !== SteppableDate) throw new Error('nextSecond needs useSteppableClock() in the test file');
  offsetMs += 1000;
}

/** Moves the clock on by whole days: a history that spans days (the reports' chart) without waiting for them. */
export function nextDays(days: number): void {
  if (globalThis.Date !== SteppableDate) throw new Error('nextDays needs useSteppableClock() in the test file');
  offsetMs += days * 86_400_000;
}

/** Moves the clock on by `ms` (a token's lifetime, say): whatever runs next sees that much later. */
export function advanceClock(ms: number): void {
  if (globalThis.Date !== SteppableDate) throw new Error('advanceClock needs useSteppableClock() in the test file');
  offsetMs += ms;
}
