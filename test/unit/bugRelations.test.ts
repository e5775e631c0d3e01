import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { relatedBugIds, syncRelations } from '../../shared/domain/bug/bugWorkingSet.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';
import {
  aBug,
  bugEnvironment,
  callerAs,
  fileBug,
  GROUP,
  NEW_BUG_ID,
  USER,
  updateBug,
  workingSetOf,
} from './support/bugCatalogue.ts';

/**
 * Relations between bugs (depends_on/blocks, regressed_by/regressions): both sides change
 * together, a bug never names itself, and the bugs a request touches are the ones the
 * application loads first (relatedBugIds).
 */

const admin = () => bugEnvironment();
const refusal = (action: () => unknown) => {
  const error = trackerErrorOf(action);
  return { code: error.code, message: error.message };
};
const bugs = (...ids: number[]) => ids.map((id) => aBug(id));

describe('dependencies', () => {
  it('adds the reverse side to the other bug and reports only the changed bug’s own list', () => {
    const { bug, working, changes, outcome } = updateBug(admin(), bugs(1, 2, 3), 1, { depends_on: { add: [3, '2'] } });
    expect(bug.dependsOn).toEqual([2, 3]);
    expect(working.get(2)!.blocks).toEqual([1]);
    expect(working.get(3)!.blocks).toEqual([1]);
    expect(changes).toEqual({ depends_on: { removed: '', added: '2, 3' } });
    expect(outcome.dependencyRoots).toEqual([1]);
  });

  it('removes the reverse side when a dependency goes, with no loop to prove', () => {
    const linked = [aBug(1, { blocks: [2] }), aBug(2, { dependsOn: [1] })];
    const { bug, working, changes, outcome } = updateBug(admin(), linked, 1, { blocks: { remove: [2] } });
    expect(bug.blocks).toEqual([]);
    expect(working.get(2)!.dependsOn).toEqual([]);
    expect(changes).toEqual({ blocks: { removed: '2', added: '' } });
    expect(outcome.dependencyRoots).toEqual([]);
  });

  it('replaces the whole list with a plain list, unlinking what left and linking what came', () => {
    const linked = [aBug(1, { dependsOn: [2] }), aBug(2, { blocks: [1] }), aBug(3)];
    const { bug, working } = updateBug(admin(), linked, 1, { depends_on: [3] });
    expect(bug.dependsOn).toEqual([3]);
    expect(working.get(2)!.blocks).toEqual([]);
    expect(working.get(3)!.blocks).toEqual([1]);
  });

  it('refuses a bug in its own list (116) and a bug both depended on and blocked (116)', () => {
    expect(refusal(() => updateBug(admin(), bugs(1), 1, { depends_on: { add: [1] } }))).toEqual({
      code: 116,
      message: 'A bug cannot be in its own depends_on list.',
    });
    expect(refusal(() => updateBug(admin(), bugs(1), 1, { blocks: [1] })).code).toBe(116);
    const blocker = [aBug(1, { blocks: [2] }), aBug(2, { dependsOn: [1] })];
    expect(refusal(() => updateBug(admin(), blocker, 1, { depends_on: { add: [2] } }))).toEqual({
      code: 116,
      message: 'A bug cannot both depend on and block the same bug: that would be a dependency loop.',
    });
    // Seen from the other bug, the same request is the same loop.
    expect(refusal(() => updateBug(admin(), blocker, 2, { blocks: { add: [1] } })).code).toBe(116);
  });

  it('refuses bugs that do not exist (101) or that the caller cannot see (102), but lets them be removed', () => {
    expect(refusal(() => updateBug(admin(), bugs(1), 1, { depends_on: [9] }))).toEqual({
      code: 101,
      message: 'Bug #9 (in depends_on) does not exist.',
    });
    expect(refusal(() => updateBug(admin(), bugs(1), 1, { blocks: ['x'] }))).toEqual({
      code: 100,
      message: "'x' in blocks is not a valid bug id.",
    });
    const hidden = aBug(2, { groupIds: [GROUP.secret], reporterId: USER.insider, assigneeId: USER.insider });
    const editor = bugEnvironment({ caller: callerAs('editor', ['editbugs']) });
    expect(refusal(() => updateBug(editor, [aBug(1), hidden], 1, { depends_on: [2] }))).toEqual({
      code: 102,
      message: 'You are not authorized to access bug #2 (in depends_on).',
    });
    const linked = [aBug(1, { dependsOn: [2] }), { ...hidden, blocks: [1] }];
    const { bug, working } = updateBug(editor, linked, 1, { depends_on: { remove: [2] } });
    expect(bug.dependsOn).toEqual([]);
    expect(working.get(2)!.blocks).toEqual([]);
  });
});

describe('regressions', () => {
  it('keeps regressed_by and regressions symmetric', () => {
    const { working } = updateBug(admin(), bugs(1, 2), 1, { regressed_by: [2] });
    expect(working.get(1)!.regressedBy).toEqual([2]);
    expect(working.get(2)!.regressions).toEqual([1]);
    const undone = updateBug(admin(), [...working.values()], 2, { regressions: { remove: [1] } });
    expect(undone.working.get(1)!.regressedBy).toEqual([]);
    expect(undone.outcome.dependencyRoots).toEqual([]);
  });

  it('refuses a bug regressing itself, or both regressing and regressed by the same bug (32000)', () => {
    expect(refusal(() => updateBug(admin(), bugs(1), 1, { regressions: [1] }))).toEqual({
      code: 32000,
      message: 'A bug cannot be in its own regressions list.',
    });
    const regressed = [aBug(1, { regressedBy: [2] }), aBug(2, { regressions: [1] })];
    expect(refusal(() => updateBug(admin(), regressed, 1, { regressions: { add: [2] } }))).toEqual({
      code: 32000,
      message: 'A bug cannot both be regressed by and cause the same bug.',
    });
  });
});

describe('a new bug’s relations', () => {
  it('are sorted, unique, and linked on the other side as the application links them', () => {
    const { bug } = fileBug(admin(), { depends_on: [3, 2, 3], blocks: '4', regressed_by: [5] });
    expect(bug).toMatchObject({ dependsOn: [2, 3], blocks: [4], regressedBy: [5], regressions: [] });
    const working = workingSetOf([bug, ...bugs(2, 3, 4, 5)]);
    syncRelations(working, { ...bug, dependsOn: [], blocks: [], regressedBy: [], regressions: [] }, bug);
    expect([2, 3, 4, 5].map((id) => working.get(id)!)).toMatchObject([
      { blocks: [NEW_BUG_ID] },
      { blocks: [NEW_BUG_ID] },
      { dependsOn: [NEW_BUG_ID] },
      { regressions: [NEW_BUG_ID] },
    ]);
  });

  it('cannot both be regressed by and cause the same bug (32000), as an update refuses it', () => {
    expect(refusal(() => fileBug(admin(), { regressed_by: [5], regressions: ['6', 5] }))).toEqual({
      code: 32000,
      message: 'A bug cannot both be regressed by and cause the same bug.',
    });
    expect(fileBug(admin(), { regressed_by: [5], regressions: [6] }).bug).toMatchObject({
      regressedBy: [5],
      regressions: [6],
    });
  });

  it('cannot name a bug that is not in the working set (101)', () => {
    const { bug } = fileBug(admin(), { blocks: [7] });
    const working = workingSetOf([bug]);
    expect(refusal(() => syncRelations(working, { ...bug, blocks: [] }, bug))).toEqual({
      code: 101,
      message: 'Bug #7 does not exist.',
    });
  });
});

describe('the bugs a request touches', () => {
  it('are the bugs named, those already related in the fields changed, and both duplicate targets', () => {
    const bug = aBug(1, { dependsOn: [2], blocks: [3], regressedBy: [4], dupeOf: 5 });
    expect(relatedBugIds({ depends_on: { add: [6], remove: [7] } }, bug).sort()).toEqual([2, 5, 6, 7]);
    expect(relatedBugIds({ blocks: [8], dupe_of: '9' }, bug).sort()).toEqual([3, 5, 8, 9]);
    expect(relatedBugIds({ summary: 'x' }, aBug(1, { dependsOn: [2] }))).toEqual([]);
    expect(relatedBugIds({ depends_on: [1, 2] }, aBug(1))).toEqual([2]);
  });
});

describe('properties of relation changes', () => {
  const IDS = [1, 2, 3, 4, 5];
  const idArb = fc.constantFrom(...IDS);
  const listArb = fc.array(idArb, { maxLength: 3 });
  const changeArb = fc.oneof(
    listArb,
    fc.record({ add: listArb, remove: listArb }, { requiredKeys: [] }),
    fc.record({ set: listArb }),
  );
  const fieldArb = fc.constantFrom('depends_on', 'blocks', 'regressed_by', 'regressions');
  const stepArb = fc.record({
    bug: idArb,
    changes: fc.array(fc.tuple(fieldArb, changeArb), { minLength: 1, maxLength: 2 }),
  });

  const PAIRS = [
    ['dependsOn', 'blocks'],
    ['regressedBy', 'regressions'],
  ] as const;
  const checkSymmetry = (working: Map<number, Bug>) => {
    for (const bug of working.values()) {
      for (const [key, reverse] of PAIRS) {
        expect(bug[key], `bug ${bug.id} ${key}`).not.toContain(bug.id);
        expect(bug[key]).toEqual([...new Set(bug[key])].sort((a, b) => a - b));
        for (const other of bug[key]) expect(working.get(other)![reverse], `${other} ${reverse}`).toContain(bug.id);
        for (const other of bug[reverse]) expect(working.get(other)![key], `${other} ${key}`).toContain(bug.id);
      }
      expect(bug.dependsOn.filter((id) => bug.blocks.includes(id))).toEqual([]);
    }
  };

  it('keeps every relation symmetric and free of the bug itself, and touches only the bugs the request names', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 15 }), (steps) => {
        let state = IDS.map((id) => aBug(id));
        for (const step of steps) {
          const input = Object.fromEntries(step.changes);
          const before = state.find((bug) => bug.id === step.bug)!;
          let result: ReturnType<typeof updateBug>;
          try {
            result = updateBug(admin(), state, step.bug, input);
          } catch (error) {
            expect(error).toBeInstanceOf(TrackerError);
            expect([116, 32000]).toContain((error as TrackerError).code);
            continue;
          }
          checkSymmetry(result.working);
          const touched = state
            .filter((bug) => JSON.stringify(result.working.get(bug.id)) !== JSON.stringify(bug))
            .map((bug) => bug.id);
          const loaded = [step.bug, ...relatedBugIds(input, before)];
          for (const id of touched) expect(loaded).toContain(id);
          const grew =
            result.bug.dependsOn.some((id) => !before.dependsOn.includes(id)) ||
            result.bug.blocks.some((id) => !before.blocks.includes(id));
          expect(result.outcome.dependencyRoots).toEqual(grew ? [step.bug] : []);
          state = [...result.working.values()];
        }
      }),
      { numRuns: 80 },
    );
  });

  it('reports exactly the ids that left and came in the list changed', () => {
    fc.assert(
      fc.property(idArb, fieldArb, changeArb, (bugId, field, change) => {
        let result: ReturnType<typeof updateBug>;
        const start = IDS.map((id) => aBug(id));
        try {
          result = updateBug(admin(), start, bugId, { [field]: change });
        } catch {
          return;
        }
        // Bugzilla's order on a bug with no relations yet: set, then remove, then add.
        const {
          set = [],
          add = [],
          remove = [],
        } = Array.isArray(change) ? { set: change } : (change as { set?: number[]; add?: number[]; remove?: number[] });
        const kept = [...set.filter((id) => !remove.includes(id)), ...add];
        const expected = [...new Set(kept)].sort((a, b) => a - b);
        expect(result.changes).toEqual(
          expected.length === 0 ? {} : { [field]: { removed: '', added: expected.join(', ') } },
        );
      }),
      { numRuns: 150 },
    );
  });
});
