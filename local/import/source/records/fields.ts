import * as z from 'zod';
import { bool, idSchema, maybeBool, maybeId, maybeNumber, maybeText, strings, text } from './wireValues.ts';

/** Bug fields with their legal values (the status workflow among them), and keywords. */

export interface TransitionRecord {
  name: string;
  commentRequired: boolean;
}

export interface FieldValueRecord {
  name: string;
  sortKey: number;
  /** Bugzilla 5.2 says it only for product-specific values; true where it does not say. */
  isActive: boolean;
  /** The controlling field's values (products for component, version, target_milestone). */
  visibilityValues: string[];
  /** Keywords only. */
  description: string | null;
  /** bug_status only. */
  isOpen: boolean | null;
  canChangeTo: TransitionRecord[] | null;
}

export interface FieldRecord {
  id: number;
  name: string;
  displayName: string;
  /** 0 unknown, 1 free text, 2 single select, 3 multi select, 4 textarea, 5 date-time, 6 bug id, 7 see also, 8 keywords, 9 date, 10 integer. */
  type: number;
  isCustom: boolean;
  isMandatory: boolean;
  isOnBugEntry: boolean;
  visibilityField: string | null;
  visibilityValues: string[];
  valueField: string | null;
  values: FieldValueRecord[];
  /**
   * bug_status only: the statuses a new bug may start in (Bugzilla's value with an empty name).
   * Null where the source does not list it (Harmony).
   */
  initialStatuses: TransitionRecord[] | null;
  /** Tracker only (with `_extra`). */
  isObsolete: boolean | null;
  sortKey: number | null;
}

const transitionSchema = z
  .object({ name: z.string(), comment_required: bool(false) })
  .transform((wire): TransitionRecord => ({ name: wire.name, commentRequired: wire.comment_required }));

const fieldValueWire = z.object({
  name: z.string().nullish(),
  sort_key: z.union([z.number(), z.string()]).nullish(),
  sortkey: z.union([z.number(), z.string()]).nullish(),
  is_active: bool(true),
  visibility_values: strings,
  description: maybeText,
  is_open: maybeBool,
  can_change_to: z.array(transitionSchema).nullish(),
});

export const fieldSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    display_name: text,
    type: z.union([z.number(), z.string()]).transform(Number),
    is_custom: bool(false),
    is_mandatory: bool(false),
    is_on_bug_entry: bool(false),
    visibility_field: maybeText,
    visibility_values: strings,
    value_field: maybeText,
    values: z.array(fieldValueWire).nullish(),
    is_obsolete: maybeBool,
    sort_key: maybeNumber,
  })
  .transform((wire): FieldRecord => {
    const values = wire.values ?? [];
    const initial = values.find((value) => !value.name);
    return {
      id: wire.id,
      name: wire.name,
      displayName: wire.display_name,
      type: wire.type,
      isCustom: wire.is_custom,
      isMandatory: wire.is_mandatory,
      isOnBugEntry: wire.is_on_bug_entry,
      visibilityField: wire.visibility_field,
      visibilityValues: wire.visibility_values,
      valueField: wire.value_field,
      values: values
        .filter((value) => value.name)
        .map((value) => ({
          name: value.name!,
          sortKey: Number(value.sort_key ?? value.sortkey ?? 0),
          isActive: value.is_active,
          visibilityValues: value.visibility_values,
          description: value.description,
          isOpen: value.is_open,
          canChangeTo: value.can_change_to ?? null,
        })),
      initialStatuses: wire.name === 'bug_status' && initial ? (initial.can_change_to ?? []) : null,
      isObsolete: wire.is_obsolete,
      sortKey: wire.sort_key,
    };
  });

export interface KeywordRecord {
  /** Only Tracker's keyword route gives ids; null from field values. */
  id: number | null;
  name: string;
  description: string;
  isActive: boolean;
}

export const keywordSchema = z
  .object({ id: maybeId, name: z.string(), description: text, is_active: bool(true) })
  .transform(
    (wire): KeywordRecord => ({
      id: wire.id,
      name: wire.name,
      description: wire.description,
      isActive: wire.is_active,
    }),
  );
