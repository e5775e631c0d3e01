import * as z from 'zod';
import { bool, idSchema, maybeBool, maybeId, maybeLogin, maybeNumber, maybeText, sortKey, text } from './wireValues.ts';

/** Classifications, products with components, versions and milestones, and flag types. */

export interface ClassificationRecord {
  /** Null when only the name is known (the classification route refused: useclassification off). */
  id: number | null;
  name: string;
  description: string;
  sortKey: number;
}

export const classificationSchema = z
  .object({ id: idSchema, name: z.string(), description: text, sort_key: sortKey })
  .transform(
    (wire): ClassificationRecord => ({
      id: wire.id,
      name: wire.name,
      description: wire.description,
      sortKey: wire.sort_key,
    }),
  );

export type FlagTarget = 'bug' | 'attachment';

export interface FlagTypeRecord {
  id: number;
  name: string;
  description: string;
  targetType: FlagTarget;
  /** Null where the source did not say (the per-product route gives neither sort key nor CC list). */
  sortKey: number | null;
  isActive: boolean;
  isRequestable: boolean | null;
  isRequesteeble: boolean;
  isMultiplicable: boolean;
  ccList: string | null;
  /** A group id in Bugzilla's answers (null: everybody); Tracker may name the group. */
  grantGroup: number | string | null;
  requestGroup: number | string | null;
  /** The components that list the type (Bugzilla does not expose inclusions and exclusions). */
  appliesTo: Array<{ product: string; component: string }>;
}

const flagTypeWire = z.object({
  id: idSchema,
  name: z.string(),
  description: text,
  type: z.enum(['bug', 'attachment']).optional(),
  target_type: z.enum(['bug', 'attachment']).optional(),
  sort_key: maybeNumber,
  is_active: bool(true),
  is_requestable: maybeBool,
  is_requesteeble: bool(false),
  is_multiplicable: bool(false),
  cc_list: maybeText,
  grant_group: z.union([idSchema, z.string(), z.null()]).optional(),
  request_group: z.union([idSchema, z.string(), z.null()]).optional(),
});

type FlagTypeWire = z.output<typeof flagTypeWire>;

function toFlagType(wire: FlagTypeWire, target: FlagTarget, appliesTo: FlagTypeRecord['appliesTo']): FlagTypeRecord {
  return {
    id: wire.id,
    name: wire.name,
    description: wire.description,
    targetType: wire.type ?? wire.target_type ?? target,
    sortKey: wire.sort_key,
    isActive: wire.is_active,
    isRequestable: wire.is_requestable,
    isRequesteeble: wire.is_requesteeble,
    isMultiplicable: wire.is_multiplicable,
    ccList: wire.cc_list,
    grantGroup: wire.grant_group ?? null,
    requestGroup: wire.request_group ?? null,
    appliesTo,
  };
}

/** A flag type as listed under `target` ("bug" or "attachment") by `GET /rest/flag_type/<product>`. */
export const flagTypeSchema = (target: FlagTarget) =>
  flagTypeWire.transform((wire): FlagTypeRecord => toFlagType(wire, target, []));

export interface ProductValueRecord {
  id: number | null;
  name: string;
  sortKey: number;
  isActive: boolean;
}

const productValueSchema = z
  .object({ id: maybeId, name: z.string(), sort_key: sortKey, is_active: bool(true) })
  .transform(
    (wire): ProductValueRecord => ({ id: wire.id, name: wire.name, sortKey: wire.sort_key, isActive: wire.is_active }),
  );

export interface ComponentRecord {
  id: number;
  name: string;
  description: string;
  defaultAssignee: string | null;
  defaultQaContact: string | null;
  /** Harmony/BMO and Tracker. */
  triageOwner: string | null;
  defaultBugType: string | null;
  sortKey: number;
  isActive: boolean;
  flagTypes: { bug: FlagTypeRecord[]; attachment: FlagTypeRecord[] };
}

export interface GroupControlRecord {
  group: string;
  entry: boolean;
  memberControl: string;
  otherControl: string;
  canEdit: boolean;
  editComponents: boolean;
  editBugs: boolean;
  canConfirm: boolean;
}

const groupControlSchema = z
  .object({
    group: z.string(),
    entry: bool(false),
    membercontrol: z.string(),
    othercontrol: z.string(),
    canedit: bool(false),
    editcomponents: bool(false),
    editbugs: bool(false),
    canconfirm: bool(false),
  })
  .transform(
    (wire): GroupControlRecord => ({
      group: wire.group,
      entry: wire.entry,
      memberControl: wire.membercontrol,
      otherControl: wire.othercontrol,
      canEdit: wire.canedit,
      editComponents: wire.editcomponents,
      editBugs: wire.editbugs,
      canConfirm: wire.canconfirm,
    }),
  );

export interface ProductRecord {
  id: number;
  name: string;
  description: string;
  isActive: boolean;
  classification: string | null;
  defaultMilestone: string | null;
  hasUnconfirmed: boolean;
  /** Harmony/BMO and Tracker. */
  defaultBugType: string | null;
  components: ComponentRecord[];
  versions: ProductValueRecord[];
  milestones: ProductValueRecord[];
  /** Only Tracker exposes group controls (to editcomponents); null from Bugzilla. */
  groupControls: GroupControlRecord[] | null;
}

const componentWire = z.object({
  id: idSchema,
  name: z.string(),
  description: text,
  default_assigned_to: maybeLogin,
  default_qa_contact: maybeLogin,
  triage_owner: maybeLogin,
  default_bug_type: maybeText,
  sort_key: sortKey,
  is_active: bool(true),
  flag_types: z.object({ bug: z.array(flagTypeWire).nullish(), attachment: z.array(flagTypeWire).nullish() }).nullish(),
});

export const productSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    description: text,
    is_active: bool(true),
    classification: maybeText,
    default_milestone: maybeText,
    has_unconfirmed: bool(true),
    default_bug_type: maybeText,
    components: z.array(componentWire).nullish(),
    versions: z.array(productValueSchema).nullish(),
    milestones: z.array(productValueSchema).nullish(),
    group_controls: z
      .array(groupControlSchema)
      .nullish()
      .transform((value) => value ?? null),
  })
  .transform(
    (wire): ProductRecord => ({
      id: wire.id,
      name: wire.name,
      description: wire.description,
      isActive: wire.is_active,
      classification: wire.classification,
      defaultMilestone: wire.default_milestone,
      hasUnconfirmed: wire.has_unconfirmed,
      defaultBugType: wire.default_bug_type,
      components: (wire.components ?? []).map((component) => {
        const appliesTo = [{ product: wire.name, component: component.name }];
        const listed = (target: FlagTarget) =>
          (component.flag_types?.[target] ?? []).map((type) => toFlagType(type, target, appliesTo));
        return {
          id: component.id,
          name: component.name,
          description: component.description,
          defaultAssignee: component.default_assigned_to,
          defaultQaContact: component.default_qa_contact,
          triageOwner: component.triage_owner,
          defaultBugType: component.default_bug_type,
          sortKey: component.sort_key,
          isActive: component.is_active,
          flagTypes: { bug: listed('bug'), attachment: listed('attachment') },
        };
      }),
      versions: wire.versions ?? [],
      milestones: wire.milestones ?? [],
      groupControls: wire.group_controls,
    }),
  );
