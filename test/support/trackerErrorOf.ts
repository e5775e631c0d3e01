import { expect } from 'vitest';
import { TrackerError } from '../../shared/trackerError.ts';

/** The TrackerError `action` throws (fails the test when it throws nothing or something else). */
export function trackerErrorOf(action: () => unknown): TrackerError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(TrackerError);
    return error as TrackerError;
  }
  throw new Error('expected a TrackerError');
}
