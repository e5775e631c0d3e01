import { describe, expect, it } from 'vitest';
import type { Bug, BugFlag } from '../../shared/domain/bug/bug.ts';
import { type BugNames, diffBugs, historyChanges, mergeHistory } from '../../shared/domain/bug/bugChanges.ts';
import { applyFlagInputs, type FlagRules } from '../../shared/domain/bug/bugFlags.ts';
import type { FlagType } from '../../shared/domain/catalog/flagTypes.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { plainBug } from './support/bugFixtures.ts';

const names: BugNames = {
  product: (id) => `Product${id}`,
  component: (id) => `Component${id}`,
  version: (id) => `Version${id}`,
  milestone: (id) => `Milestone${id}`,
  login: (id) => (id === null ? '' : `user${id}@example.com`),
  keyword: (id) => `kw${id}`,
  group: (id) => `group${id}`,
  flagType: (id) => `flag${id}`,
};

const bug: Bug = plainBug(1, {
  summary: 'Crash',
  assigneeId: 2,
  reporterId: 3,
  ccIds: [4],
  creationTime: '2026-01-01T00:00:00Z',
  lastChangeTime: '2026-01-01T00:00:00Z',
});

describe("what changed on a bug, in Bugzilla's words", () => {
  it('names people, keywords and lists, joins several values with ", " and prints times as Bugzilla does', () => {
    const after: Bug = {
      ...bug,
      assigneeId: 5,
      ccIds: [4, 6, 7],
      keywordIds: [1, 2],
      remainingTime: 3,
      estimatedTime: 4.5,
      dependsOn: [9],
    };
    expect(diffBugs(bug, after, names)).toEqual({
      assigned_to: { removed: 'user2@example.com', added: 'user5@example.com' },
      cc: { removed: '', added: 'user6@example.com, user7@example.com' },
      keywords: { removed: '', added: 'kw1, kw2' },
      remaining_time: { removed: '0.00', added: '3' },
      estimated_time: { removed: '0.00', added: '4.5' },
      depends_on: { removed: '', added: '9' },
    });
  });

  it('reports nothing when nothing changed, and keeps dupe_of out of the history', () => {
    expect(diffBugs(bug, { ...bug }, names)).toEqual({});
    const changes = diffBugs(bug, { ...bug, dupeOf: 8, status: 'RESOLVED', resolution: 'DUPLICATE' }, names);
    expect(Object.keys(changes).sort()).toEqual(['dupe_of', 'resolution', 'status']);
    expect(
      historyChanges(changes)
        .map((change) => change.field_name)
        .sort(),
    ).toEqual(['resolution', 'status']);
  });

  it("merges one user's entries of one second, and only those", () => {
    const entry = (when: string, whoId: number, field: string) => ({
      bugId: 1,
      when,
      whoId,
      changes: [{ field_name: field, removed: '', added: 'x' }],
    });
    const merged = mergeHistory([
      entry('2026-01-01T00:00:01Z', 1, 'a'),
      entry('2026-01-01T00:00:01Z', 1, 'b'),
      entry('2026-01-01T00:00:01Z', 2, 'c'),
      entry('2026-01-01T00:00:02Z', 2, 'd'),
    ]);
    expect(merged.map((item) => [item.whoId, item.changes.map((change) => change.field_name)])).toEqual([
      [1, ['a', 'b']],
      [2, ['c']],
      [2, ['d']],
    ]);
  });
});

describe('flag rules', () => {
  const type = (overrides: Partial<FlagType>): FlagType => ({
    id: 1,
    name: 'review',
    description: '',
    ccList: '',
    sortKey: 0,
    isActive: true,
    isRequestable: true,
    isRequesteeble: true,
    isMultiplicable: false,
    grantGroupId: null,
    requestGroupId: null,
    targetType: 'bug',
    inclusions: [{ productId: 0, componentId: 0 }],
    exclusions: [],
    ...overrides,
  });
  let nextId = 100;
  const rules = (types: FlagType[], inGroup = true): FlagRules => ({
    types,
    callerId: 7,
    inGroupId: () => inGroup,
    userIdOf: (login) => (login === 'known@example.com' ? 8 : undefined),
    requestees: {
      bug,
      requestee: (id) => ({
        user: { id, login: '', realName: '', disabledText: '', emailEnabled: true },
        groups: new Set(),
        blessGroups: new Set(),
      }),
      groupName: () => undefined,
      parameters: DEFAULT_PARAMETERS,
    },
    now: '2026-01-01T00:00:00Z',
    nextFlagId: () => nextId++,
  });

  it('creates, updates in place and clears flags', () => {
    const created = applyFlagInputs(
      [],
      [{ name: 'review', status: '?', requestee: 'known@example.com' }],
      rules([type({})]),
    );
    expect(created).toEqual([
      {
        id: 100,
        typeId: 1,
        status: '?',
        setterId: 7,
        requesteeId: 8,
        creationDate: '2026-01-01T00:00:00Z',
        modificationDate: '2026-01-01T00:00:00Z',
      },
    ]);
    const granted = applyFlagInputs(created, [{ name: 'review', status: '+' }], rules([type({})]));
    expect(granted).toMatchObject([{ id: 100, status: '+', requesteeId: null }]);
    expect(applyFlagInputs(granted, [{ id: 100, status: 'X' }], rules([type({})]))).toEqual([]);
  });

  it("refuses with Bugzilla's codes", () => {
    const code = (flags: BugFlag[], input: object, types: FlagType[], inGroup = true) => {
      try {
        applyFlagInputs(flags, [input], rules(types, inGroup));
        return 0;
      } catch (error) {
        return (error as { code: number }).code;
      }
    };
    expect(code([], { name: 'review', status: 'maybe' }, [type({})])).toBe(129);
    expect(code([], { name: 'review', status: '+' }, [type({ grantGroupId: 5 })], false)).toBe(130);
    expect(
      code([], { name: 'review', status: '?', requestee: 'known@example.com' }, [type({ isRequesteeble: false })]),
    ).toBe(131);
    expect(code([], { name: 'review', status: '+' }, [type({}), type({ id: 2 })])).toBe(133);
    expect(code([], { name: 'review', status: '+' }, [type({ isActive: false })])).toBe(134);
    const two: BugFlag[] = [1, 2].map((id) => ({
      id,
      typeId: 1,
      status: '+',
      setterId: 7,
      requesteeId: null,
      creationDate: '',
      modificationDate: '',
    }));
    expect(code(two, { name: 'review', status: '-' }, [type({ isMultiplicable: true })])).toBe(132);
    expect(code([], { name: 'nope', status: '+' }, [type({})])).toBe(51);
  });
});
