import { describe, expect, it } from 'vitest';
import { controlRows, isRemoval, noControl, parseScopeLabels, scopeLabels } from '../../web/src/lib/groupControls.ts';
import { describeMoveChanges, moveKey, movesOf, statusesOf } from '../../web/src/lib/workflowMatrix.ts';

describe('web admin: the group-controls matrix', () => {
  const secret = { ...noControl('secret'), membercontrol: 'SHOWN' as const };

  it('shows the product’s controls and every other bug group without one, by name', () => {
    expect(controlRows([secret], ['qa', 'secret', 'abc']).map((row) => [row.group, row.membercontrol])).toEqual([
      ['abc', 'NA'],
      ['qa', 'NA'],
      ['secret', 'SHOWN'],
    ]);
  });

  it('calls a stored control set back to NA/NA with no flag a removal, and nothing else', () => {
    expect(isRemoval(noControl('secret'), [secret])).toBe(true);
    expect(isRemoval({ ...noControl('secret'), entry: true }, [secret])).toBe(false);
    expect(isRemoval(noControl('qa'), [secret])).toBe(false);
  });
});

describe('web admin: flag type scopes', () => {
  it('writes inclusions as the labels the API takes back', () => {
    expect(scopeLabels({ __Any__: ['__Any__'] })).toEqual(['__Any__']);
    expect(scopeLabels({ Widgets: ['__Any__'], Gears: ['Cogs', 'Shafts'] })).toEqual([
      'Widgets',
      'Gears:Cogs',
      'Gears:Shafts',
    ]);
    expect(parseScopeLabels('Widgets\n Gears:Cogs , \n')).toEqual(['Widgets', 'Gears:Cogs']);
  });
});

describe('web admin: the status workflow matrix', () => {
  const values = [
    { name: null, can_change_to: [{ name: 'CONFIRMED' }] },
    { name: 'CONFIRMED', is_open: true, can_change_to: [{ name: 'RESOLVED', comment_required: true }] },
    { name: 'RESOLVED', is_open: false, can_change_to: [{ name: 'CONFIRMED' }] },
  ];

  it('reads the moves, a new bug’s as from null, with comment_required', () => {
    const moves = movesOf(values);
    expect([...moves.values()]).toEqual([
      { from: null, to: 'CONFIRMED', comment_required: false },
      { from: 'CONFIRMED', to: 'RESOLVED', comment_required: true },
      { from: 'RESOLVED', to: 'CONFIRMED', comment_required: false },
    ]);
    expect(statusesOf(values).map((s) => s.name)).toEqual(['CONFIRMED', 'RESOLVED']);
  });

  it('says what a change adds, removes and requires', () => {
    const before = movesOf(values);
    const after = new Map(before);
    after.delete(moveKey('RESOLVED', 'CONFIRMED'));
    after.set(moveKey('CONFIRMED', 'RESOLVED'), { from: 'CONFIRMED', to: 'RESOLVED', comment_required: false });
    after.set(moveKey(null, 'RESOLVED'), { from: null, to: 'RESOLVED', comment_required: true });
    expect(describeMoveChanges(before, after)).toEqual([
      'no longer require a comment for CONFIRMED → RESOLVED',
      'add (new bug) → RESOLVED (comment required)',
      'remove RESOLVED → CONFIRMED',
    ]);
  });
});
