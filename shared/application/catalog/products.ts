import {
  type ControlValue,
  DEFAULT_CLASSIFICATION,
  type GroupControl,
  PLACEHOLDER_MILESTONE,
  type Product,
  type ProductRecord,
} from '../../domain/catalog/catalog.ts';
import {
  CONTROL_VALUES,
  checkControls,
  checkProductDescription,
  checkProductName,
  checkValueName,
  mayEditCatalogue,
  type ProductListType,
} from '../../domain/catalog/productRules.ts';
import { flagText } from '../../domain/changeReport.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { resolveGroup } from '../../domain/identity/groupMembership.ts';
import { AUDIT_CLASS, type AuditEntry } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import {
  deleteGroupControl,
  putGroupControl,
  putNewProduct,
  putNewProductValue,
  putProduct,
  touchProduct,
} from '../../storage/catalog/productStore.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import {
  assertMayAdministerProduct,
  assertMayAdministerSomeProduct,
  type CatalogSnapshot,
  findProduct,
  loadCatalog,
  productViews,
  visibleProductIds,
} from './catalogContext.ts';

/** Products: listing by access type, lookup, creation and updates (editcomponents). */

export async function productIds(caller: Caller, type: ProductListType) {
  const catalog = await loadCatalog();
  // Bugzilla sends these ids as strings, and the spec's sample shows them so.
  return { ids: visibleProductIds(caller, catalog, [type]).map(String) };
}

const compareNames = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

export async function getProducts(
  caller: Caller,
  query: { types?: ProductListType[]; ids?: number[]; names?: string[] },
) {
  const catalog = await loadCatalog();
  const visible = new Set(visibleProductIds(caller, catalog, query.types ?? []));
  const ids = query.ids ?? [];
  const names = (query.names ?? []).map((name) => name.toLowerCase());
  const byRequest = ids.length === 0 && names.length === 0;
  const records = catalog.products.filter(
    (record) =>
      visible.has(record.product.id) &&
      (byRequest || ids.includes(record.product.id) || names.includes(record.product.name.toLowerCase())),
  );
  // Bugzilla 5.2 lists products by name (case-insensitively, as its database collates), not by id.
  records.sort((a, b) => compareNames(a.product.name, b.product.name) || a.product.id - b.product.id);
  return { products: await productViews(caller, catalog, records) };
}

interface GroupControlInput {
  group: string | number;
  entry?: boolean;
  membercontrol?: string;
  othercontrol?: string;
  canedit?: boolean;
  editcomponents?: boolean;
  editbugs?: boolean;
  canconfirm?: boolean;
}

const asControl = (value: string | undefined, fallback: ControlValue): ControlValue => {
  if (value === undefined) return fallback;
  const upper = value.toUpperCase() as ControlValue;
  if (!CONTROL_VALUES.includes(upper))
    throw errors.invalidParameter(`A group control must be one of ${CONTROL_VALUES.join(', ')}, not '${value}'.`);
  return upper;
};

function planGroupControl(
  catalog: CatalogSnapshot,
  productId: number,
  input: GroupControlInput,
  previous?: GroupControl,
): GroupControl {
  const group = resolveGroup(input.group, catalog.groups);
  if (!group.isBugGroup)
    throw errors.invalidParameter(`The group ${group.name} is not a bug group and cannot control products.`);
  const control: GroupControl = {
    productId,
    groupId: group.id,
    entry: input.entry ?? previous?.entry ?? false,
    memberControl: asControl(input.membercontrol, previous?.memberControl ?? 'NA'),
    otherControl: asControl(input.othercontrol, previous?.otherControl ?? 'NA'),
    canEdit: input.canedit ?? previous?.canEdit ?? false,
    editComponents: input.editcomponents ?? previous?.editComponents ?? false,
    editBugs: input.editbugs ?? previous?.editBugs ?? false,
    canConfirm: input.canconfirm ?? previous?.canConfirm ?? false,
  };
  checkControls(control.memberControl, control.otherControl);
  return control;
}

const isEmptyControl = (control: GroupControl) =>
  control.memberControl === 'NA' &&
  control.otherControl === 'NA' &&
  !control.entry &&
  !control.canEdit &&
  !control.editComponents &&
  !control.editBugs &&
  !control.canConfirm;

const describeControls = (controls: readonly GroupControl[], catalog: CatalogSnapshot) =>
  controls
    .map(
      (control) =>
        `${catalog.groups.find((group) => group.id === control.groupId)?.name}:${control.memberControl}/${control.otherControl}${control.entry ? ':entry' : ''}`,
    )
    .sort()
    .join(', ');

/** Applies group-control inputs to a transaction; returns the change to report, if any. */
function applyGroupControls(
  transaction: WriteTransaction,
  catalog: CatalogSnapshot,
  record: ProductRecord | undefined,
  productId: number,
  inputs: readonly GroupControlInput[],
) {
  const before = record?.groupControls ?? [];
  const after = new Map(before.map((control) => [control.groupId, control]));
  for (const input of inputs) {
    const group = resolveGroup(input.group, catalog.groups);
    const control = planGroupControl(catalog, productId, input, after.get(group.id));
    if (isEmptyControl(control)) {
      if (after.delete(group.id)) deleteGroupControl(transaction, control);
    } else {
      after.set(group.id, control);
      putGroupControl(transaction, control);
    }
  }
  const removed = describeControls(before, catalog);
  const added = describeControls([...after.values()], catalog);
  return removed === added ? undefined : { removed, added };
}

interface NewProductInput {
  name?: string;
  description?: string;
  version?: string;
  has_unconfirmed?: boolean;
  classification?: string;
  default_bug_type?: string;
  default_milestone?: string;
  is_open?: boolean;
  group_controls?: GroupControlInput[];
}

const audit = (
  auditClass: string,
  objectId: number,
  caller: Caller,
  changes: AuditEntry['changes'],
  at: Date,
): AuditEntry => ({
  auditClass,
  objectId,
  userId: caller.user!.id,
  changes,
  at,
});

export async function createProduct(caller: Caller, input: NewProductInput): Promise<{ id: number }> {
  const catalog = await loadCatalog();
  const name = checkProductName(input.name);
  const description = checkProductDescription(input.description);
  const versionName = checkValueName('version', input.version);
  if (findProduct(catalog, name)?.product.name.toLowerCase() === name.toLowerCase()) throw errors.productExists(name);
  const classificationName = input.classification ?? DEFAULT_CLASSIFICATION;
  const classification = catalog.classifications.find(
    (candidate) => candidate.name.toLowerCase() === classificationName.toLowerCase(),
  );
  if (!classification) throw errors.notFoundByName('classification', classificationName);
  const milestoneName = (input.default_milestone ?? PLACEHOLDER_MILESTONE).trim() || PLACEHOLDER_MILESTONE;

  const [id, versionId, milestoneId] = await Promise.all([
    allocateId('product'),
    allocateId('version'),
    allocateId('milestone'),
  ]);
  const now = new Date();
  const product: Product = {
    id,
    name,
    description,
    isActive: input.is_open ?? true,
    defaultBugType: input.default_bug_type ?? catalog.parameters.default_bug_type ?? 'defect',
    defaultMilestone: milestoneName,
    hasUnconfirmed: input.has_unconfirmed ?? true,
    classificationId: classification.id,
  };
  const transaction = new WriteTransaction();
  putNewProduct(transaction, product);
  putNewProductValue(transaction, 'version', {
    id: versionId,
    productId: id,
    name: versionName,
    sortKey: 0,
    isActive: true,
  });
  putNewProductValue(transaction, 'milestone', {
    id: milestoneId,
    productId: id,
    name: milestoneName,
    sortKey: 0,
    isActive: true,
  });
  if (input.group_controls?.length) applyGroupControls(transaction, catalog, undefined, id, input.group_controls);
  recordAudit(transaction, audit(AUDIT_CLASS.product, id, caller, { __create__: { removed: '', added: name } }, now));
  recordAudit(
    transaction,
    audit(AUDIT_CLASS.version, versionId, caller, { __create__: { removed: '', added: versionName } }, now),
  );
  recordAudit(
    transaction,
    audit(AUDIT_CLASS.milestone, milestoneId, caller, { __create__: { removed: '', added: milestoneName } }, now),
  );
  await transaction.commit();
  return { id };
}

interface ProductChanges {
  name?: string;
  description?: string;
  default_bug_type?: string;
  default_milestone?: string;
  has_unconfirmed?: boolean;
  is_open?: boolean;
  classification?: string;
  group_controls?: GroupControlInput[];
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function updateProducts(caller: Caller, targets: { ids: number[]; names: string[] }, changes: ProductChanges) {
  return retryOnConflict(() => updateProductsOnce(caller, targets, changes));
}

async function updateProductsOnce(
  caller: Caller,
  targets: { ids: number[]; names: string[] },
  changes: ProductChanges,
) {
  const catalog = await loadCatalog();
  assertMayAdministerSomeProduct(caller, catalog, 'edit products');
  const records: ProductRecord[] = [];
  for (const reference of [...targets.ids, ...targets.names]) {
    const record = findProduct(catalog, reference);
    if (!record) throw errors.productNotFound(reference);
    if (!records.includes(record)) records.push(record);
  }
  if (records.length === 0) throw errors.idsOrNamesRequired();
  for (const record of records) assertMayAdministerProduct(caller, catalog, record, 'edit products');
  if ((changes.group_controls !== undefined || changes.classification !== undefined) && !mayEditCatalogue(caller)) {
    throw errors.authorizationRequired(
      'Sorry, only members of the editcomponents group may change group controls or classifications of products.',
    );
  }
  if (changes.name !== undefined && records.length > 1)
    throw errors.productNameRequired('You cannot give several products the same name: update one product at a time.');

  const now = new Date();
  const transaction = new WriteTransaction();
  const results = records.map((record) => {
    const previous = record.product;
    const next: Product = { ...previous };
    const reported: Record<string, { removed: string; added: string }> = {};
    if (changes.name !== undefined) {
      next.name = checkProductName(changes.name);
      const clash = findProduct(catalog, next.name);
      if (clash && clash.product.id !== previous.id && clash.product.name.toLowerCase() === next.name.toLowerCase()) {
        throw errors.productExists(next.name);
      }
    }
    if (changes.description !== undefined) next.description = checkProductDescription(changes.description);
    if (changes.default_bug_type !== undefined) next.defaultBugType = changes.default_bug_type;
    if (changes.has_unconfirmed !== undefined) next.hasUnconfirmed = changes.has_unconfirmed;
    if (changes.is_open !== undefined) next.isActive = changes.is_open;
    if (changes.default_milestone !== undefined) {
      const milestone = record.milestones.find((candidate) => candidate.name === changes.default_milestone?.trim());
      if (!milestone)
        throw errors.invalidDefaultMilestone(
          `The milestone '${changes.default_milestone}' is not a milestone of ${previous.name}; it cannot be the default.`,
        );
      next.defaultMilestone = milestone.name;
    }
    if (changes.classification !== undefined) {
      const classification = catalog.classifications.find(
        (candidate) => candidate.name.toLowerCase() === changes.classification!.toLowerCase(),
      );
      if (!classification) throw errors.notFoundByName('classification', changes.classification);
      next.classificationId = classification.id;
    }
    const text: Array<[string, keyof Product]> = [
      ['name', 'name'],
      ['description', 'description'],
      ['default_bug_type', 'defaultBugType'],
      ['default_milestone', 'defaultMilestone'],
    ];
    for (const [field, property] of text) {
      if (next[property] !== previous[property])
        reported[field] = { removed: String(previous[property]), added: String(next[property]) };
    }
    if (next.hasUnconfirmed !== previous.hasUnconfirmed)
      reported.has_unconfirmed = { removed: flagText(previous.hasUnconfirmed), added: flagText(next.hasUnconfirmed) };
    if (next.isActive !== previous.isActive)
      reported.is_open = { removed: flagText(previous.isActive), added: flagText(next.isActive) };
    if (next.classificationId !== previous.classificationId) {
      const nameOf = (id: number) =>
        catalog.classifications.find((classification) => classification.id === id)?.name ?? '';
      reported.classification = { removed: nameOf(previous.classificationId), added: nameOf(next.classificationId) };
    }
    const productWritten = Object.keys(reported).length > 0;
    if (productWritten) putProduct(transaction, previous, next);
    if (changes.group_controls?.length) {
      const controlChange = applyGroupControls(transaction, catalog, record, previous.id, changes.group_controls);
      if (controlChange) reported.group_controls = controlChange;
      // The controls were computed from this read of the product: written only if it still holds.
      if (!productWritten) touchProduct(transaction, previous);
    }
    if (Object.keys(reported).length > 0)
      recordAudit(transaction, audit(AUDIT_CLASS.product, previous.id, caller, reported, now));
    return { id: previous.id, changes: reported };
  });
  await transaction.commit();
  return { products: results };
}
