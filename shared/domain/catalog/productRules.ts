import { errors } from '../../errors.ts';
import { type Caller, inGroup } from '../identity/caller.ts';
import { characterCount, checkNameCharacters } from '../inputLimits.ts';
import type { Classification, ControlValue, GroupControl, ProductRecord, ProductValue } from './catalog.ts';
import { bySortKeyThenName } from './catalog.ts';
import { type FlagType, flagTypesOfComponent } from './flagTypes.ts';

/**
 * Products: who may see and enter bugs in which product (Bugzilla's group controls), the checks
 * on names and descriptions, and the Product object of the spec.
 */
export const EDITCOMPONENTS_GROUP = 'editcomponents';
export const EDITCLASSIFICATIONS_GROUP = 'editclassifications';
const MAX_PRODUCT_NAME_LENGTH = 64;
const MAX_COMPONENT_NAME_LENGTH = 64;
const MAX_VALUE_NAME_LENGTH = 64;

export function checkProductName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'product name');
  if (trimmed === '') throw errors.productNameRequired('You must enter a name for the product.');
  if (characterCount(trimmed) > MAX_PRODUCT_NAME_LENGTH)
    throw errors.productNameTooLong(`The name of a product is limited to ${MAX_PRODUCT_NAME_LENGTH} characters.`);
  return trimmed;
}

export function checkProductDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (trimmed === '') throw errors.productDescriptionRequired('You must enter a description for the product.');
  return trimmed;
}

export function checkComponentName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'component name');
  if (trimmed === '') throw errors.nameRequired('component');
  if (characterCount(trimmed) > MAX_COMPONENT_NAME_LENGTH)
    throw errors.invalidComponent(`The name of a component is limited to ${MAX_COMPONENT_NAME_LENGTH} characters.`);
  return trimmed;
}

export function checkComponentDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (trimmed === '') throw errors.invalidParameter('You must enter a description for the component.');
  return trimmed;
}

/** Version and milestone names. */
export function checkValueName(kind: 'version' | 'milestone', name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'version or milestone name');
  if (trimmed === '') {
    throw kind === 'version'
      ? errors.productVersionRequired('You must enter a version for the product.')
      : errors.nameRequired('milestone');
  }
  if (characterCount(trimmed) > MAX_VALUE_NAME_LENGTH) throw errors.nameTooLong(kind, MAX_VALUE_NAME_LENGTH);
  return trimmed;
}

/** Searchable ("selectable"): no mandatory group control whose group the caller lacks. */
function isSelectable(caller: Caller, record: ProductRecord, groupName: (id: number) => string | undefined): boolean {
  return record.groupControls.every((control) => {
    if (control.memberControl !== 'MANDATORY') return true;
    const name = groupName(control.groupId);
    return name !== undefined && inGroup(caller, name);
  });
}

/**
 * Enterable: open for bugs, the caller is in every entry group, and there is something to file
 * against (an active component and version, and milestone when milestones are used).
 */
function isEnterable(
  caller: Caller,
  record: ProductRecord,
  groupName: (id: number) => string | undefined,
  useTargetMilestone: boolean,
): boolean {
  if (!record.product.isActive) return false;
  const entryAllowed = record.groupControls.every((control) => {
    if (!control.entry) return true;
    const name = groupName(control.groupId);
    return name !== undefined && inGroup(caller, name);
  });
  if (!entryAllowed) return false;
  const active = (values: ReadonlyArray<{ isActive: boolean }>) => values.some((value) => value.isActive);
  return active(record.components) && active(record.versions) && (!useTargetMilestone || active(record.milestones));
}

export type ProductListType = 'accessible' | 'selectable' | 'enterable';

export function productIdsOfType(
  caller: Caller,
  records: readonly ProductRecord[],
  types: readonly ProductListType[],
  groupName: (id: number) => string | undefined,
  useTargetMilestone: boolean,
): number[] {
  const wanted = types.length > 0 ? types : ['accessible'];
  return records
    .filter((record) => {
      const selectable = () => isSelectable(caller, record, groupName);
      const enterable = () => isEnterable(caller, record, groupName, useTargetMilestone);
      return wanted.some((type) =>
        type === 'selectable' ? selectable() : type === 'enterable' ? enterable() : selectable() || enterable(),
      );
    })
    .map((record) => record.product.id);
}

const valueView = (value: ProductValue) => ({
  id: value.id,
  name: value.name,
  sort_key: value.sortKey,
  is_active: value.isActive,
});

interface ProductViewContext {
  classifications: readonly Classification[];
  loginOf: (userId: number | null) => string;
  flagTypes: readonly FlagType[];
  groupName: (id: number) => string | undefined;
  /** Group controls are administrative: shown to editcomponents only. */
  showGroupControls: boolean;
}

/** The spec's Product object (with `components`, `versions`, `milestones`). */
export function productView(record: ProductRecord, context: ProductViewContext): Record<string, unknown> {
  const { product } = record;
  const view: Record<string, unknown> = {
    id: product.id,
    name: product.name,
    description: product.description,
    is_active: product.isActive,
    default_bug_type: product.defaultBugType,
    default_milestone: product.defaultMilestone,
    has_unconfirmed: product.hasUnconfirmed,
    classification:
      context.classifications.find((classification) => classification.id === product.classificationId)?.name ?? '',
    components: [...record.components].sort(bySortKeyThenName).map((component) => ({
      id: component.id,
      name: component.name,
      description: component.description,
      default_assigned_to: context.loginOf(component.defaultAssigneeId),
      default_bug_type: component.defaultBugType || product.defaultBugType,
      default_qa_contact: context.loginOf(component.defaultQaContactId),
      triage_owner: context.loginOf(component.triageOwnerId),
      sort_key: component.sortKey,
      is_active: component.isActive,
      flag_types: flagTypesOfComponent(context.flagTypes, product.id, component.id),
    })),
    versions: [...record.versions].sort(bySortKeyThenName).map(valueView),
    milestones: [...record.milestones].sort(bySortKeyThenName).map(valueView),
  };
  if (context.showGroupControls) {
    view.group_controls = record.groupControls.map((control) => groupControlView(control, context.groupName));
  }
  return view;
}

function groupControlView(control: GroupControl, groupName: (id: number) => string | undefined) {
  return {
    group: groupName(control.groupId) ?? String(control.groupId),
    entry: control.entry,
    membercontrol: control.memberControl,
    othercontrol: control.otherControl,
    canedit: control.canEdit,
    editcomponents: control.editComponents,
    editbugs: control.editBugs,
    canconfirm: control.canConfirm,
  };
}

export const CONTROL_VALUES: readonly ControlValue[] = ['NA', 'SHOWN', 'DEFAULT', 'MANDATORY'];

/** Bugzilla's rule: the control for others may not be looser than the control for members. */
export function checkControls(member: ControlValue, other: ControlValue): void {
  const rank = (value: ControlValue) => CONTROL_VALUES.indexOf(value);
  if (member === 'NA' && other !== 'NA')
    throw errors.invalidParameter('When members have no control (NA), others must have none either.');
  if (member === 'MANDATORY' && other !== 'MANDATORY' && other !== 'NA') {
    throw errors.invalidParameter('When the group is mandatory for members, it must be mandatory or NA for others.');
  }
  if (rank(other) > rank(member) && member !== 'NA')
    throw errors.invalidParameter('Others cannot have a stronger control than members.');
}

export const mayEditCatalogue = (caller: Caller) => inGroup(caller, EDITCOMPONENTS_GROUP);

/**
 * Bugzilla's product-specific administration: besides members of editcomponents, members of a
 * group whose control on the product has `editcomponents` may manage that product's components,
 * versions and milestones and edit the product itself (not its group controls).
 */
export function mayAdministerProduct(
  caller: Caller,
  record: ProductRecord,
  groupName: (id: number) => string | undefined,
): boolean {
  if (mayEditCatalogue(caller)) return true;
  return record.groupControls.some((control) => {
    if (!control.editComponents) return false;
    const name = groupName(control.groupId);
    return name !== undefined && inGroup(caller, name);
  });
}

export function mayAdministerSomeProduct(
  caller: Caller,
  records: readonly ProductRecord[],
  groupName: (id: number) => string | undefined,
): boolean {
  return mayEditCatalogue(caller) || records.some((record) => mayAdministerProduct(caller, record, groupName));
}
