import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { applyFlagInputs, type FlagInput, type RequesteeRules } from '../../shared/domain/bug/bugFlags.ts';
import type { FlagType } from '../../shared/domain/catalog/flagTypes.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';
import {
  aBug,
  aFlag,
  bugEnvironment,
  callerAs,
  EVERY_GROUP,
  FLAG_TYPE,
  flagType,
  GROUP,
  GROUPS,
  loginOf,
  USER,
  updateBug,
  userAsCaller,
} from './support/bugCatalogue.ts';

/**
 * Who may be asked for a flag (Bugzilla's _check_requestee): someone who can see the bug as the
 * request leaves it, and for a flag on a private attachment an insider; anyone else is refused
 * with Bugzilla's flag_requestee_unauthorized(_attachment), which has no code of its own (32000).
 */
const REVIEW = flagType(1, 'review');
/** The requestees' groups: the stranger is in none, the insider in the insider group (admin by default) and secret. */
const GROUPS_OF: Record<number, string[]> = { [USER.stranger]: [], [USER.insider]: ['admin', 'secret'] };
const requestee = (id: number) => userAsCaller(id, GROUPS_OF[id] ?? []);
const groupName = (id: number) => GROUPS.find((group) => group.id === id)?.name;

function ask(login: string, bug: Bug, attachment?: RequesteeRules['attachment'], existing = bug.flags) {
  let next = 500;
  const ids = new Map(Object.entries(USER).map(([name, id]) => [loginOf(name as keyof typeof USER), id]));
  return applyFlagInputs(existing, [{ name: 'review', status: '?', requestee: login } as FlagInput], {
    types: [REVIEW] as FlagType[],
    callerId: USER.admin,
    inGroupId: () => true,
    userIdOf: (name) => ids.get(name),
    requestees: { bug, attachment, requestee, groupName, parameters: DEFAULT_PARAMETERS },
    now: '2026-05-05T00:00:00Z',
    nextFlagId: () => next++,
  });
}

const secretBug = aBug(1, { groupIds: [GROUP.secret] });

describe('flag requestees', () => {
  it('refuses someone who cannot see the bug, naming them, the flag and the bug (32000)', () => {
    const error = trackerErrorOf(() => ask(loginOf('stranger'), secretBug));
    expect(error.code).toBe(32000);
    expect(error.message).toContain(`You asked ${loginOf('stranger')} for 'review' on bug 1,`);
    expect(error.message).toContain('cannot see it');
  });

  it('asks someone in the bug groups, or on the CC list of a bug open to it', () => {
    expect(ask(loginOf('insider'), secretBug)[0]?.requesteeId).toBe(USER.insider);
    const ccBug = aBug(1, { groupIds: [GROUP.secret], ccIds: [USER.stranger], isCcAccessible: true });
    expect(ask(loginOf('stranger'), ccBug)[0]?.requesteeId).toBe(USER.stranger);
    expect(ask(loginOf('stranger'), aBug(1))[0]?.requesteeId).toBe(USER.stranger);
  });

  it('refuses a non-insider for a flag on a private attachment, and says which attachment', () => {
    const error = trackerErrorOf(() => ask(loginOf('stranger'), aBug(1), { id: 7, isPrivate: true }));
    expect(error.code).toBe(32000);
    expect(error.message).toContain('on bug 1, attachment 7, but that attachment is private');
    expect(ask(loginOf('insider'), aBug(1), { id: 7, isPrivate: true })[0]?.requesteeId).toBe(USER.insider);
    expect(ask(loginOf('stranger'), aBug(1), { id: 7, isPrivate: false })[0]?.requesteeId).toBe(USER.stranger);
  });

  it('checks the bug first: a hidden bug is the error even when the attachment is private too', () => {
    const error = trackerErrorOf(() => ask(loginOf('stranger'), secretBug, { id: 7, isPrivate: true }));
    expect(error.message).toContain('on bug 1, attachment 7, but that bug is restricted');
  });

  it('refuses a requestee it could not read, rather than let them through', () => {
    const error = trackerErrorOf(() =>
      applyFlagInputs([], [{ name: 'review', status: '?', requestee: 'ghost@tracker.test' }], {
        types: [REVIEW],
        callerId: USER.admin,
        inGroupId: () => true,
        userIdOf: () => 99,
        requestees: { bug: aBug(1), requestee: () => undefined, groupName, parameters: DEFAULT_PARAMETERS },
        now: '2026-05-05T00:00:00Z',
        nextFlagId: () => 1,
      }),
    );
    expect(error.code).toBe(32000);
  });

  it('leaves a requestee already asked alone, as Bugzilla does', () => {
    const asked = aFlag(3, REVIEW.id, { requesteeId: USER.stranger });
    const bug = aBug(1, { groupIds: [GROUP.secret], flags: [asked] });
    expect(ask(loginOf('stranger'), bug)).toEqual([asked]);
  });

  it('judges the bug as the update leaves it: a group added in the same request counts', () => {
    const env = bugEnvironment({ caller: callerAs('admin', EVERY_GROUP), requestee });
    const bug = aBug(1);
    const request = (extra: Record<string, unknown>) =>
      updateBug(env, [bug], 1, {
        flags: [{ type_id: FLAG_TYPE.review, status: '?', requestee: loginOf('stranger') }],
        ...extra,
      });
    expect(request({}).bug.flags[0]?.requesteeId).toBe(USER.stranger);
    expect(trackerErrorOf(() => request({ groups: { add: ['secret'] } })).code).toBe(32000);
    // Added to the CC list of a bug open to it in the same request, the stranger may be asked.
    expect(
      request({ groups: { add: ['secret'] }, cc: { add: [loginOf('stranger')] }, is_cc_accessible: true }).bug.flags[0]
        ?.requesteeId,
    ).toBe(USER.stranger);
  });
});
