import { errors } from '../../errors.ts';
import { checkTextLength } from '../inputLimits.ts';
import { regexpProblem, safeRegexpTest } from '../safeRegexp.ts';
import type { GroupSummary } from './caller.ts';
import { bitmapHas, bitmapOf, bitmapWith, type UserIdBitmap } from './userIdBitmap.ts';

/**
 * A group's user_regexp on the write side: checking a new pattern, and deriving who it makes a
 * member. As in Bugzilla (which writes user_group_map rows of grant type "regexp"), membership
 * is derived when the regexp changes (for every user) and when a user is created or changes login
 * (for every regexp group), and kept on the group (GroupSummary.regexpMembers). Reading who is in
 * a group then matches no regexp: only the functions that write users or groups carry the
 * linear-time regexp engine (safeRegexp.ts), not every function that authenticates a caller.
 */

export function checkUserRegexp(pattern: string | undefined): string {
  const trimmed = (pattern ?? '').trim();
  if (trimmed === '') return '';
  // Bugzilla's groups.userregexp is a TINYTEXT.
  checkTextLength(trimmed, 'user_regexp', 255);
  const problem = regexpProblem(trimmed);
  if (problem) {
    throw errors.invalidGroupRegexp(
      `The regular expression you entered is invalid (${problem}); backreferences and lookaround are not supported: ${trimmed}`,
    );
  }
  return trimmed;
}

/** Whether the pattern matches the login: unanchored and case-insensitive, as MySQL's REGEXP in Bugzilla; an empty or invalid one matches nothing. */
export function regexpMatchesLogin(pattern: string, login: string): boolean {
  return pattern !== '' && safeRegexpTest(pattern, login, { caseInsensitive: true });
}

/** Every user the pattern makes a member. */
export function regexpMembersOf(pattern: string, users: ReadonlyArray<{ id: number; login: string }>): UserIdBitmap {
  return bitmapOf(users.filter((user) => regexpMatchesLogin(pattern, user.login)).map((user) => user.id));
}

/**
 * The regexp groups whose members change when user `userId` is created with, or changes to,
 * `login`, each with its new members.
 */
export function regexpMembershipChanges<G extends GroupSummary>(
  groups: readonly G[],
  userId: number,
  login: string,
): Array<{ group: G; regexpMembers: UserIdBitmap }> {
  const changes: Array<{ group: G; regexpMembers: UserIdBitmap }> = [];
  for (const group of groups) {
    if (group.userRegexp === '') continue;
    const member = regexpMatchesLogin(group.userRegexp, login);
    const current = group.regexpMembers ?? '';
    if (member === bitmapHas(current, userId)) continue;
    changes.push({ group, regexpMembers: bitmapWith(current, userId, member) });
  }
  return changes;
}
