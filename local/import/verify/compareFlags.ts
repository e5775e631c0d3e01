import type { FlagRecord } from '../source/index.ts';
import type { Difference } from './differences.ts';

/**
 * The flags of a bug or an attachment: type, status, setter and requestee.
 *
 * FLAG_TYPE_BY_NAME: flags are matched by their type's name, not by flag or type id, which the
 * target may number itself. A type may allow several flags on one bug (`is_multiplicable`), so
 * the flags of a type compare as a multiset: equal ones pair off first, and what is left is
 * paired in order, so one changed status reads as one difference, not a missing and an extra flag.
 */

export interface FlagView {
  status: string;
  setter: string;
  requestee: string | null;
}

const viewOf = (flag: FlagRecord): FlagView => ({
  status: flag.status,
  setter: flag.setter,
  requestee: flag.requestee,
});
const keyOf = (flag: FlagRecord) => JSON.stringify(viewOf(flag));

export function compareFlags(
  on: { kind: 'bug' | 'attachment'; id: number },
  source: readonly FlagRecord[],
  target: readonly FlagRecord[],
): Difference[] {
  const names = [...new Set([...source, ...target].map((flag) => flag.name))].sort();
  const differences: Difference[] = [];
  for (const name of names) {
    const left = source.filter((flag) => flag.name === name).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
    const right = target.filter((flag) => flag.name === name).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
    const unmatched = [...right];
    const leftOver: FlagRecord[] = [];
    for (const flag of left) {
      const match = unmatched.findIndex((other) => keyOf(other) === keyOf(flag));
      if (match >= 0) unmatched.splice(match, 1);
      else leftOver.push(flag);
    }
    for (let index = 0; index < Math.max(leftOver.length, unmatched.length); index++)
      differences.push({
        kind: 'flag',
        id: on.id,
        field: `${on.kind} flag ${name}`,
        source: leftOver[index] ? viewOf(leftOver[index]) : null,
        target: unmatched[index] ? viewOf(unmatched[index]) : null,
      });
  }
  return differences;
}
