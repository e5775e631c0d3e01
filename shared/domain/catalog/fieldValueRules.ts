import { errors } from '../../errors.ts';
import { DUPLICATE, FIXED, NO_RESOLUTION, UNCONFIRMED } from '../bug/bugWorkflow.ts';
import { flagText } from '../changeReport.ts';
import { characterCount, checkNameCharacters } from '../inputLimits.ts';
import type { ParameterChange, Parameters } from '../instance/parameters.ts';
import type { FieldValue, FieldValues, Transition, ValueField } from './fieldValues.ts';

/**
 * What administrators may do to the legal values of the built-in drop-down fields and to the
 * workflow, with Bugzilla's rules (Bugzilla::Field::Choice, Bugzilla::Status, editvalues.cgi,
 * editworkflow.cgi): add a value, rename it, change its sort key, disable it; open or closed for
 * a new status; the moves between statuses and which of them need a comment. Values are never
 * deleted (Bugzilla deletes only values no bug uses; a disabled value does everything else).
 */

/** The parameters that name a field's default (Bugzilla's DEFAULT_MAP). */
export const DEFAULT_PARAMETER: Readonly<Partial<Record<ValueField, string>>> = Object.freeze({
  bug_type: 'default_bug_type',
  op_sys: 'defaultopsys',
  rep_platform: 'defaultplatform',
  priority: 'defaultpriority',
  bug_severity: 'defaultseverity',
});

const LABELS: Readonly<Record<ValueField, string>> = Object.freeze({
  bug_status: 'status',
  resolution: 'resolution',
  priority: 'priority',
  bug_severity: 'severity',
  rep_platform: 'platform',
  op_sys: 'operating system',
  bug_type: 'bug type',
});

/** How errors name a field's values. */
export const valueLabel = (field: ValueField): string => LABELS[field];

/** Bugzilla's MAX_FIELD_VALUE_SIZE, and its sort keys' column (a SMALLINT). */
const MAX_VALUE_LENGTH = 64;
const MAX_SORT_KEY = 32_767;
/** Words Bugzilla's workflow actions use, which no status may be named (Bugzilla::Status). */
const RESERVED_STATUS_NAMES: readonly string[] = ['none', 'duplicate', 'change_resolution', 'clearresolution'];

export interface ValueInput {
  name?: string;
  sort_key?: number;
  is_active?: boolean;
  /** Statuses only, and only when adding one. */
  is_open?: boolean;
}

/** A planned change of one field's values: what to store, and what it changes. */
export interface ValueEdit {
  field: ValueField;
  /** The value's name after the change. */
  name: string;
  /** Every value of the field after the change. */
  list: FieldValue[];
  /** The workflow after the change, when it changes (a status added or renamed). */
  transitions?: Transition[];
  /** Parameters that name the value and follow its rename, as Bugzilla's SetParam does. */
  parameters: Record<string, ParameterChange>;
  changes: Record<string, ParameterChange>;
}

/**
 * Why a value may be neither renamed nor disabled (Bugzilla's is_static), or null: the
 * resolutions and statuses Tracker's rules name, and the status duplicates are moved to.
 */
function staticReason(values: FieldValues, field: ValueField, name: string, parameters: Parameters): string | null {
  if (field === 'resolution' && name === NO_RESOLUTION) return 'it is the resolution of every open bug';
  if (field === 'resolution' && [FIXED, DUPLICATE].includes(name)) return 'the bug rules refer to it by name';
  if (field === 'bug_status' && name === UNCONFIRMED) return 'the bug rules refer to it by name';
  if (field === 'bug_status' && name === values.duplicateStatus(parameters.duplicate_or_move_bug_status))
    return 'duplicates are moved to it (the parameter duplicate_or_move_bug_status)';
  return null;
}

function checkName(values: FieldValues, field: ValueField, input: string | undefined, self?: FieldValue): string {
  const label = valueLabel(field);
  const name = (input ?? '').trim();
  if (name === '') throw errors.nameRequired(`${label} value`);
  checkNameCharacters(name, `${label} value`);
  if (characterCount(name) > MAX_VALUE_LENGTH) throw errors.nameTooLong(`${label} value`, MAX_VALUE_LENGTH);
  if (field === 'bug_status' && RESERVED_STATUS_NAMES.includes(name.toLowerCase()))
    throw errors.invalidParameter(`'${name}' is a reserved word of the workflow and cannot name a status.`);
  const existing = values.named(field, name);
  if (existing && existing !== self) throw errors.nameTaken(label, existing.name);
  // A bug filed before a rename still carries the old name: another value taking it would take those
  // bugs. Names are unique without regard to case, so 'high' is as taken as 'High' was.
  const lowered = name.toLowerCase();
  const holder = values
    .list(field)
    .find((value) => value !== self && (value.formerNames ?? []).some((old) => old.toLowerCase() === lowered));
  if (holder)
    throw errors.invalidParameter(
      `'${name}' was the name of the ${label} '${holder.name}' before a rename, and bugs filed before still carry it: choose another name.`,
    );
  return name;
}

function checkSortKey(sortKey: number | undefined, fallback: number): number {
  if (sortKey === undefined) return fallback;
  if (!Number.isInteger(sortKey) || sortKey < 0 || sortKey > MAX_SORT_KEY)
    throw errors.invalidParameter(`A sort key must be a whole number from 0 to ${MAX_SORT_KEY}.`);
  return sortKey;
}

/** A new value (Bugzilla's editvalues.cgi "add"); a new open status may always move to the duplicates' status. */
export function planNewValue(
  values: FieldValues,
  field: ValueField,
  input: ValueInput,
  parameters: Parameters,
): ValueEdit {
  if (field !== 'bug_status' && input.is_open !== undefined)
    throw errors.invalidParameter('Only statuses are open or closed (is_open).');
  const name = checkName(values, field, input.name);
  const value: FieldValue = {
    name,
    sortKey: checkSortKey(input.sort_key, 0),
    isActive: input.is_active ?? true,
    ...(field === 'bug_status' ? { isOpen: input.is_open ?? true } : {}),
  };
  const edit: ValueEdit = {
    field,
    name,
    list: [...values.list(field), value],
    parameters: {},
    changes: { name: { removed: '', added: name } },
  };
  if (field === 'bug_status') {
    // Bugzilla's add_missing_bug_status_transitions: a bug marked as a duplicate moves to that status
    // (Tracker moves only open bugs there: a closed duplicate keeps its status).
    const duplicates = values.duplicateStatus(parameters.duplicate_or_move_bug_status);
    edit.transitions = [...values.transitions];
    if (value.isOpen) edit.transitions.push({ from: name, to: duplicates, commentRequired: false });
  }
  return edit;
}

/** A change of one value: rename, sort key, enable or disable. */
export function planValueUpdate(
  values: FieldValues,
  field: ValueField,
  reference: string,
  input: ValueInput,
  parameters: Parameters,
): ValueEdit {
  const label = valueLabel(field);
  const previous = values.named(field, reference);
  if (!previous) throw errors.notFoundByName(label, reference);
  if (input.is_open !== undefined && input.is_open !== (previous.isOpen ?? input.is_open))
    throw errors.invalidParameter(
      `A status cannot change between open and closed: its bugs would keep, or lack, a resolution. Add a new status instead.`,
    );
  if (field !== 'bug_status' && input.is_open !== undefined)
    throw errors.invalidParameter('Only statuses are open or closed (is_open).');
  const why = staticReason(values, field, previous.name, parameters);
  const name = input.name === undefined ? previous.name : checkName(values, field, input.name, previous);
  const isActive = input.is_active ?? previous.isActive;
  if (why && (name !== previous.name || !isActive))
    throw errors.invalidParameter(`The ${label} '${previous.name}' cannot be renamed or disabled: ${why}.`);
  const parameter = DEFAULT_PARAMETER[field];
  const isDefault = parameter !== undefined && values.currentName(field, parameters[parameter] ?? '') === previous.name;
  if (!isActive && isDefault)
    throw errors.invalidParameter(
      `The ${label} '${previous.name}' is the default (the parameter ${parameter}), so it cannot be disabled: choose another default first.`,
    );

  const next: FieldValue = {
    ...previous,
    name,
    sortKey: checkSortKey(input.sort_key, previous.sortKey),
    isActive,
  };
  const changes: Record<string, ParameterChange> = {};
  const edit: ValueEdit = { field, name, list: [], parameters: {}, changes };
  if (name !== previous.name) {
    changes.name = { removed: previous.name, added: name };
    const formerNames = [...new Set([...(previous.formerNames ?? []), previous.name])].filter((old) => old !== name);
    Object.assign(next, { formerNames });
    if (isDefault) edit.parameters[parameter!] = { removed: parameters[parameter!] ?? '', added: name };
    if (field === 'bug_status') {
      const renamed = (status: string | null) => (status === previous.name ? name : status);
      edit.transitions = values.transitions.map((move) => ({
        ...move,
        from: renamed(move.from),
        to: renamed(move.to)!,
      }));
    }
  }
  if (next.sortKey !== previous.sortKey)
    changes.sort_key = { removed: String(previous.sortKey), added: String(next.sortKey) };
  if (next.isActive !== previous.isActive)
    changes.is_active = { removed: flagText(previous.isActive), added: flagText(next.isActive) };
  edit.list = values.list(field).map((value) => (value === previous ? next : value));
  return edit;
}

/** A move as a request names it: `from` null, absent or empty is a bug being filed. */
export interface TransitionInput {
  from?: string | null;
  to: string;
  comment_required?: boolean;
}

export interface WorkflowInput {
  /** The whole workflow, replacing what there is (editworkflow.cgi's matrix). */
  transitions?: TransitionInput[];
  add?: TransitionInput[];
  remove?: TransitionInput[];
}

export interface WorkflowEdit {
  transitions: Transition[];
  added: Transition[];
  removed: Transition[];
}

const moveKey = (move: Pick<Transition, 'from' | 'to'>) => `${move.from ?? ''}\u0000${move.to}`;

/**
 * A new workflow (editworkflow.cgi): the moves given, checked against the statuses; a new bug
 * starts only in an open status; a status never moves to itself (staying put is always allowed);
 * and, as in Bugzilla, every open status keeps its move to the status duplicates are moved to
 * (Bugzilla keeps one from closed statuses too; Tracker never moves a closed duplicate).
 */
export function planWorkflow(values: FieldValues, input: WorkflowInput, parameters: Parameters): WorkflowEdit {
  if (input.transitions === undefined && input.add === undefined && input.remove === undefined)
    throw errors.missingParameter('Give the workflow as transitions, or the moves to add or remove.');
  const status = (name: string) => {
    const found = values.named('bug_status', name);
    if (!found) throw errors.notFoundByName('status', name);
    return found.name;
  };
  const resolve = (move: TransitionInput): Transition => {
    const from = move.from === null || move.from === undefined || move.from.trim() === '' ? null : status(move.from);
    const to = status(move.to);
    if (from === to)
      throw errors.invalidParameter(`A status cannot move to itself (${to}): staying put is always allowed.`);
    if (from === null && !values.isOpen(to))
      throw errors.invalidParameter(`A new bug cannot be filed in a closed status (${to}).`);
    return { from, to, commentRequired: move.comment_required === true };
  };
  const moves = new Map<string, Transition>();
  for (const move of input.transitions === undefined ? values.transitions : []) moves.set(moveKey(move), move);
  for (const move of input.transitions ?? []) moves.set(moveKey(resolve(move)), resolve(move));
  for (const move of input.remove ?? []) moves.delete(moveKey(resolve(move)));
  for (const move of input.add ?? []) moves.set(moveKey(resolve(move)), resolve(move));
  const duplicates = values.duplicateStatus(parameters.duplicate_or_move_bug_status);
  for (const from of values.statusNames((candidate) => candidate.isOpen === true && candidate.name !== duplicates)) {
    const key = moveKey({ from, to: duplicates });
    if (!moves.has(key)) moves.set(key, { from, to: duplicates, commentRequired: false });
  }
  const order = new Map(values.statusNames().map((name, position) => [name, position]));
  const rank = (name: string | null) => (name === null ? -1 : (order.get(name) ?? order.size));
  const transitions = [...moves.values()].sort((a, b) => rank(a.from) - rank(b.from) || rank(a.to) - rank(b.to));
  const same = (a: Transition, b: Transition | undefined) => b !== undefined && a.commentRequired === b.commentRequired;
  const before = new Map(values.transitions.map((move) => [moveKey(move), move]));
  return {
    transitions,
    added: transitions.filter((move) => !same(move, before.get(moveKey(move)))),
    removed: values.transitions.filter((move) => !same(move, moves.get(moveKey(move)))),
  };
}
