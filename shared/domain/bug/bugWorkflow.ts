/**
 * The bug workflow Tracker ships with (Bugzilla's defaults, clarifications.md "Bug workflow"):
 * the statuses in display order, which are open, which moves are allowed, and the resolutions.
 * The `bug_status` field definition is rendered from this, and bug creation and update check
 * their status changes against it.
 */
export interface BugStatus {
  readonly name: string;
  readonly isOpen: boolean;
  readonly sortKey: number;
}

export interface StatusTransition {
  readonly to: string;
  readonly commentRequired: boolean;
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
const MOVES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  [UNCONFIRMED]: [CONFIRMED, IN_PROGRESS, RESOLVED],
  [CONFIRMED]: [IN_PROGRESS, RESOLVED],
  [IN_PROGRESS]: [CONFIRMED, RESOLVED],
  [RESOLVED]: [UNCONFIRMED, CONFIRMED, VERIFIED],
  [VERIFIED]: [UNCONFIRMED, CONFIRMED],
});

/** Resolutions in display order; the empty string is the resolution of an open bug. */
export const NO_RESOLUTION = '';
export const DUPLICATE = 'DUPLICATE';
export const RESOLUTIONS: readonly string[] = Object.freeze([
  NO_RESOLUTION,
  'FIXED',
  'INVALID',
  'WONTFIX',
  DUPLICATE,
  'WORKSFORME',
]);

export function findStatus(name: string): BugStatus | undefined {
  return BUG_STATUSES.find((status) => status.name === name);
}

export const isKnownStatus = (name: string): boolean => findStatus(name) !== undefined;

/** Whether bugs in this status are open; unknown statuses are not. */
export const isOpenStatus = (name: string): boolean => findStatus(name)?.isOpen ?? false;

export const isKnownResolution = (name: string): boolean => RESOLUTIONS.includes(name);

/** Where a bug in `from` may go; `null` is a bug being filed. */
export function transitionsFrom(from: string | null): StatusTransition[] {
  const targets = from === null ? INITIAL_STATUSES : (MOVES[from] ?? []);
  return targets.map((to) => ({ to, commentRequired: false }));
}

/** Whether a bug may move from `from` (null: a new bug) to `to`. Staying put is always allowed. */
export function canChangeStatus(from: string | null, to: string): boolean {
  if (from !== null && from === to) return isKnownStatus(to);
  return transitionsFrom(from).some((transition) => transition.to === to);
}

/**
 * The closed statuses a bug marked as a duplicate may be put in (the `duplicate_or_move_bug_status`
 * parameter): Bugzilla accepts only a closed status, and makes every status able to move to it;
 * Tracker's workflow is fixed, so it offers the closed statuses every open status may already
 * move to (RESOLVED with the default workflow).
 */
export const DUPLICATE_STATUSES: readonly string[] = Object.freeze(
  BUG_STATUSES.filter(
    (target) => !target.isOpen && BUG_STATUSES.every((from) => !from.isOpen || canChangeStatus(from.name, target.name)),
  ).map((status) => status.name),
);

/**
 * Where a bug marked as a duplicate goes: the configured status, or RESOLVED (Bugzilla's default)
 * when the stored value is not one of DUPLICATE_STATUSES, which only a value saved before the
 * parameter was checked can be. A duplicate is never left open.
 */
export const duplicateStatus = (configured: string | undefined): string =>
  configured !== undefined && DUPLICATE_STATUSES.includes(configured) ? configured : RESOLVED;

/** Whether the move needs a comment (never, with the default workflow). */
export function commentRequired(from: string | null, to: string): boolean {
  return transitionsFrom(from).find((transition) => transition.to === to)?.commentRequired ?? false;
}

/**
 * Status names of Bugzilla's workflow before 4.0, which scripts and the `bugzilla` command still
 * send (`bugzilla modify -k FIXED` sends CLOSED): each is read as the status Bugzilla's own
 * upgrade turned it into. CLOSED means "closed": RESOLVED from an open bug, VERIFIED otherwise.
 */
const LEGACY_STATUS_NAMES: Readonly<Record<string, string>> = Object.freeze({
  NEW: CONFIRMED,
  ASSIGNED: IN_PROGRESS,
  REOPENED: CONFIRMED,
});

export function canonicalStatus(name: string, from: string | null): string {
  const upper = name.trim().toUpperCase();
  if (isKnownStatus(upper)) return upper;
  if (upper === 'CLOSED') return from === null || isOpenStatus(from) ? RESOLVED : VERIFIED;
  return LEGACY_STATUS_NAMES[upper] ?? name.trim();
}
