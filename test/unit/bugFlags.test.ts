import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BugFlag } from '../../shared/domain/bug/bug.ts';
import { applyFlagInputs, type FlagInput, type FlagRules } from '../../shared/domain/bug/bugFlags.ts';
import type { FlagType } from '../../shared/domain/catalog/flagTypes.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';
import {
  aBug,
  aFlag,
  bugEnvironment,
  callerAs,
  FLAG_TYPE,
  flagType,
  GROUP,
  loginOf,
  NOW,
  USER,
  updateBug,
  userAsCaller,
} from './support/bugCatalogue.ts';

/**
 * Flags on bugs (applyFlagInputs, and through a bug update): statuses ?, +, - and X, requestees
 * only where the type allows them, grant and request groups, one flag per type unless it is
 * multiplicable, with Bugzilla's codes 129–134 and 51.
 */

const GRANTERS = GROUP.granters;
const REQUESTERS = 13;
const TYPES: FlagType[] = [
  flagType(1, 'review', { grantGroupId: GRANTERS }),
  flagType(2, 'qe', { isRequestable: false, isRequesteeble: false }),
  flagType(3, 'multi', { isMultiplicable: true }),
  flagType(4, 'retired', { isActive: false }),
  flagType(5, 'guarded', { grantGroupId: GRANTERS, requestGroupId: REQUESTERS }),
  flagType(6, 'plain', { isRequesteeble: false }),
];
const KNOWN = { 'requestee@tracker.test': 20, 'other@tracker.test': 21 } as Record<string, number>;
const LATER = '2026-05-05T00:00:00Z';

function rules(groups: number[] = [GRANTERS, REQUESTERS], types: FlagType[] = TYPES): FlagRules {
  let next = 100;
  return {
    types,
    callerId: 7,
    inGroupId: (groupId) => groups.includes(groupId),
    userIdOf: (login) => KNOWN[login],
    requestees: {
      bug: aBug(1),
      // Every requestee is in every group, granters among them, so any of them may be asked.
      requestee: (id) => userAsCaller(id),
      groupName: (id) => (id === GROUP.granters ? 'granters' : undefined),
      parameters: DEFAULT_PARAMETERS,
    },
    now: LATER,
    nextFlagId: () => next++,
  };
}
const apply = (flags: BugFlag[], inputs: unknown[], groups?: number[], types?: FlagType[]) =>
  applyFlagInputs(flags, inputs as FlagInput[], rules(groups, types));
const refusal = (action: () => unknown) => {
  const error = trackerErrorOf(action);
  return { code: error.code, message: error.message };
};

describe('setting flags', () => {
  it('requests a flag from a person, then grants it in place, keeping its id and creation date', () => {
    const [requested] = apply([], [{ name: 'review', status: '?', requestee: 'requestee@tracker.test' }]);
    expect(requested).toEqual({
      id: 100,
      typeId: 1,
      status: '?',
      setterId: 7,
      requesteeId: 20,
      creationDate: LATER,
      modificationDate: LATER,
    });
    const old = aFlag(9, 1, { requesteeId: 20, setterId: USER.reporter });
    expect(apply([old], [{ id: 9, status: '+' }])).toEqual([
      { ...old, status: '+', setterId: 7, requesteeId: null, modificationDate: LATER },
    ]);
  });

  it('keeps a requestee only on a request', () => {
    expect(apply([], [{ name: 'review', status: '+', requestee: 'requestee@tracker.test' }])).toMatchObject([
      { status: '+', requesteeId: null },
    ]);
    expect(apply([], [{ name: 'review', status: '?', requestee: '  ' }])).toMatchObject([{ requesteeId: null }]);
  });

  it('leaves a flag untouched when the request restates its status and requestee', () => {
    const old = aFlag(9, 1, { requesteeId: 20 });
    expect(apply([old], [{ name: 'review', status: '?', requestee: 'requestee@tracker.test' }])).toEqual([old]);
    // Without the requestee it is a change: the request is no longer addressed to anyone.
    expect(apply([old], [{ name: 'review', status: '?' }])).toEqual([
      { ...old, setterId: 7, requesteeId: null, modificationDate: LATER },
    ]);
  });

  it('clears a flag with X, and clearing one that is not there does nothing', () => {
    const flags = [aFlag(9, 1, { status: '+' }), aFlag(10, 6, { status: '-' })];
    expect(apply(flags, [{ name: 'review', status: 'X' }])).toEqual([flags[1]]);
    expect(apply(flags, [{ id: 10, status: 'X' }])).toEqual([flags[0]]);
    expect(apply([], [{ name: 'review', status: 'X' }])).toEqual([]);
  });

  it('adds a second flag of a multiplicable type only when asked for a new one', () => {
    const first = aFlag(9, 3, { status: '+' });
    expect(apply([first], [{ name: 'multi', status: '-' }])).toMatchObject([{ id: 9, status: '-' }]);
    expect(apply([first], [{ name: 'multi', status: '-', new: true }])).toMatchObject([
      { id: 9, status: '+' },
      { id: 100, status: '-' },
    ]);
    expect(refusal(() => apply([aFlag(9, 1)], [{ name: 'review', status: '+', new: true }]))).toEqual({
      code: 32000,
      message: "The flag 'review' can be set only once here.",
    });
  });

  it('still lets an existing flag of an inactive type change, but creates none (134)', () => {
    expect(apply([aFlag(9, 4)], [{ id: 9, status: '+' }])).toMatchObject([{ id: 9, status: '+' }]);
    expect(refusal(() => apply([], [{ name: 'retired', status: '+' }]))).toEqual({
      code: 134,
      message: "The flag type 'retired' is inactive and cannot be used for new flags.",
    });
  });
});

describe('refusing flags', () => {
  it("answers each malformed or impossible request with Bugzilla's code", () => {
    const cases: Array<[BugFlag[], unknown, number, string]> = [
      [[], { name: 'review', status: '!' }, 129, "The flag status '!' is invalid: use ?, +, - or X."],
      [[], { name: 'review' }, 129, "The flag status '' is invalid: use ?, +, - or X."],
      [[], { name: 'qe', status: '?' }, 129, "The flag 'qe' cannot be requested."],
      [
        [],
        { name: 'plain', status: '?', requestee: 'requestee@tracker.test' },
        131,
        "The flag 'plain' cannot be requested from a specific person.",
      ],
      [
        [],
        { name: 'review', status: '?', requestee: 'nobody@tracker.test' },
        51,
        "There is no user named 'nobody@tracker.test' to request the flag from.",
      ],
      [
        [],
        { name: 'nope', status: '+' },
        51,
        "There is no flag type named 'nope' for this bug's product and component.",
      ],
      [[], { type_id: 99, status: '+' }, 51, "There is no flag type with the id '99'."],
      [[], { id: 77, status: '+' }, 51, "There is no flag with the id '77' here."],
      [
        [aFlag(9, 3), aFlag(10, 3)],
        { name: 'multi', status: '+' },
        132,
        "The flag 'multi' is set several times; give the id of the one to change.",
      ],
      [[], { status: '+' }, 32000, 'A flag needs a name, a type_id or an id.'],
      [[], 'review+', 32000, 'Each flag must be an object with a status and a name, type_id or id.'],
      [[], null, 32000, 'Each flag must be an object with a status and a name, type_id or id.'],
    ];
    for (const [flags, input, code, message] of cases)
      expect({ input, ...refusal(() => apply(flags, [input])) }).toEqual({ input, code, message });
  });

  it('refuses a name two applicable types share (133), but takes either by type_id', () => {
    const twins = [flagType(1, 'review'), flagType(8, 'review', { isMultiplicable: true })];
    expect(refusal(() => apply([], [{ name: 'review', status: '+' }], [], twins))).toEqual({
      code: 133,
      message: "The flag type name 'review' matches several flag types; give the type_id instead.",
    });
    expect(apply([], [{ type_id: 8, status: '+' }], [], twins)).toMatchObject([{ typeId: 8 }]);
  });

  it('lets only the grant group grant, deny or clear a set flag, and the request group request (130)', () => {
    const outsider: number[] = [];
    expect(refusal(() => apply([], [{ name: 'review', status: '+' }], outsider))).toEqual({
      code: 130,
      message: "You are not allowed to grant the flag 'review'.",
    });
    expect(refusal(() => apply([], [{ name: 'review', status: '-' }], outsider)).message).toBe(
      "You are not allowed to deny the flag 'review'.",
    );
    expect(refusal(() => apply([aFlag(9, 1, { status: '+' })], [{ id: 9, status: 'X' }], outsider)).message).toBe(
      "You are not allowed to clear the flag 'review'.",
    );
    // Anyone may request review, and withdraw a request.
    expect(apply([], [{ name: 'review', status: '?' }], outsider)).toHaveLength(1);
    expect(apply([aFlag(9, 1)], [{ id: 9, status: 'X' }], outsider)).toEqual([]);
    expect(refusal(() => apply([], [{ name: 'guarded', status: '?' }], outsider))).toEqual({
      code: 130,
      message: "You are not allowed to request the flag 'guarded'.",
    });
    expect(apply([], [{ name: 'guarded', status: '?' }], [REQUESTERS])).toHaveLength(1);
    expect(apply([], [{ name: 'guarded', status: '?' }], [GRANTERS])).toHaveLength(1);
  });
});

describe('flags through a bug update', () => {
  it("reports flags as Bugzilla's flagtypes.name and lets anyone who sees the bug request one", () => {
    const stranger = bugEnvironment({ caller: callerAs('stranger') });
    const requested = updateBug(stranger, [aBug(1)], 1, {
      flags: [{ name: 'review', status: '?', requestee: loginOf('editor') }],
    });
    expect(requested.changes).toEqual({ 'flagtypes.name': { removed: '', added: `review?(${loginOf('editor')})` } });
    expect(requested.bug.flags).toEqual([
      {
        id: 1000,
        typeId: FLAG_TYPE.review,
        status: '?',
        setterId: USER.stranger,
        requesteeId: USER.editor,
        creationDate: NOW,
        modificationDate: NOW,
      },
    ]);
    const granter = bugEnvironment({ caller: callerAs('granter', ['granters']) });
    const granted = updateBug(granter, [requested.bug], 1, { flags: [{ id: 1000, status: '+' }] });
    expect(granted.changes).toEqual({
      'flagtypes.name': { removed: `review?(${loginOf('editor')})`, added: 'review+' },
    });
    expect(refusal(() => updateBug(stranger, [requested.bug], 1, { flags: [{ id: 1000, status: '+' }] })).code).toBe(
      130,
    );
  });

  it("applies only the flag types of the bug's product and component", () => {
    expect(
      refusal(() => updateBug(bugEnvironment(), [aBug(1)], 1, { flags: [{ name: 'docs', status: '+' }] })),
    ).toEqual({ code: 51, message: "There is no flag type named 'docs' for this bug's product and component." });
    const docsBug = aBug(1, { componentId: 11 });
    expect(updateBug(bugEnvironment(), [docsBug], 1, { flags: { name: 'docs', status: '+' } }).bug.flags).toHaveLength(
      1,
    );
  });
});

describe('properties of any sequence of flag requests', () => {
  const nameArb = fc.constantFrom('review', 'qe', 'plain', 'guarded');
  const inputArb = fc.record(
    {
      name: nameArb,
      status: fc.constantFrom('?', '+', '-', 'X'),
      requestee: fc.constantFrom('requestee@tracker.test', 'other@tracker.test', 'nobody@tracker.test', ''),
    },
    { requiredKeys: ['name', 'status'] },
  );
  const groupsArb = fc.subarray([GRANTERS, REQUESTERS]);
  const byName = (name: string) => TYPES.find((type) => type.name === name)!;
  const summary = (flags: BugFlag[]) =>
    flags.map((flag) => [flag.typeId, flag.status, flag.requesteeId] as const).sort((a, b) => a[0] - b[0]);

  it('leaves only ?, + and -, requestees only on requests of requesteeble types, and one flag per single type', () => {
    fc.assert(
      fc.property(fc.array(inputArb, { maxLength: 8 }), groupsArb, (inputs, groups) => {
        let flags: BugFlag[];
        try {
          flags = apply([], inputs, groups);
        } catch (error) {
          expect(error).toBeInstanceOf(TrackerError);
          expect([51, 129, 130, 131]).toContain((error as TrackerError).code);
          return;
        }
        expect(new Set(flags.map((flag) => flag.id)).size).toBe(flags.length);
        for (const flag of flags) {
          const type = TYPES.find((candidate) => candidate.id === flag.typeId)!;
          expect(['?', '+', '-']).toContain(flag.status);
          if (flag.requesteeId !== null) expect([flag.status, type.isRequesteeble]).toEqual(['?', true]);
          if (flag.status === '?') expect(type.isRequestable).toBe(true);
          if (flag.status !== '?' && type.grantGroupId !== null) expect(groups).toContain(type.grantGroupId);
          if (!type.isMultiplicable) expect(flags.filter((other) => other.typeId === flag.typeId)).toHaveLength(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("ends with each type's last request, whatever came before, so repeating the requests changes nothing", () => {
    fc.assert(
      fc.property(fc.array(inputArb, { minLength: 1, maxLength: 8 }), (inputs) => {
        let flags: BugFlag[];
        try {
          flags = apply([], inputs);
        } catch {
          return;
        }
        const last = new Map(inputs.map((input) => [input.name, input]));
        const expected = [...last.values()]
          .filter((input) => input.status !== 'X')
          .map((input) => {
            const requestee = input.status === '?' && input.requestee ? KNOWN[input.requestee] : undefined;
            return [byName(input.name).id, input.status, requestee ?? null] as const;
          })
          .sort((a, b) => a[0] - b[0]);
        expect(summary(flags)).toEqual(expected);
        expect(summary(apply(flags, inputs))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
