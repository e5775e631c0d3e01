import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { BUG_STATUSES } from '../../shared/domain/bug/bugWorkflow.ts';
import { DEFAULT_FIELD_VALUES } from '../../shared/domain/catalog/fieldValues.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';
import { aBug, bugEnvironment, callerAs, GROUP, NOW, USER, updateBug, userAsCaller } from './support/bugCatalogue.ts';

const isOpenStatus = (status: string) => DEFAULT_FIELD_VALUES.isOpen(status);
const canChangeStatus = (from: string, to: string) => DEFAULT_FIELD_VALUES.canChange(from, to);
const canonicalStatus = (name: string, from: string | null) => DEFAULT_FIELD_VALUES.canonicalStatus(name, from);

/**
 * A bug update's status, resolution and duplicate (applyBugUpdate): the default workflow's
 * moves, Bugzilla's resolution rules (121, 122, 123, 119), marking and unmarking duplicates
 * (118) with their effect on the target, and what `changes` reports for each.
 */

const admin = () => bugEnvironment();
const refusal = (action: () => unknown) => {
  const error = trackerErrorOf(action);
  return { code: error.code, message: error.message };
};
const move = (bug: Bug, input: Record<string, unknown>, others: Bug[] = [], env = admin()) =>
  updateBug(env, [bug, ...others], bug.id, input);
const closed = (resolution: string, overrides: Partial<Bug> = {}) =>
  aBug(1, { status: 'RESOLVED', resolution, ...overrides });

describe('status transitions', () => {
  const STATUSES = BUG_STATUSES.map((status) => status.name);

  it('allows exactly the moves of the workflow, each reported as a status change', () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        if (from === to) continue;
        const bug = aBug(1, isOpenStatus(from) ? { status: from } : { status: from, resolution: 'FIXED' });
        const input = !isOpenStatus(to) && isOpenStatus(from) ? { status: to, resolution: 'FIXED' } : { status: to };
        const label = `${from} -> ${to}`;
        if (canChangeStatus(from, to)) {
          expect(move(bug, input).changes.status, label).toEqual({ removed: from, added: to });
        } else {
          expect(
            refusal(() => move(bug, input)),
            label,
          ).toEqual({
            code: 123,
            message: `A bug cannot move from ${from} to ${to}.`,
          });
        }
      }
    }
  });

  it("reads the old workflow's names as Bugzilla upgraded them", () => {
    expect(move(aBug(1, { status: 'UNCONFIRMED', isConfirmed: false }), { status: 'NEW' }).bug.status).toBe(
      'CONFIRMED',
    );
    expect(move(aBug(1), { status: 'assigned' }).bug.status).toBe('IN_PROGRESS');
    expect(move(closed('FIXED'), { status: 'REOPENED' }).bug).toMatchObject({ status: 'CONFIRMED', resolution: '' });
    expect(move(aBug(1), { status: 'CLOSED', resolution: 'fixed' }).bug).toMatchObject({
      status: 'RESOLVED',
      resolution: 'FIXED',
    });
    expect(move(closed('FIXED'), { status: 'CLOSED' }).bug).toMatchObject({ status: 'VERIFIED', resolution: 'FIXED' });
  });

  it('refuses a status or resolution that does not exist (51), naming it as given', () => {
    expect(refusal(() => move(aBug(1), { status: 'Waiting' }))).toEqual({
      code: 51,
      message: "There is no status named 'Waiting'.",
    });
    expect(refusal(() => move(closed('FIXED'), { resolution: 'moved' }))).toEqual({
      code: 51,
      message: "There is no resolution named 'moved'.",
    });
  });

  it('treats restating the current status as no move, even where the workflow has no such transition', () => {
    for (const status of STATUSES) {
      const bug = aBug(1, isOpenStatus(status) ? { status } : { status, resolution: 'FIXED' });
      expect(move(bug, { status: status.toLowerCase() }).changes).toEqual({});
    }
  });

  it('confirms a bug when it reaches an open status other than UNCONFIRMED, and unconfirms one reopened as UNCONFIRMED', () => {
    const fresh = aBug(1, { status: 'UNCONFIRMED', isConfirmed: false });
    const confirmed = move(fresh, { status: 'IN_PROGRESS' });
    expect(confirmed.bug.isConfirmed).toBe(true);
    expect(confirmed.changes.is_confirmed).toEqual({ removed: '0', added: '1' });
    const resolved = move(fresh, { status: 'RESOLVED', resolution: 'INVALID' });
    expect(resolved.bug.isConfirmed).toBe(false);
    expect(resolved.changes).not.toHaveProperty('is_confirmed');
    expect(move(resolved.bug, { status: 'UNCONFIRMED' }).bug).toMatchObject({
      status: 'UNCONFIRMED',
      isConfirmed: false,
    });
    // Bugzilla's set_bug_status: an open status decides everconfirmed, so UNCONFIRMED clears it.
    const confirmedOnce = aBug(1, { status: 'RESOLVED', resolution: 'FIXED', isConfirmed: true });
    const reopened = move(confirmedOnce, { status: 'UNCONFIRMED' });
    expect(reopened.bug.isConfirmed).toBe(false);
    expect(reopened.changes.is_confirmed).toEqual({ removed: '1', added: '0' });
  });
});

describe('resolutions', () => {
  it('needs a resolution to close an open bug (121), and refuses DUPLICATE without a target (119)', () => {
    expect(refusal(() => move(aBug(1), { status: 'RESOLVED' }))).toEqual({
      code: 121,
      message: 'A bug moved to RESOLVED needs a resolution.',
    });
    expect(refusal(() => move(aBug(1), { status: 'RESOLVED', resolution: '' })).code).toBe(121);
    expect(refusal(() => move(aBug(1), { status: 'RESOLVED', resolution: 'DUPLICATE' }))).toEqual({
      code: 119,
      message: 'To mark a bug as a duplicate, give the bug it duplicates in dupe_of.',
    });
    expect(move(aBug(1), { status: 'RESOLVED', resolution: ' invalid ' }).changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'RESOLVED' },
      resolution: { removed: '', added: 'INVALID' },
    });
  });

  it('refuses a resolution on an open bug (122), whether it stays open or is reopened', () => {
    expect(refusal(() => move(aBug(1), { resolution: 'FIXED' }))).toEqual({
      code: 122,
      message: 'The bug is open (CONFIRMED), so it cannot have a resolution.',
    });
    expect(refusal(() => move(closed('FIXED'), { status: 'CONFIRMED', resolution: 'WONTFIX' }))).toEqual({
      code: 122,
      message: 'An open bug cannot have a resolution (WONTFIX).',
    });
    // Restating the empty resolution is no change at all.
    expect(move(aBug(1), { resolution: '' }).changes).toEqual({});
    expect(move(closed('FIXED'), { status: 'CONFIRMED', resolution: '' }).bug.resolution).toBe('');
  });

  it('clears the resolution when a bug is reopened', () => {
    expect(move(closed('INVALID'), { status: 'CONFIRMED' }).changes).toEqual({
      status: { removed: 'RESOLVED', added: 'CONFIRMED' },
      resolution: { removed: 'INVALID', added: '' },
    });
  });

  it('changes the resolution of a closed bug, never to none (121) nor to DUPLICATE without a target (119)', () => {
    expect(move(closed('FIXED'), { resolution: 'wontfix' }).changes).toEqual({
      resolution: { removed: 'FIXED', added: 'WONTFIX' },
    });
    expect(move(closed('FIXED'), { status: 'VERIFIED' }).changes).toEqual({
      status: { removed: 'RESOLVED', added: 'VERIFIED' },
    });
    expect(move(closed('FIXED'), { status: 'VERIFIED', resolution: 'WORKSFORME' }).bug).toMatchObject({
      status: 'VERIFIED',
      resolution: 'WORKSFORME',
    });
    expect(refusal(() => move(closed('FIXED'), { resolution: '' }))).toEqual({
      code: 121,
      message: 'A RESOLVED bug needs a resolution.',
    });
    expect(refusal(() => move(closed('FIXED'), { resolution: null })).code).toBe(121);
    expect(refusal(() => move(closed('FIXED'), { status: 'VERIFIED', resolution: '' }))).toEqual({
      code: 121,
      message: 'A VERIFIED bug needs a resolution.',
    });
    expect(refusal(() => move(closed('FIXED'), { resolution: 'DUPLICATE' })).code).toBe(119);
  });
});

describe('duplicates', () => {
  const target = () => aBug(2, { reporterId: USER.editor });

  it('resolves the bug as a DUPLICATE, lists it on the target, CCs its reporter there and notes it on both', () => {
    const { bug, changes, working, outcome } = move(aBug(1), { dupe_of: '2' }, [target()]);
    expect(bug).toMatchObject({ status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 2 });
    expect(changes).toEqual({
      status: { removed: 'CONFIRMED', added: 'RESOLVED' },
      resolution: { removed: '', added: 'DUPLICATE' },
      dupe_of: { removed: '', added: '2' },
    });
    expect(working.get(2)).toMatchObject({ duplicates: [1], ccIds: [USER.reporter], status: 'CONFIRMED' });
    expect(outcome.duplicateLinks).toEqual([{ bugId: 1, dupeOf: 2 }]);
    const notice = { creatorId: USER.admin, rawText: '', isPrivate: false, isMarkdown: false, workTime: 0 };
    expect(outcome.comments).toEqual([
      { ...notice, bugId: 1, creationTime: NOW, commentType: 'dupe_of', extraData: 2 },
      { ...notice, bugId: 2, creationTime: NOW, commentType: 'has_dupe', extraData: 1 },
    ]);
  });

  it("puts the request's comment into the duplicate notice instead of writing a second comment", () => {
    const { outcome } = move(aBug(1), { dupe_of: 2, comment: { body: 'Same as the first.' } }, [target()]);
    expect(outcome.comments.filter((comment) => comment.bugId === 1)).toEqual([
      expect.objectContaining({ rawText: 'Same as the first.', commentType: 'dupe_of', extraData: 2 }),
    ]);
  });

  it("does not add the reporter to the target's CC twice", () => {
    const watched = aBug(2, { ccIds: [USER.reporter, USER.watcher] });
    expect(move(aBug(1), { dupe_of: 2 }, [watched]).working.get(2)!.ccIds).toEqual([USER.reporter, USER.watcher]);
  });

  it("adds nobody to the target's CC list when its reporter reported the bug too, or cannot see the target", () => {
    const sameReporter = aBug(2, { reporterId: USER.reporter });
    expect(move(aBug(1), { dupe_of: 2 }, [sameReporter]).working.get(2)!.ccIds).toEqual([]);
    const secret = aBug(2, { reporterId: USER.editor, groupIds: [GROUP.secret] });
    const outsider = bugEnvironment({ requestee: (id) => userAsCaller(id, []) });
    expect(move(aBug(1), { dupe_of: 2 }, [secret], outsider).working.get(2)!.ccIds).toEqual([]);
    const unknown = bugEnvironment({ requestee: () => undefined });
    expect(move(aBug(1), { dupe_of: 2 }, [target()], unknown).working.get(2)!.ccIds).toEqual([]);
  });

  it('keeps the closed status of a closed bug, or takes the closed status given, and allows DUPLICATE restated', () => {
    expect(move(closed('FIXED'), { dupe_of: 2 }, [target()]).changes).toEqual({
      resolution: { removed: 'FIXED', added: 'DUPLICATE' },
      dupe_of: { removed: '', added: '2' },
    });
    expect(move(aBug(1), { dupe_of: 2, status: 'RESOLVED', resolution: 'duplicate' }, [target()]).bug).toMatchObject({
      status: 'RESOLVED',
      resolution: 'DUPLICATE',
      dupeOf: 2,
    });
    expect(move(closed('FIXED'), { dupe_of: 2, status: 'VERIFIED' }, [target()]).bug).toMatchObject({
      status: 'VERIFIED',
      resolution: 'DUPLICATE',
    });
  });

  it('moves a duplicate from its old target to the new one', () => {
    const dupe = closed('DUPLICATE', { dupeOf: 2 });
    const oldTarget = aBug(2, { duplicates: [1] });
    const { working, changes } = move(dupe, { dupe_of: 3 }, [oldTarget, aBug(3)]);
    expect(working.get(2)!.duplicates).toEqual([]);
    expect(working.get(3)!.duplicates).toEqual([1]);
    expect(changes).toEqual({ dupe_of: { removed: '2', added: '3' } });
  });

  it('unlinks a duplicate when it is reopened or resolved otherwise', () => {
    const dupe = closed('DUPLICATE', { dupeOf: 2 });
    const linked = aBug(2, { duplicates: [1] });
    const reopened = move(dupe, { status: 'CONFIRMED' }, [linked]);
    expect(reopened.bug).toMatchObject({ status: 'CONFIRMED', resolution: '', dupeOf: null });
    expect(reopened.working.get(2)!.duplicates).toEqual([]);
    expect(reopened.changes.dupe_of).toEqual({ removed: '2', added: '' });
    const fixed = move(dupe, { resolution: 'FIXED' }, [linked]);
    expect(fixed.bug).toMatchObject({ status: 'RESOLVED', resolution: 'FIXED', dupeOf: null });
    expect(fixed.working.get(2)!.duplicates).toEqual([]);
    // Verifying a duplicate keeps it one.
    const verified = move(dupe, { status: 'VERIFIED' }, [linked]);
    expect(verified.bug).toMatchObject({ resolution: 'DUPLICATE', dupeOf: 2 });
    expect(verified.working.get(2)!.duplicates).toEqual([1]);
  });

  it('changes nothing when the bug is already a duplicate of that target', () => {
    const dupe = closed('DUPLICATE', { dupeOf: 2 });
    const result = move(dupe, { dupe_of: 2 }, [aBug(2, { duplicates: [1] })]);
    expect(result.changes).toEqual({});
    expect(result.outcome.comments).toEqual([]);
    expect(result.outcome.duplicateLinks).toEqual([]);
  });

  it('refuses a duplicate of itself (118), an open or non-DUPLICATE outcome (32000) and targets out of reach', () => {
    expect(refusal(() => move(aBug(1), { dupe_of: 1 }))).toEqual({
      code: 118,
      message: 'A bug cannot be marked as a duplicate of itself.',
    });
    expect(refusal(() => move(aBug(1), { dupe_of: 2, status: 'IN_PROGRESS' }, [target()]))).toEqual({
      code: 32000,
      message: 'A bug marked as a duplicate cannot stay open.',
    });
    expect(refusal(() => move(aBug(1), { dupe_of: 2, resolution: 'FIXED' }, [target()]))).toEqual({
      code: 32000,
      message: 'A bug marked as a duplicate must have the resolution DUPLICATE.',
    });
    expect(refusal(() => move(aBug(1), { dupe_of: 9 }))).toEqual({
      code: 101,
      message: 'Bug #9 (in dupe_of) does not exist.',
    });
    expect(refusal(() => move(aBug(1), { dupe_of: 'abc' }))).toEqual({
      code: 100,
      message: "'abc' in dupe_of is not a valid bug id.",
    });
    const hidden = aBug(2, { groupIds: [GROUP.secret], reporterId: USER.insider, assigneeId: USER.insider });
    const editor = bugEnvironment({ caller: callerAs('editor', ['editbugs']) });
    expect(refusal(() => move(aBug(1), { dupe_of: 2 }, [hidden], editor))).toEqual({
      code: 102,
      message: 'You are not authorized to access bug #2 (in dupe_of).',
    });
  });

  it('closes an open duplicate in RESOLVED whatever unusable duplicate status was stored, never leaving it open', () => {
    // Parameters are checked when changed (DUPLICATE_STATUSES); these are values saved before that.
    for (const stored of ['IN_PROGRESS', 'VERIFIED', 'garbage', '']) {
      const env = bugEnvironment({ parameters: { duplicate_or_move_bug_status: stored } });
      for (const status of ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']) {
        const { bug } = move(aBug(1, { status }), { dupe_of: 2 }, [target()], env);
        expect({ stored, status, bug: { status: bug.status, resolution: bug.resolution, dupeOf: bug.dupeOf } }).toEqual(
          { stored, status, bug: { status: 'RESOLVED', resolution: 'DUPLICATE', dupeOf: 2 } },
        );
      }
      expect(move(closed('FIXED', { status: 'VERIFIED' }), { dupe_of: 2 }, [target()], env).bug.status).toBe(
        'VERIFIED',
      );
    }
  });

  it('applies the closed status sent with the target the bug already duplicates', () => {
    const dupe = closed('DUPLICATE', { dupeOf: 2 });
    const result = move(dupe, { dupe_of: 2, status: 'VERIFIED' }, [aBug(2, { duplicates: [1] })]);
    expect(result.changes).toEqual({ status: { removed: 'RESOLVED', added: 'VERIFIED' } });
    expect(result.bug).toMatchObject({ status: 'VERIFIED', resolution: 'DUPLICATE', dupeOf: 2 });
    expect(result.outcome.comments).toEqual([]);
    expect(result.outcome.duplicateLinks).toEqual([]);
    const verified = closed('DUPLICATE', { status: 'VERIFIED', dupeOf: 2 });
    expect(refusal(() => move(verified, { dupe_of: 2, status: 'RESOLVED' }, [aBug(2, { duplicates: [1] })]))).toEqual({
      code: 123,
      message: 'A bug cannot move from VERIFIED to RESOLVED.',
    });
  });

  it('lets only people who may change the resolution mark a duplicate (115)', () => {
    const stranger = bugEnvironment({ caller: callerAs('stranger') });
    expect(refusal(() => move(aBug(1), { dupe_of: 2 }, [target()], stranger)).code).toBe(115);
    const reporter = bugEnvironment({ caller: callerAs('reporter') });
    expect(move(aBug(1), { dupe_of: 2 }, [target()], reporter).bug.dupeOf).toBe(2);
  });
});

describe('properties of any sequence of status changes', () => {
  // 50: an empty dupe_of, as Bugzilla 5.2's undefined_field.
  const ALLOWED_REFUSALS = [50, 51, 100, 118, 119, 121, 122, 123, 32000];
  const statusArb = fc.constantFrom(
    'UNCONFIRMED',
    'CONFIRMED',
    'IN_PROGRESS',
    'RESOLVED',
    'VERIFIED',
    'NEW',
    'assigned',
    'REOPENED',
    'CLOSED',
    'WAITING',
  );
  const resolutionArb = fc.constantFrom('', 'FIXED', 'invalid', 'WONTFIX', 'DUPLICATE', 'WORKSFORME', 'MOVED', null);
  const closingArb = fc.constantFrom('RESOLVED', 'VERIFIED', 'CLOSED');
  const bugArb = fc.constantFrom(1, 2, 3);
  /** Mostly plausible requests (a move, a closing, a resolution, a duplicate), some of them wrong. */
  const stepArb = fc.oneof(
    { weight: 4, arbitrary: fc.record({ bug: bugArb, status: statusArb }) },
    { weight: 3, arbitrary: fc.record({ bug: bugArb, status: closingArb, resolution: resolutionArb }) },
    { weight: 1, arbitrary: fc.record({ bug: bugArb, status: statusArb, resolution: resolutionArb }) },
    { weight: 2, arbitrary: fc.record({ bug: bugArb, resolution: resolutionArb }) },
    {
      weight: 3,
      arbitrary: fc.record({
        bug: bugArb,
        dupe_of: fc.constantFrom<number | string>(1, 2, 3, 3, ''),
        status: fc.option(fc.oneof(closingArb, statusArb), { nil: undefined }),
        resolution: fc.option(fc.constantFrom('DUPLICATE', 'duplicate', 'FIXED'), { nil: undefined }),
      }),
    },
  );

  /** A duplicate chain that comes back to where it started; the writer refuses these (118). */
  const hasDuplicateLoop = (bugs: Map<number, Bug>) =>
    [...bugs.keys()].some((start) => {
      const seen = new Set<number>();
      for (let at: number | null = start; at !== null; at = bugs.get(at)!.dupeOf) {
        if (seen.has(at)) return true;
        seen.add(at);
      }
      return false;
    });

  const checkInvariants = (bugs: Map<number, Bug>) => {
    for (const bug of bugs.values()) {
      const label = JSON.stringify({ id: bug.id, status: bug.status, resolution: bug.resolution, dupeOf: bug.dupeOf });
      expect(isOpenStatus(bug.status), label).toBe(bug.resolution === '');
      expect(bug.resolution === 'DUPLICATE', label).toBe(bug.dupeOf !== null);
      if (bug.dupeOf !== null) expect(bugs.get(bug.dupeOf)!.duplicates, label).toContain(bug.id);
      for (const dupe of bug.duplicates) expect(bugs.get(dupe)!.dupeOf, label).toBe(bug.id);
      if (isOpenStatus(bug.status) && bug.status !== 'UNCONFIRMED') expect(bug.isConfirmed, label).toBe(true);
    }
  };

  it('keeps open bugs unresolved, closed bugs resolved, duplicates linked both ways, and moves legal', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 25 }), (steps) => {
        let bugs = new Map([1, 2, 3].map((id) => [id, aBug(id, { status: 'UNCONFIRMED', isConfirmed: false })]));
        for (const { bug: id, ...request } of steps) {
          const input: { status?: string; resolution?: string | null; dupe_of?: number | string } = request;
          const before = bugs.get(id)!;
          let result: ReturnType<typeof updateBug>;
          try {
            result = updateBug(admin(), [...bugs.values()], id, input);
          } catch (error) {
            expect(error).toBeInstanceOf(TrackerError);
            expect(ALLOWED_REFUSALS).toContain((error as TrackerError).code);
            continue;
          }
          if (hasDuplicateLoop(result.working)) continue;
          const after = result.bug;
          expect(after.status === before.status || canChangeStatus(before.status, after.status)).toBe(true);
          if (before.isConfirmed && after.status !== 'UNCONFIRMED') expect(after.isConfirmed).toBe(true);
          if (after.status === 'UNCONFIRMED' && before.status !== 'UNCONFIRMED') expect(after.isConfirmed).toBe(false);
          if (input.status !== undefined && (input.dupe_of === undefined || input.dupe_of === ''))
            expect(after.status).toBe(canonicalStatus(input.status, before.status));
          bugs = result.working;
          checkInvariants(bugs);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('links a duplicate, with a notice on each side, exactly when the bug gets a new target', () => {
    fc.assert(
      fc.property(
        stepArb,
        fc.constantFrom<[string, string, number | null]>(
          ['CONFIRMED', '', null],
          ['RESOLVED', 'FIXED', null],
          ['VERIFIED', 'DUPLICATE', 2],
        ),
        (step, [status, resolution, dupeOf]) => {
          const start = aBug(1, { status, resolution, dupeOf });
          const others = [aBug(2, { duplicates: dupeOf === 2 ? [1] : [] }), aBug(3)];
          const { bug: _target, ...input } = step;
          let result: ReturnType<typeof updateBug>;
          try {
            result = updateBug(admin(), [start, ...others], 1, input);
          } catch {
            return;
          }
          const { bug, outcome } = result;
          const linked = bug.dupeOf !== null && bug.dupeOf !== start.dupeOf;
          expect(outcome.duplicateLinks).toEqual(linked ? [{ bugId: 1, dupeOf: bug.dupeOf }] : []);
          expect(outcome.comments.map((comment) => [comment.bugId, comment.commentType, comment.extraData])).toEqual(
            linked
              ? [
                  [1, 'dupe_of', bug.dupeOf],
                  [bug.dupeOf, 'has_dupe', 1],
                ]
              : [],
          );
          if (start.dupeOf !== null && bug.dupeOf !== start.dupeOf)
            expect(result.working.get(start.dupeOf)!.duplicates).not.toContain(1);
        },
      ),
      { numRuns: 150 },
    );
  });
});
