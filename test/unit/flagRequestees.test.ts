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
    // The catalogue's review flag is granted by the granters group, which the stranger is put in here.
    const granter = (id: number) => (id === USER.stranger ? userAsCaller(id, ['granters']) : requestee(id));
    const env = bugEnvironment({ caller: callerAs('admin', EVERY_GROUP), requestee: granter });
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

/**
 * Bugzilla's two other refusals in _check_requestee: a disabled account (flag_requestee_disabled)
 * and, for a type with a grant group, someone outside it (flag_requestee_needs_privs), who could
 * not set the flag they are asked for. Neither has a code of its own: 32000.
 */
describe('flag requestees who could not answer', () => {
  const REVIEW_BY_GRANTERS = flagType(2, 'approval', { grantGroupId: GROUP.granters });
  const disabled = (id: number) => {
    const caller = userAsCaller(id, ['admin', 'secret', 'granters']);
    return { ...caller, user: { ...caller.user, disabledText: 'Left the project.' } };
  };
  const granterOf = (id: number) => userAsCaller(id, id === USER.granter ? ['granters'] : (GROUPS_OF[id] ?? []));

  function askFor(
    type: FlagType,
    login: string,
    people: RequesteeRules['requestee'],
    bug = aBug(1),
    existing = bug.flags,
  ) {
    const ids = new Map(Object.entries(USER).map(([name, id]) => [loginOf(name as keyof typeof USER), id]));
    return applyFlagInputs(existing, [{ type_id: type.id, status: '?', requestee: login }], {
      types: [type],
      callerId: USER.admin,
      inGroupId: () => true,
      userIdOf: (name) => ids.get(name),
      requestees: { bug, requestee: people, groupName, parameters: DEFAULT_PARAMETERS },
      now: '2026-05-05T00:00:00Z',
      nextFlagId: () => 500,
    });
  }

  it('refuses a disabled account, naming it and the flag, before asking whether it can see the bug', () => {
    const error = trackerErrorOf(() => askFor(REVIEW, loginOf('insider'), disabled));
    expect(error.code).toBe(32000);
    expect(error.message).toBe(
      `You can't ask ${loginOf('insider')} for 'review' because that account is disabled. Ask someone else.`,
    );
    expect(trackerErrorOf(() => askFor(REVIEW, loginOf('stranger'), disabled, secretBug)).message).toContain(
      'disabled',
    );
  });

  it('refuses someone outside the grant group, naming them, the flag and the group', () => {
    const error = trackerErrorOf(() => askFor(REVIEW_BY_GRANTERS, loginOf('insider'), granterOf));
    expect(error.code).toBe(32000);
    expect(error.message).toBe(
      `${loginOf('insider')} does not have permission to set the 'approval' flag. Ask someone who is a member of the group 'granters'.`,
    );
    expect(askFor(REVIEW_BY_GRANTERS, loginOf('granter'), granterOf)[0]?.requesteeId).toBe(USER.granter);
    // Without a grant group anyone who can see the bug may be asked.
    expect(askFor(REVIEW, loginOf('stranger'), granterOf)[0]?.requesteeId).toBe(USER.stranger);
  });

  it('checks the bug first: a hidden bug is the error even when the requestee is outside the grant group too', () => {
    const error = trackerErrorOf(() => askFor(REVIEW_BY_GRANTERS, loginOf('stranger'), granterOf, secretBug));
    expect(error.message).toContain('but that bug is restricted');
  });

  it('refuses everyone when the grant group no longer exists', () => {
    const orphan = flagType(3, 'orphan', { grantGroupId: 999 });
    expect(trackerErrorOf(() => askFor(orphan, loginOf('insider'), granterOf)).code).toBe(32000);
  });

  it('leaves a requestee already asked alone, disabled or outside the grant group', () => {
    const asked = aFlag(3, REVIEW_BY_GRANTERS.id, { requesteeId: USER.insider });
    const bug = aBug(1, { flags: [asked] });
    expect(askFor(REVIEW_BY_GRANTERS, loginOf('insider'), granterOf, bug)).toEqual([asked]);
    expect(askFor(REVIEW_BY_GRANTERS, loginOf('insider'), disabled, bug)).toEqual([asked]);
  });
});
