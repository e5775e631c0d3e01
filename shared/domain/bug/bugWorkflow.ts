/**
 * The bug workflow a new installation starts with (Bugzilla's defaults, clarifications.md "Bug
 * workflow"): the statuses in display order, which are open, which moves are allowed, and the
 * resolutions. An installation changes them through Tracker's value and workflow routes; the
 * rules that read them (which status is open, which move is legal) live with the installation's
 * values in catalog/fieldValues.ts, and these are what it holds until an administrator edits them.
 */
export interface BugStatus {
  readonly name: string;
  readonly isOpen: boolean;
  readonly sortKey: number;
}

export const UNCONFIRMED = 'UNCONFIRMED';
export const CONFIRMED = 'CONFIRMED';
export const IN_PROGRESS = 'IN_PROGRESS';
export const RESOLVED = 'RESOLVED';
export const VERIFIED = 'VERIFIED';

export const BUG_STATUSES: readonly BugStatus[] = Object.freeze([
  { name: UNCONFIRMED, isOpen: true, sortKey: 100 },
  { name: CONFIRMED, isOpen: true, sortKey: 200 },
  { name: IN_PROGRESS, isOpen: true, sortKey: 300 },
  { name: RESOLVED, isOpen: false, sortKey: 400 },
  { name: VERIFIED, isOpen: false, sortKey: 500 },
]);

/** Statuses a new bug may be filed in. */
export const INITIAL_STATUSES: readonly string[] = Object.freeze([UNCONFIRMED, CONFIRMED, IN_PROGRESS]);

/** Allowed moves, in display order of the target; no move requires a comment by default. */
export const DEFAULT_MOVES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  [UNCONFIRMED]: [CONFIRMED, IN_PROGRESS, RESOLVED],
  [CONFIRMED]: [IN_PROGRESS, RESOLVED],
  [IN_PROGRESS]: [CONFIRMED, RESOLVED],
  [RESOLVED]: [UNCONFIRMED, CONFIRMED, VERIFIED],
  [VERIFIED]: [UNCONFIRMED, CONFIRMED],
});

/** Resolutions in display order; the empty string is the resolution of an open bug. */
export const NO_RESOLUTION = '';
export const FIXED = 'FIXED';
export const DUPLICATE = 'DUPLICATE';
export const RESOLUTIONS: readonly string[] = Object.freeze([
  NO_RESOLUTION,
  FIXED,
  'INVALID',
  'WONTFIX',
  DUPLICATE,
  'WORKSFORME',
]);

/**
 * Status names of Bugzilla's workflow before 4.0, which scripts and the `bugzilla` command still
 * send (`bugzilla modify -k FIXED` sends CLOSED): each is read as the status Bugzilla's own
 * upgrade turned it into, when the installation has no status of that name itself. CLOSED means
 * "closed": RESOLVED from an open bug, VERIFIED otherwise.
 */
export const LEGACY_STATUS_NAMES: Readonly<Record<string, string>> = Object.freeze({
  NEW: CONFIRMED,
  ASSIGNED: IN_PROGRESS,
  REOPENED: CONFIRMED,
});
export const CLOSED_ALIAS = 'CLOSED';
