import { errors } from '../../errors.ts';
import type { Bug } from '../bug/bug.ts';
import { FIXED_VALUES, type LegalValue } from '../bug/bugFields.ts';
import {
  BUG_STATUSES,
  CLOSED_ALIAS,
  DEFAULT_MOVES,
  INITIAL_STATUSES,
  LEGACY_STATUS_NAMES,
  RESOLVED,
  UNCONFIRMED,
  VERIFIED,
} from '../bug/bugWorkflow.ts';

/**
 * The legal values of Bugzilla's built-in drop-down fields and the bug workflow, as one
 * installation has them: what Bugzilla's value editor (editvalues.cgi) and workflow editor
 * (editworkflow.cgi) change, and Tracker's routes under `/rest/field/bug/{field}/values` and
 * `/rest/field/bug/bug_status/workflow` (fieldValueRules.ts). Stored as catalogue items; a field
 * the installation never changed has the values a new installation starts with (bugFields.ts,
 * bugWorkflow.ts), so an installation from before these were data behaves as it always did.
 *
 * Bugs keep these values by name, as Bugzilla does. Bugzilla rewrites every bug's column when a
 * value is renamed; Tracker keeps the names a value had before (`formerNames`) and reads a bug's
 * stored name as the value's current name (`currentName`): one catalogue write, and every bug,
 * its rendering and its searches show the new name at once, whatever the number of bugs.
 */
export const VALUE_FIELDS = [
  'bug_status',
  'resolution',
  'priority',
  'bug_severity',
  'rep_platform',
  'op_sys',
  'bug_type',
] as const;
export type ValueField = (typeof VALUE_FIELDS)[number];

export const isValueField = (name: string): name is ValueField => (VALUE_FIELDS as readonly string[]).includes(name);

export interface FieldValue extends LegalValue {
  /** Inactive values stay on the bugs that have them but are no longer offered nor accepted anew. */
  readonly isActive: boolean;
  /** Statuses only: whether bugs in it are open (closed ones carry a resolution). */
  readonly isOpen?: boolean;
  /** Names it had before, oldest first: bugs written before a rename still carry them. */
  readonly formerNames?: readonly string[];
}

/** A move of the workflow; `from` null is a bug being filed (Bugzilla's "{Start}"). */
export interface Transition {
  readonly from: string | null;
  readonly to: string;
  readonly commentRequired: boolean;
}

/** What an installation stores: the fields it changed, and its workflow once changed. */
export interface StoredFieldValues {
  readonly lists: Partial<Record<ValueField, readonly FieldValue[]>>;
  readonly transitions?: readonly Transition[];
}

/** The values of a field a new installation starts with. */
export function defaultValues(field: ValueField): FieldValue[] {
  if (field === 'bug_status')
    return BUG_STATUSES.map(({ name, sortKey, isOpen }) => ({ name, sortKey, isActive: true, isOpen }));
  return FIXED_VALUES[field].map(({ name, sortKey }) => ({ name, sortKey, isActive: true }));
}

/** The workflow a new installation starts with. */
export const DEFAULT_TRANSITIONS: readonly Transition[] = /* @__PURE__ */ Object.freeze([
  ...INITIAL_STATUSES.map((to) => ({ from: null, to, commentRequired: false })),
  ...Object.entries(DEFAULT_MOVES).flatMap(([from, targets]) =>
    targets.map((to) => ({ from, to, commentRequired: false })),
  ),
]);

/** Bugzilla's order of a field's values: sort key, then name. */
const bySortKey = (a: FieldValue, b: FieldValue) =>
  a.sortKey - b.sortKey || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The installation's values and workflow, with the lookups every reader needs. Immutable. */
export class FieldValues {
  private readonly lists = new Map<ValueField, readonly FieldValue[]>();
  private readonly current = new Map<ValueField, Map<string, FieldValue>>();
  private readonly lowered = new Map<ValueField, Map<string, FieldValue>>();
  private readonly former = new Map<ValueField, Map<string, FieldValue>>();
  private readonly moves = new Map<string | null, Transition[]>();
  /** Every move, as stored (or the defaults). */
  readonly transitions: readonly Transition[];

  constructor(readonly stored: StoredFieldValues = { lists: {} }) {
    for (const field of VALUE_FIELDS) {
      const list = [...(stored.lists[field] ?? defaultValues(field))].sort(bySortKey);
      this.lists.set(field, list);
      this.current.set(field, new Map(list.map((value) => [value.name, value])));
      this.lowered.set(field, new Map([...list].reverse().map((value) => [value.name.toLowerCase(), value])));
      this.former.set(
        field,
        new Map(list.flatMap((value) => (value.formerNames ?? []).map((name) => [name, value] as const))),
      );
    }
    this.transitions = stored.transitions ?? DEFAULT_TRANSITIONS;
    const statuses = this.current.get('bug_status')!;
    // Only moves to active statuses are offered, in the order of the target (Bugzilla's can_change_to).
    const targets = this.transitions
      .filter((move) => statuses.get(move.to)?.isActive)
      .sort((a, b) => bySortKey(statuses.get(a.to)!, statuses.get(b.to)!));
    for (const move of targets) {
      const list = this.moves.get(move.from) ?? [];
      list.push(move);
      this.moves.set(move.from, list);
    }
  }

  /** Every value of the field (inactive ones too), in display order. */
  list(field: ValueField): readonly FieldValue[] {
    return this.lists.get(field)!;
  }

  /** The values that may be chosen anew. */
  active(field: ValueField): FieldValue[] {
    return this.list(field).filter((value) => value.isActive);
  }

  /** A value by its current name: exactly, else ignoring case (names are unique without regard to case). */
  named(field: ValueField, name: string): FieldValue | undefined {
    return this.current.get(field)!.get(name) ?? this.lowered.get(field)!.get(name.toLowerCase());
  }

  /** The value a name stored on a bug stands for: its current name, or a name it had before a rename. */
  valueOf(field: ValueField, stored: string): FieldValue | undefined {
    return this.current.get(field)!.get(stored) ?? this.former.get(field)!.get(stored);
  }

  /** What a bug that stored this name shows now; a name no value ever had is shown as it is. */
  currentName(field: ValueField, stored: string): string {
    return this.valueOf(field, stored)?.name ?? stored;
  }

  /**
   * A value given in a request, as its current name: an unknown value is 51, an inactive one is
   * refused unless the bug has it already (`kept`), as Tracker does with inactive versions.
   */
  check(field: ValueField, label: string, input: unknown, kept?: string): string {
    const text = String(input ?? '').trim();
    const value = this.named(field, text);
    if (!value) throw errors.notFoundByName(label, text);
    if (!value.isActive && (kept === undefined || this.currentName(field, kept) !== value.name))
      throw errors.invalidParameter(`The ${label} '${value.name}' is disabled: bugs keep it, but it cannot be chosen.`);
    return value.name;
  }

  /** A status by its current name (or one it had before). */
  status(name: string): FieldValue | undefined {
    return this.valueOf('bug_status', name);
  }

  isKnownStatus(name: string): boolean {
    return this.status(name) !== undefined;
  }

  /** Whether bugs in this status are open; unknown statuses are not. */
  isOpen(name: string): boolean {
    return this.status(name)?.isOpen === true;
  }

  isKnownResolution(name: string): boolean {
    return this.valueOf('resolution', name) !== undefined;
  }

  statusNames(filter: (status: FieldValue) => boolean = () => true): string[] {
    return this.list('bug_status')
      .filter(filter)
      .map((status) => status.name);
  }

  /** Where a bug in `from` may go (null: a bug being filed): moves to active statuses, by the target's order. */
  transitionsFrom(from: string | null): readonly Transition[] {
    return this.moves.get(from === null ? null : this.currentName('bug_status', from)) ?? [];
  }

  /** Statuses a new bug may be filed in. */
  initialStatuses(): string[] {
    return this.transitionsFrom(null).map((move) => move.to);
  }

  /** Whether a bug may move from `from` (null: a new bug) to `to`. Staying put is always allowed. */
  canChange(from: string | null, to: string): boolean {
    if (from !== null && this.currentName('bug_status', from) === this.currentName('bug_status', to))
      return this.isKnownStatus(to);
    return this.transitionsFrom(from).some((move) => move.to === this.currentName('bug_status', to));
  }

  /** Whether the move needs a comment (Bugzilla's comment_required_on_change_from). */
  commentRequired(from: string | null, to: string): boolean {
    const target = this.currentName('bug_status', to);
    if (from !== null && this.currentName('bug_status', from) === target) return false;
    return this.transitionsFrom(from).find((move) => move.to === target)?.commentRequired ?? false;
  }

  /** Refuses a move that needs a comment made without one (Bugzilla's comment_required: 32000). */
  requireComment(from: string | null, to: string, comment: string | undefined): void {
    if (this.commentRequired(from, to) && !comment?.trim())
      throw errors.invalidParameter(
        `You have to specify a comment when ${from === null ? `filing a bug as ${to}` : `changing the status of a bug from ${from} to ${to}`}.`,
      );
  }

  /**
   * The closed statuses a bug marked as a duplicate may be put in (the `duplicate_or_move_bug_status`
   * parameter): Bugzilla accepts any closed status and keeps every status able to move to it; Tracker
   * offers the closed statuses every open status may move to (RESOLVED with the default workflow).
   */
  duplicateStatuses(): string[] {
    const open = this.list('bug_status').filter((status) => status.isOpen);
    return this.list('bug_status')
      .filter(
        (target) => !target.isOpen && target.isActive && open.every((from) => this.canChange(from.name, target.name)),
      )
      .map((status) => status.name);
  }

  /**
   * Where a bug marked as a duplicate goes: the configured status, or else RESOLVED (Bugzilla's
   * default) or the first status that may be, when the stored parameter is not one of
   * duplicateStatuses (only a value saved before the parameter was checked can be).
   */
  duplicateStatus(configured: string | undefined): string {
    const allowed = this.duplicateStatuses();
    const wanted = configured === undefined ? undefined : this.currentName('bug_status', configured);
    if (wanted !== undefined && allowed.includes(wanted)) return wanted;
    return allowed.includes(RESOLVED) ? RESOLVED : (allowed[0] ?? RESOLVED);
  }

  /**
   * A status named in a request: the installation's status of that name (in any case), else a
   * name of Bugzilla's old workflow (bugWorkflow.ts LEGACY_STATUS_NAMES) as its upgrade mapped
   * it, when the installation has that status. Anything else is returned trimmed (and refused
   * by the caller as unknown).
   */
  canonicalStatus(name: string, from: string | null): string {
    const trimmed = name.trim();
    const known = this.named('bug_status', trimmed);
    if (known) return known.name;
    const upper = trimmed.toUpperCase();
    if (upper === CLOSED_ALIAS) {
      const closed = from === null || this.isOpen(from) ? RESOLVED : VERIFIED;
      return this.named('bug_status', closed)?.name ?? trimmed;
    }
    const legacy = LEGACY_STATUS_NAMES[upper];
    return (legacy && this.named('bug_status', legacy)?.name) || trimmed;
  }

  /**
   * The status a new bug gets when none is asked for (Bugzilla's _check_bug_status): a user who
   * may confirm gets the first status a new bug may take other than UNCONFIRMED; others get
   * UNCONFIRMED where the product allows it, or else the first.
   */
  defaultInitialStatus(canConfirm: boolean, allowsUnconfirmed: boolean): string | undefined {
    const initial = this.initialStatuses().filter((status) => allowsUnconfirmed || status !== UNCONFIRMED);
    if (!canConfirm && initial.includes(UNCONFIRMED)) return UNCONFIRMED;
    return initial.find((status) => status !== UNCONFIRMED) ?? initial[0];
  }
}

/**
 * The values a new installation starts with, and an installation that never changed them has.
 * (Pure: bundles that import this module only for its types or one function leave it out.)
 */
export const DEFAULT_FIELD_VALUES = /* @__PURE__ */ new FieldValues();

/** The bug's properties that hold a value of these fields. */
const BUG_VALUE_PROPERTIES = [
  ['status', 'bug_status'],
  ['resolution', 'resolution'],
  ['priority', 'priority'],
  ['severity', 'bug_severity'],
  ['platform', 'rep_platform'],
  ['opSys', 'op_sys'],
  ['bugType', 'bug_type'],
] as const satisfies ReadonlyArray<readonly [keyof Bug, ValueField]>;

/**
 * The bug with every value under its current name, as read from storage: a bug stored before a
 * rename is then changed and compared as if it had been rewritten (Bugzilla's rename rewrites
 * it). The same object when nothing was renamed.
 */
export function withCurrentNames(bug: Bug, values: FieldValues): Bug {
  let renamed: Bug | undefined;
  for (const [property, field] of BUG_VALUE_PROPERTIES) {
    const name = values.currentName(field, bug[property]);
    if (name !== bug[property]) {
      renamed ??= { ...bug };
      renamed[property] = name;
    }
  }
  return renamed ?? bug;
}
