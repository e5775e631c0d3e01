/**
 * Freezes a value and everything it holds. Reads that are shared (the catalogue cache across
 * requests, item and query memos within one) are frozen, so code that changes what it read,
 * instead of a copy, fails loudly in the tests rather than corrupting another reader's view.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
