import type { Component, ProductRecord } from '../../domain/catalog/catalog.ts';
import { checkComponentDescription, checkComponentName } from '../../domain/catalog/productRules.ts';
import { flagText } from '../../domain/changeReport.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { deleteComponent, putComponent, putNewComponent } from '../../storage/catalog/productStore.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { findUserIdByLogin, getUsers } from '../../storage/identity/userStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { componentHasBugs } from '../../storage/search/bugIndexStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import {
  assertMayAdministerProduct,
  assertMayAdministerSomeProduct,
  type CatalogSnapshot,
  findProduct,
  loadCatalog,
} from './catalogContext.ts';

/** Components (Bugzilla 5's Component API): create, update and delete, editcomponents only. */

interface ComponentInput {
  product?: string;
  name?: string;
  description?: string;
  default_assignee?: string;
  default_qa_contact?: string;
  default_cc?: string[];
  triage_owner?: string;
  default_bug_type?: string;
  is_open?: boolean;
  is_active?: boolean;
  sort_key?: number;
}

async function userIdOf(login: string, role: string): Promise<number> {
  const id = await findUserIdByLogin(login.trim());
  if (id === null) throw errors.notFound(`There is no user named '${login}' to be the ${role}.`);
  return id;
}

const optionalUserId = async (
  login: string | undefined,
  role: string,
  fallback: number | null,
): Promise<number | null> => (login === undefined ? fallback : login.trim() === '' ? null : userIdOf(login, role));

function productOf(catalog: CatalogSnapshot, reference: string | undefined): ProductRecord {
  if (!reference) throw errors.invalidProduct('You must select a product for the component.');
  const record = findProduct(catalog, reference);
  if (!record) throw errors.productNotFound(reference);
  return record;
}

export async function createComponent(caller: Caller, input: ComponentInput): Promise<{ id: number }> {
  const catalog = await loadCatalog();
  assertMayAdministerSomeProduct(caller, catalog, 'create components');
  const record = productOf(catalog, input.product);
  assertMayAdministerProduct(caller, catalog, record, 'create components');
  const name = checkComponentName(input.name);
  const description = checkComponentDescription(input.description);
  if (!input.default_assignee?.trim())
    throw errors.invalidParameter('You must select a default assignee for the component.');
  if (record.components.some((component) => component.name.toLowerCase() === name.toLowerCase())) {
    throw errors.componentNameTaken(record.product.name, name);
  }
  const [defaultAssigneeId, defaultQaContactId, triageOwnerId, defaultCcIds] = await Promise.all([
    userIdOf(input.default_assignee, 'default assignee'),
    optionalUserId(input.default_qa_contact, 'default QA contact', null),
    optionalUserId(input.triage_owner, 'triage owner', null),
    Promise.all((input.default_cc ?? []).map((login) => userIdOf(login, 'default CC'))),
  ]);
  const id = await allocateId('component');
  const transaction = new WriteTransaction();
  putNewComponent(transaction, {
    id,
    productId: record.product.id,
    name,
    description,
    defaultAssigneeId,
    defaultQaContactId,
    triageOwnerId,
    defaultCcIds,
    defaultBugType: input.default_bug_type ?? '',
    sortKey: input.sort_key ?? 0,
    isActive: input.is_active ?? input.is_open ?? true,
  });
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.component,
    objectId: id,
    userId: caller.user!.id,
    changes: { __create__: { removed: '', added: `${record.product.name}: ${name}` } },
    at: new Date(),
  });
  await transaction.commit();
  return { id };
}

export interface ComponentTarget {
  id?: number;
  product?: string;
  component?: string;
}

function findComponent(
  catalog: CatalogSnapshot,
  target: ComponentTarget,
): { record: ProductRecord; component: Component } {
  if (target.id !== undefined) {
    for (const record of catalog.products) {
      const component = record.components.find((candidate) => candidate.id === target.id);
      if (component) return { record, component };
    }
    throw errors.notFoundById('component', target.id);
  }
  const record = productOf(catalog, target.product);
  const component = record.components.find(
    (candidate) => candidate.name.toLowerCase() === (target.component ?? '').toLowerCase(),
  );
  if (!component)
    throw errors.notFound(`The ${record.product.name} product has no component named '${target.component}'.`);
  return { record, component };
}

/**
 * Updates several components in one transaction: all change or none does. Re-read and re-applied
 * when another request changed the same items meanwhile (retryOnConflict).
 */
export function updateComponents(caller: Caller, targets: readonly ComponentTarget[], input: ComponentInput) {
  return retryOnConflict(() => updateComponentsOnce(caller, targets, input));
}

async function updateComponentsOnce(caller: Caller, targets: readonly ComponentTarget[], input: ComponentInput) {
  if (targets.length === 0) throw errors.idsOrNamesRequired();
  const catalog = await loadCatalog();
  assertMayAdministerSomeProduct(caller, catalog, 'edit components');
  const found = targets
    .map((target) => findComponent(catalog, target))
    .filter((entry, index, all) => all.findIndex((other) => other.component.id === entry.component.id) === index);
  if (input.name !== undefined && found.length > 1)
    throw errors.invalidParameter('You cannot give several components the same name: update one component at a time.');
  const transaction = new WriteTransaction();
  const components = [];
  for (const { record } of found) assertMayAdministerProduct(caller, catalog, record, 'edit components');
  for (const { record, component } of found)
    components.push(await planComponentUpdate(transaction, caller, record, component, input));
  await transaction.commit();
  return { components };
}

async function planComponentUpdate(
  transaction: WriteTransaction,
  caller: Caller,
  record: ProductRecord,
  previous: Component,
  input: ComponentInput,
) {
  const next: Component = {
    ...previous,
    name: input.name !== undefined ? checkComponentName(input.name) : previous.name,
    description: input.description !== undefined ? checkComponentDescription(input.description) : previous.description,
    defaultAssigneeId:
      input.default_assignee !== undefined
        ? await userIdOf(input.default_assignee, 'default assignee')
        : previous.defaultAssigneeId,
    defaultQaContactId: await optionalUserId(
      input.default_qa_contact,
      'default QA contact',
      previous.defaultQaContactId,
    ),
    triageOwnerId: await optionalUserId(input.triage_owner, 'triage owner', previous.triageOwnerId),
    defaultCcIds:
      input.default_cc !== undefined
        ? await Promise.all(input.default_cc.map((login) => userIdOf(login, 'default CC')))
        : previous.defaultCcIds,
    defaultBugType: input.default_bug_type ?? previous.defaultBugType,
    sortKey: input.sort_key ?? previous.sortKey,
    isActive: input.is_active ?? input.is_open ?? previous.isActive,
  };
  if (
    next.name !== previous.name &&
    record.components.some((other) => other.id !== previous.id && other.name.toLowerCase() === next.name.toLowerCase())
  ) {
    throw errors.componentNameTaken(record.product.name, next.name);
  }
  const users = await getUsers(
    [
      previous.defaultAssigneeId,
      next.defaultAssigneeId,
      previous.defaultQaContactId,
      next.defaultQaContactId,
      previous.triageOwnerId,
      next.triageOwnerId,
      ...previous.defaultCcIds,
      ...next.defaultCcIds,
    ].filter((id): id is number => id !== null),
  );
  const login = (id: number | null) => (id === null ? '' : (users.find((user) => user.id === id)?.login ?? ''));
  const changes: Record<string, { removed: string; added: string }> = {};
  const note = (field: string, removed: string, added: string) => {
    if (removed !== added) changes[field] = { removed, added };
  };
  note('name', previous.name, next.name);
  note('description', previous.description, next.description);
  note('default_assignee', login(previous.defaultAssigneeId), login(next.defaultAssigneeId));
  note('default_qa_contact', login(previous.defaultQaContactId), login(next.defaultQaContactId));
  note('triage_owner', login(previous.triageOwnerId), login(next.triageOwnerId));
  note('default_cc', previous.defaultCcIds.map(login).join(', '), next.defaultCcIds.map(login).join(', '));
  note('default_bug_type', previous.defaultBugType, next.defaultBugType);
  note('sort_key', String(previous.sortKey), String(next.sortKey));
  note('is_active', flagText(previous.isActive), flagText(next.isActive));
  if (Object.keys(changes).length > 0) {
    putComponent(transaction, previous, next);
    recordAudit(transaction, {
      auditClass: AUDIT_CLASS.component,
      objectId: previous.id,
      userId: caller.user!.id,
      changes,
      at: new Date(),
    });
  }
  return { id: previous.id, changes };
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function removeComponent(caller: Caller, target: ComponentTarget) {
  return retryOnConflict(() => removeComponentOnce(caller, target));
}

async function removeComponentOnce(caller: Caller, target: ComponentTarget) {
  const catalog = await loadCatalog();
  assertMayAdministerSomeProduct(caller, catalog, 'delete components');
  const { record, component } = findComponent(catalog, target);
  assertMayAdministerProduct(caller, catalog, record, 'delete components');
  if (record.components.length === 1) {
    throw errors.lastComponent(
      `${component.name} is the only component of ${record.product.name}; a product must keep at least one.`,
    );
  }
  if (await componentHasBugs(component.id)) {
    throw errors.componentHasBugs(
      `The component ${component.name} has bugs; move them elsewhere, or disable the component instead.`,
    );
  }
  const transaction = new WriteTransaction();
  deleteComponent(transaction, component);
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.component,
    objectId: component.id,
    userId: caller.user!.id,
    changes: { __remove__: { removed: `${record.product.name}: ${component.name}`, added: '' } },
    at: new Date(),
  });
  await transaction.commit();
  return { components: [{ id: component.id }] };
}
