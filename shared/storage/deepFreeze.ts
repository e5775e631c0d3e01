/**
 * Freezes a value and everything it holds. Reads that are shared (the catalogue cache across
 * requests, item and query memos within one) are frozen, so code that changes what it read,
 * instead of a copy, fails loudly in the tests and locally rather than corrupting another
 * reader's view. The deployed functions (NODE_ENV=production, lib/trackerFunction.ts) skip it:
 * freezing every item of a 1,000-bug page is CPU the tests have already spent.
 */
const FREEZE = process.env.NODE_ENV !== 'production';

export function deepFreeze<T>(value: T): T {
  // Byte arrays cannot be frozen (their elements stay writable); they are left as they are.
  if (FREEZE && value && typeof value === 'object' && !ArrayBuffer.isView(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
