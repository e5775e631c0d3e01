/**
 * The catalogue an installation is configured with: classifications, products with their
 * components, versions, milestones and group controls. Plain data; rules live in productRules.ts.
 */

/** Items that two administrators may change at once carry the revision they were read at. */
export interface Revised {
  /** The stored revision when read (absent or 0: never revised); storage's updateAtRevision. */
  rev?: number;
}
export interface Classification extends Revised {
  id: number;
  name: string;
  description: string;
  sortKey: number;
}

export interface Product extends Revised {
  id: number;
  name: string;
  description: string;
  /** Bugzilla's is_open / is_active: whether bugs may be entered. */
  isActive: boolean;
  defaultBugType: string;
  defaultMilestone: string;
  hasUnconfirmed: boolean;
  classificationId: number;
}

export interface Component extends Revised {
  id: number;
  productId: number;
  name: string;
  description: string;
  defaultAssigneeId: number;
  defaultQaContactId: number | null;
  triageOwnerId: number | null;
  defaultCcIds: number[];
  defaultBugType: string;
  sortKey: number;
  isActive: boolean;
}

/** A version or a milestone of a product. */
export interface ProductValue extends Revised {
  id: number;
  productId: number;
  name: string;
  sortKey: number;
  isActive: boolean;
}

/** Bugzilla's group controls: NA, Shown, Default, Mandatory for members and for others. */
export type ControlValue = 'NA' | 'SHOWN' | 'DEFAULT' | 'MANDATORY';

export interface GroupControl {
  productId: number;
  groupId: number;
  /** Only members of this group may enter bugs in the product. */
  entry: boolean;
  memberControl: ControlValue;
  otherControl: ControlValue;
  canEdit: boolean;
  editComponents: boolean;
  editBugs: boolean;
  canConfirm: boolean;
}

/** A product with everything that hangs off it (one item collection in storage). */
export interface ProductRecord {
  product: Product;
  components: Component[];
  versions: ProductValue[];
  milestones: ProductValue[];
  groupControls: GroupControl[];
}

export const PLACEHOLDER_MILESTONE = '---';
export const DEFAULT_VERSION = 'unspecified';
export const DEFAULT_CLASSIFICATION = 'Unclassified';

/** Lists sort by sort key, then by name, as Bugzilla's do. */
export function bySortKeyThenName<T extends { sortKey: number; name: string }>(a: T, b: T): number {
  return a.sortKey - b.sortKey || a.name.localeCompare(b.name);
}
