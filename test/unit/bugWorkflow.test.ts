import { describe, expect, it } from 'vitest';
import { BUG_STATUSES, INITIAL_STATUSES, RESOLUTIONS } from '../../shared/domain/bug/bugWorkflow.ts';
import { DEFAULT_FIELD_VALUES } from '../../shared/domain/catalog/fieldValues.ts';

/** The workflow an installation that never changed it has (catalog/fieldValues.ts). */
const workflow = DEFAULT_FIELD_VALUES;
const isOpenStatus = (name: string) => workflow.isOpen(name);
const canChangeStatus = (from: string | null, to: string) => workflow.canChange(from, to);
const transitionsFrom = (from: string | null) => workflow.transitionsFrom(from);
const commentRequired = (from: string | null, to: string) => workflow.commentRequired(from, to);
const isKnownResolution = (name: string) => workflow.isKnownResolution(name);
const findStatus = (name: string) => workflow.status(name);

/** clarifications.md, "Bug workflow (Bugzilla's defaults)", as a table of allowed moves. */
const EXPECTED_MOVES: Record<string, string[]> = {
  UNCONFIRMED: ['CONFIRMED', 'IN_PROGRESS', 'RESOLVED'],
  CONFIRMED: ['IN_PROGRESS', 'RESOLVED'],
  IN_PROGRESS: ['CONFIRMED', 'RESOLVED'],
  RESOLVED: ['UNCONFIRMED', 'CONFIRMED', 'VERIFIED'],
  VERIFIED: ['UNCONFIRMED', 'CONFIRMED'],
};

describe('bug workflow', () => {
  it('lists the statuses in order, the first three open, with sort keys 100..500', () => {
    expect(BUG_STATUSES.map((status) => [status.name, status.isOpen, status.sortKey])).toEqual([
      ['UNCONFIRMED', true, 100],
      ['CONFIRMED', true, 200],
      ['IN_PROGRESS', true, 300],
      ['RESOLVED', false, 400],
      ['VERIFIED', false, 500],
    ]);
    expect(isOpenStatus('IN_PROGRESS')).toBe(true);
    expect(isOpenStatus('VERIFIED')).toBe(false);
    expect(isOpenStatus('NEW')).toBe(false);
    expect(findStatus('NEW')).toBeUndefined();
  });

  it('files new bugs only in open statuses', () => {
    expect(INITIAL_STATUSES).toEqual(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);
    expect(transitionsFrom(null).map((transition) => transition.to)).toEqual(INITIAL_STATUSES);
    expect(canChangeStatus(null, 'CONFIRMED')).toBe(true);
    expect(canChangeStatus(null, 'RESOLVED')).toBe(false);
  });

  it('allows exactly the moves of the default workflow, none needing a comment', () => {
    for (const from of BUG_STATUSES.map((status) => status.name)) {
      expect(transitionsFrom(from).map((transition) => transition.to)).toEqual(EXPECTED_MOVES[from]);
      for (const to of BUG_STATUSES.map((status) => status.name)) {
        const allowed = from === to || EXPECTED_MOVES[from].includes(to);
        expect(canChangeStatus(from, to), `${from} -> ${to}`).toBe(allowed);
        expect(commentRequired(from, to)).toBe(false);
      }
    }
    expect(canChangeStatus('CONFIRMED', 'VERIFIED')).toBe(false);
    expect(canChangeStatus('NEW', 'NEW')).toBe(false);
    expect(transitionsFrom('NEW')).toEqual([]);
  });

  it('has the resolutions, the empty one first', () => {
    expect(RESOLUTIONS).toEqual(['', 'FIXED', 'INVALID', 'WONTFIX', 'DUPLICATE', 'WORKSFORME']);
    expect(isKnownResolution('FIXED')).toBe(true);
    expect(isKnownResolution('MOVED')).toBe(false);
  });
});

describe('status names of the old workflow', () => {
  it('reads CLOSED as RESOLVED from an open bug and VERIFIED from a closed one, and NEW, ASSIGNED, REOPENED as Bugzilla upgraded them', async () => {
    const canonicalStatus = (name: string, from: string | null) => workflow.canonicalStatus(name, from);
    expect(canonicalStatus('CLOSED', 'CONFIRMED')).toBe('RESOLVED');
    expect(canonicalStatus('closed', 'RESOLVED')).toBe('VERIFIED');
    expect(canonicalStatus('NEW', 'UNCONFIRMED')).toBe('CONFIRMED');
    expect(canonicalStatus('ASSIGNED', 'CONFIRMED')).toBe('IN_PROGRESS');
    expect(canonicalStatus('REOPENED', 'RESOLVED')).toBe('CONFIRMED');
    expect(canonicalStatus('in_progress', 'CONFIRMED')).toBe('IN_PROGRESS');
    expect(canonicalStatus('WAITING', 'CONFIRMED')).toBe('WAITING');
  });
});
