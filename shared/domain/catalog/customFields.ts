import { errors } from '../../errors.ts';
import { FIELD_TYPE, type FieldType, isSelectType } from '../bug/bugFields.ts';
import { flagText } from '../changeReport.ts';
import { characterCount, checkNameCharacters } from '../inputLimits.ts';

/**
 * Custom bug fields (`cf_*`), Tracker's administration call for what Bugzilla does in its
 * editfields page: the field, its rules, and the legal values of select fields. Pure: callers
 * pass in how to look up the fields that may control visibility.
 */
interface CustomFieldValue {
  name: string;
  sortKey: number;
  /** Values of the field's `valueField` for which this value is offered; empty: always. */
  visibilityValues: string[];
}

export interface CustomField {
  id: number;
  name: string;
  displayName: string;
  type: FieldType;
  isMandatory: boolean;
  isOnBugEntry: boolean;
  visibilityField: string | null;
  visibilityValues: string[];
  valueField: string | null;
  sortKey: number;
  isObsolete: boolean;
  values: CustomFieldValue[];
}

/** Types a custom field may have: every type of the spec but 0 (unknown), 7 (See Also) and 8 (keywords). */
export const CUSTOM_FIELD_TYPES: readonly FieldType[] = Object.freeze([
  FIELD_TYPE.FREETEXT,
  FIELD_TYPE.SINGLE_SELECT,
  FIELD_TYPE.MULTI_SELECT,
  FIELD_TYPE.TEXTAREA,
  FIELD_TYPE.DATETIME,
  FIELD_TYPE.BUG_ID,
  FIELD_TYPE.DATE,
  FIELD_TYPE.INTEGER,
]);

/** A single-select field's value when none is chosen, as in Bugzilla: always present, first. */
export const EMPTY_SELECT_VALUE = '---';
const MAX_FIELD_NAME_LENGTH = 64;
const MAX_DISPLAY_NAME_LENGTH = 255;
const MAX_VALUE_LENGTH = 64;

/**
 * A new custom field's name as Bugzilla 5.2's Field::_check_name makes it: lower-cased, and given
 * the `cf_` prefix when it lacks one (`cf_QA_status` and `QA_status` both become `cf_qa_status`).
 */
function checkCustomFieldName(name: string | undefined): string {
  const lowered = (name ?? '').trim().toLowerCase();
  if (lowered === '') throw errors.nameRequired('field');
  const trimmed = lowered.startsWith('cf_') ? lowered : `cf_${lowered}`;
  if (!/^cf_[a-z0-9_]+$/.test(trimmed)) {
    throw errors.invalidParameter(
      `The field name '${trimmed}' is invalid: custom field names start with 'cf_' and hold only lowercase letters, digits and underscores.`,
    );
  }
  if (characterCount(trimmed) > MAX_FIELD_NAME_LENGTH)
    throw errors.invalidParameter(`Field names can be at most ${MAX_FIELD_NAME_LENGTH} characters long.`);
  return trimmed;
}

function checkDisplayName(displayName: string | undefined): string {
  const trimmed = (displayName ?? '').trim();
  checkNameCharacters(trimmed, 'display name');
  if (trimmed === '') throw errors.invalidParameter('You must enter a description (display_name) for the field.');
  if (characterCount(trimmed) > MAX_DISPLAY_NAME_LENGTH)
    throw errors.invalidParameter(`Field descriptions can be at most ${MAX_DISPLAY_NAME_LENGTH} characters long.`);
  return trimmed;
}

function checkCustomFieldType(type: number | undefined): FieldType {
  if (type === undefined) throw errors.invalidParameter("The parameter 'type' is required.");
  if (!CUSTOM_FIELD_TYPES.includes(type as FieldType)) {
    throw errors.invalidParameter(
      `Custom fields cannot have type ${type}; the types are ${CUSTOM_FIELD_TYPES.join(', ')}.`,
    );
  }
  return type as FieldType;
}

/** A legal value as the API receives it: a name, or an object with a name. */
export type ValueInput = string | { name: string; sort_key?: number; visibility_values?: string[] };

/**
 * Legal value names of a field that may control another field's visibility or values (a
 * select field); undefined when there is no such field or it cannot control anything.
 */
export type ControllerValues = (fieldName: string) => readonly string[] | undefined;

export interface CustomFieldInput {
  name?: string;
  display_name?: string;
  type?: number;
  is_mandatory?: boolean;
  is_on_bug_entry?: boolean;
  visibility_field?: string | null;
  visibility_values?: string[];
  value_field?: string | null;
  sort_key?: number;
  is_obsolete?: boolean;
}

function checkValueName(type: FieldType, name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw errors.invalidParameter('A legal value of a field cannot be blank.');
  checkNameCharacters(trimmed, 'field value');
  if (characterCount(trimmed) > MAX_VALUE_LENGTH)
    throw errors.invalidParameter(`Field values can be at most ${MAX_VALUE_LENGTH} characters long: '${trimmed}'.`);
  if (type === FIELD_TYPE.MULTI_SELECT && trimmed.includes(','))
    throw errors.invalidParameter(`Values of a multiple-selection field cannot contain commas: '${trimmed}'.`);
  return trimmed;
}

function checkController(
  fieldName: string,
  controller: string,
  controllers: ControllerValues,
  what: string,
): readonly string[] {
  if (controller === fieldName) throw errors.invalidParameter(`The field ${fieldName} cannot be its own ${what}.`);
  const legal = controllers(controller);
  if (legal === undefined)
    throw errors.invalidParameter(`The ${what} '${controller}' must be an existing drop-down field.`);
  return legal;
}

function checkControllerValues(controller: string, values: readonly string[], legal: readonly string[]): string[] {
  const unique = [...new Set(values.map((value) => value.trim()))];
  for (const value of unique) {
    if (!legal.includes(value))
      throw errors.invalidParameter(`'${value}' is not a legal value of the field ${controller}.`);
  }
  return unique;
}

/** The visibility rule: a controlling field with at least one of its values, or none at all. */
function checkVisibility(
  fieldName: string,
  visibilityField: string | null,
  visibilityValues: readonly string[],
  controllers: ControllerValues,
) {
  if (visibilityField === null) {
    if (visibilityValues.length > 0) throw errors.invalidParameter('visibility_values need a visibility_field.');
    return { visibilityField: null, visibilityValues: [] };
  }
  const legal = checkController(fieldName, visibilityField, controllers, 'visibility_field');
  if (visibilityValues.length === 0)
    throw errors.invalidParameter(
      `Name the values of ${visibilityField} for which the field shows, in visibility_values.`,
    );
  return { visibilityField, visibilityValues: checkControllerValues(visibilityField, visibilityValues, legal) };
}

function toValue(
  type: FieldType,
  input: ValueInput,
  valueField: string | null,
  controllers: ControllerValues,
  defaultSortKey: number,
): CustomFieldValue {
  const given = typeof input === 'string' ? { name: input } : input;
  const name = checkValueName(type, given.name ?? '');
  const visibility = given.visibility_values ?? [];
  if (visibility.length > 0 && valueField === null)
    throw errors.invalidParameter(`The value '${name}' has visibility_values, but the field has no value_field.`);
  const legal = valueField === null ? [] : (controllers(valueField) ?? []);
  return {
    name,
    sortKey: given.sort_key ?? defaultSortKey,
    visibilityValues: checkControllerValues(valueField ?? '', visibility, legal),
  };
}

const sameValue = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Appends values, refusing duplicates (case-insensitive); new values without a sort key sort
 * after the last one. `skipEmptyValue`: a new single-select field already has '---', so naming
 * it again is not an error.
 */
function addValues(
  field: Pick<CustomField, 'type' | 'valueField'>,
  existing: readonly CustomFieldValue[],
  inputs: readonly ValueInput[],
  controllers: ControllerValues,
  skipEmptyValue = false,
): CustomFieldValue[] {
  const values = [...existing];
  for (const input of inputs) {
    const nextSortKey = values.reduce((max, value) => Math.max(max, value.sortKey), 0) + 10;
    const value = toValue(field.type, input, field.valueField, controllers, nextSortKey);
    if (skipEmptyValue && value.name === EMPTY_SELECT_VALUE) continue;
    if (values.some((other) => sameValue(other.name, value.name)))
      throw errors.invalidParameter(`The value '${value.name}' already exists for this field.`);
    values.push(value);
  }
  return values;
}

export const byValueOrder = (a: CustomFieldValue, b: CustomFieldValue): number =>
  a.sortKey - b.sortKey || a.name.localeCompare(b.name);

export function newCustomField(
  id: number,
  input: CustomFieldInput & { values?: readonly ValueInput[] },
  controllers: ControllerValues,
): CustomField {
  const name = checkCustomFieldName(input.name);
  const type = checkCustomFieldType(input.type);
  const valueField = input.value_field ?? null;
  if (valueField !== null) {
    if (!isSelectType(type)) throw errors.onlyDropDownsHaveValueField();
    checkController(name, valueField, controllers, 'value_field');
  }
  if (!isSelectType(type) && (input.values ?? []).length > 0) throw errors.onlyDropDownsHaveValues();
  const initial: CustomFieldValue[] =
    type === FIELD_TYPE.SINGLE_SELECT ? [{ name: EMPTY_SELECT_VALUE, sortKey: 0, visibilityValues: [] }] : [];
  return {
    id,
    name,
    displayName: checkDisplayName(input.display_name),
    type,
    isMandatory: input.is_mandatory ?? false,
    isOnBugEntry: input.is_on_bug_entry ?? false,
    ...checkVisibility(name, input.visibility_field ?? null, input.visibility_values ?? [], controllers),
    valueField,
    sortKey: input.sort_key ?? 0,
    isObsolete: input.is_obsolete ?? false,
    values: addValues(
      { type, valueField },
      initial,
      input.values ?? [],
      controllers,
      type === FIELD_TYPE.SINGLE_SELECT,
    ),
  };
}

export type FieldChanges = Record<string, { removed: string; added: string }>;

export interface CustomFieldUpdate extends CustomFieldInput {
  values?: { add?: readonly ValueInput[]; remove?: readonly string[] };
}

const listText = (values: readonly string[]) => values.join(', ');

/** The field after an update, and Bugzilla-style changes `{removed, added}` as text. */
export function updateCustomField(
  previous: CustomField,
  input: CustomFieldUpdate,
  controllers: ControllerValues,
): { next: CustomField; changes: FieldChanges } {
  if (input.name !== undefined && input.name.trim() !== previous.name)
    throw errors.invalidParameter(`Fields cannot be renamed; ${previous.name} keeps its name.`);
  if (input.type !== undefined && input.type !== previous.type)
    throw errors.invalidParameter(`The type of the field ${previous.name} cannot be changed.`);

  const valueField = input.value_field === undefined ? previous.valueField : input.value_field;
  if (valueField !== null && valueField !== previous.valueField) {
    if (!isSelectType(previous.type)) throw errors.onlyDropDownsHaveValueField();
    checkController(previous.name, valueField, controllers, 'value_field');
  }
  const visibilityField = input.visibility_field === undefined ? previous.visibilityField : input.visibility_field;
  const visibilityValues =
    input.visibility_values ?? (visibilityField === previous.visibilityField ? previous.visibilityValues : []);
  const visibility =
    input.visibility_field === undefined && input.visibility_values === undefined
      ? { visibilityField: previous.visibilityField, visibilityValues: previous.visibilityValues }
      : checkVisibility(previous.name, visibilityField, visibilityValues, controllers);

  let values = previous.values;
  if (valueField !== previous.valueField) {
    // Values shown for values of the old controlling field mean nothing for the new one.
    values = values.map((value) => ({ ...value, visibilityValues: [] }));
  }
  const removals = [...new Set((input.values?.remove ?? []).map((name) => name.trim()))];
  if (removals.length > 0 || (input.values?.add ?? []).length > 0) {
    if (!isSelectType(previous.type)) throw errors.onlyDropDownsHaveValues();
  }
  for (const name of removals) {
    if (previous.type === FIELD_TYPE.SINGLE_SELECT && name === EMPTY_SELECT_VALUE)
      throw errors.invalidParameter(
        `The value '${EMPTY_SELECT_VALUE}' is the default of ${previous.name} and cannot be removed.`,
      );
    if (!values.some((value) => value.name === name))
      throw errors.invalidParameter(`The field ${previous.name} has no value '${name}'.`);
  }
  values = values.filter((value) => !removals.includes(value.name));
  values = addValues({ type: previous.type, valueField }, values, input.values?.add ?? [], controllers);

  const next: CustomField = {
    ...previous,
    displayName: input.display_name !== undefined ? checkDisplayName(input.display_name) : previous.displayName,
    isMandatory: input.is_mandatory ?? previous.isMandatory,
    isOnBugEntry: input.is_on_bug_entry ?? previous.isOnBugEntry,
    ...visibility,
    valueField,
    sortKey: input.sort_key ?? previous.sortKey,
    isObsolete: input.is_obsolete ?? previous.isObsolete,
    values,
  };

  const changes: FieldChanges = {};
  const note = (name: string, removed: string, added: string) => {
    if (removed !== added) changes[name] = { removed, added };
  };
  note('display_name', previous.displayName, next.displayName);
  note('is_mandatory', flagText(previous.isMandatory), flagText(next.isMandatory));
  note('is_on_bug_entry', flagText(previous.isOnBugEntry), flagText(next.isOnBugEntry));
  note('visibility_field', previous.visibilityField ?? '', next.visibilityField ?? '');
  note('visibility_values', listText(previous.visibilityValues), listText(next.visibilityValues));
  note('value_field', previous.valueField ?? '', next.valueField ?? '');
  note('sort_key', String(previous.sortKey), String(next.sortKey));
  note('is_obsolete', flagText(previous.isObsolete), flagText(next.isObsolete));
  const before = previous.values.map((value) => value.name);
  const after = next.values.map((value) => value.name);
  note(
    'values',
    listText(before.filter((name) => !after.includes(name))),
    listText(after.filter((name) => !before.includes(name))),
  );
  return { next, changes };
}
