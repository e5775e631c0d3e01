import { CUSTOM_FIELD_ID_OFFSET, storedFieldName } from '../../domain/bug/bugFields.ts';
import {
  type CustomFieldInput,
  type CustomFieldUpdate,
  newCustomField,
  updateCustomField,
  type ValueInput,
} from '../../domain/catalog/customFields.ts';
import { isValueField } from '../../domain/catalog/fieldValues.ts';
import {
  type AnyField,
  allFields,
  controllerValues,
  type FieldCatalog,
  fieldView,
  findField,
  isCustomField,
  legalValueNames,
  needsProduct,
  readsCatalog,
} from '../../domain/catalog/fieldViews.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import {
  loadCustomFields,
  putCustomField,
  putNewCustomField,
  type StoredCustomField,
} from '../../storage/catalog/fieldStore.ts';
import { loadFieldValues } from '../../storage/catalog/fieldValueStore.ts';
import { loadKeywords } from '../../storage/catalog/keywordStore.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { loadCatalog, visibleProductIds } from './catalogContext.ts';

/**
 * Bug fields: the definitions (built-in and custom) with their legal values, the deprecated
 * Legal Values call, and the administration of custom fields.
 */

/** What field definitions show, for this caller: only products they may see lend values. */
async function fieldCatalog(caller: Caller | null): Promise<FieldCatalog> {
  const [catalog, keywords] = await Promise.all([loadCatalog(), loadKeywords()]);
  const visible = caller === null ? null : new Set(visibleProductIds(caller, catalog));
  return {
    classifications: catalog.classifications,
    products: visible === null ? catalog.products : catalog.products.filter((record) => visible.has(record.product.id)),
    keywords,
    values: catalog.fieldValues,
  };
}

async function hiddenProductNames(caller: Caller): Promise<Set<string>> {
  const catalog = await loadCatalog();
  const visible = new Set(visibleProductIds(caller, catalog));
  return new Set(
    catalog.products
      .filter((record) => !visible.has(record.product.id))
      .map((record) => record.product.name.toLowerCase()),
  );
}

/** The fields' own values without the products, classifications and keywords (not asked for, or not needed). */
const valuesOnly = async (): Promise<FieldCatalog> => ({
  classifications: [],
  products: [],
  keywords: [],
  values: await loadFieldValues(),
});

/** Bugzilla 5.2's object_does_not_exist for a field: by id, or by name. */
const unknownField = (reference: string | number) =>
  /^\d+$/.test(String(reference))
    ? errors.notFound(`There is no field with the id '${reference}'.`)
    : errors.notFoundByName('field', String(reference));

interface FieldQuery {
  ids: number[];
  names: string[];
  /** False when the caller excluded `values`: the catalogue is then not read at all. */
  withValues: boolean;
}

/** `GET /rest/field/bug[/{id_or_name}]`: every field but obsolete custom ones, or those asked for. */
export async function getFields(caller: Caller, query: FieldQuery) {
  const fields = allFields((await loadCustomFields()).map((stored) => stored.field));
  let selected: AnyField[];
  if (query.ids.length === 0 && query.names.length === 0) {
    selected = fields.filter((field) => !isCustomField(field) || !field.isObsolete);
  } else {
    const wanted = new Set<AnyField>();
    for (const reference of [...query.ids, ...query.names]) {
      const field = findField(fields, reference);
      if (!field) throw unknownField(reference);
      wanted.add(field);
    }
    selected = fields.filter((field) => wanted.has(field));
  }
  const catalog = query.withValues ? await fieldCatalog(caller) : await valuesOnly();
  const namesProducts = selected.some(
    (field) => isCustomField(field) && (field.visibilityField === 'product' || field.valueField === 'product'),
  );
  const hiddenProducts = namesProducts ? await hiddenProductNames(caller) : undefined;
  return { fields: selected.map((field) => fieldView(field, { ...catalog, hiddenProducts })) };
}

/**
 * `GET /rest/field/bug/{field}[/{product_id}]/values` (deprecated Legal Values). The field is
 * named as in the fields list or as bug calls name it (`status`, `platform`...).
 */
export async function getLegalValues(caller: Caller, reference: string, productId: string | undefined) {
  const fields = allFields((await loadCustomFields()).map((stored) => stored.field));
  const name = storedFieldName(reference);
  const field = /^\d+$/.test(reference) ? findField(fields, Number(reference)) : findField(fields, name);
  const notDropDown = () => errors.invalidFieldName(`'${reference}' is not the name of a drop-down bug field.`);
  if (!field) throw notDropDown();
  const catalog = readsCatalog(field) ? await fieldCatalog(caller) : await valuesOnly();
  if (needsProduct(field)) {
    if (productId === undefined || productId.trim() === '') {
      throw errors.missingParameter(`The values of ${field.name} belong to products: give a product_id.`);
    }
    const product = /^\d+$/.test(productId.trim())
      ? catalog.products.find((record) => record.product.id === Number(productId))
      : undefined;
    if (!product) throw errors.productAccessDenied(productId);
    return { values: legalValueNames(field, catalog, product) ?? [] };
  }
  const values = legalValueNames(field, catalog);
  if (values === undefined) throw notDropDown();
  return { values };
}

/** Every field and every product's values, to check what a custom field refers to. */
async function fieldsWithControllers() {
  const stored = await loadCustomFields();
  const fields = allFields(stored.map((entry) => entry.field));
  const catalog = await fieldCatalog(null);
  return { stored, fields, controllers: controllerValues(fields, catalog) };
}

export async function createField(
  caller: Caller,
  input: CustomFieldInput & { values?: ValueInput[] },
): Promise<{ id: number }> {
  const { fields, controllers } = await fieldsWithControllers();
  // Checked with a placeholder id first, so refused input does not use up ids.
  const planned = newCustomField(0, input, controllers);
  if (findField(fields, planned.name)) throw errors.nameTaken('field', planned.name);
  const field = { ...planned, id: CUSTOM_FIELD_ID_OFFSET + (await allocateId('field')) };
  const transaction = new WriteTransaction();
  putNewCustomField(transaction, field);
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.field,
    objectId: field.id,
    userId: caller.user!.id,
    changes: { __create__: { removed: '', added: field.name } },
    at: new Date(),
  });
  await transaction.commit();
  return { id: field.id };
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function updateFields(caller: Caller, targets: { ids: number[]; names: string[] }, input: CustomFieldUpdate) {
  return retryOnConflict(() => updateFieldsOnce(caller, targets, input));
}

async function updateFieldsOnce(caller: Caller, targets: { ids: number[]; names: string[] }, input: CustomFieldUpdate) {
  const { stored, fields, controllers } = await fieldsWithControllers();
  const selected: StoredCustomField[] = [];
  for (const reference of [...targets.ids, ...targets.names]) {
    const field = findField(fields, reference);
    if (!field) throw unknownField(reference);
    if (!isCustomField(field))
      throw errors.invalidParameter(
        isValueField(field.name)
          ? `${field.name} is a built-in field: its values change through /rest/field/bug/${field.name}/values.`
          : `${field.name} is a built-in field: only custom fields can be changed.`,
      );
    const entry = stored.find((candidate) => candidate.field.id === field.id)!;
    if (!selected.includes(entry)) selected.push(entry);
  }
  if (selected.length === 0) throw errors.idsOrNamesRequired();
  const now = new Date();
  const transaction = new WriteTransaction();
  const results = selected.map((previous) => {
    const { next, changes } = updateCustomField(previous.field, input, controllers);
    if (Object.keys(changes).length > 0) {
      putCustomField(transaction, previous, next);
      recordAudit(transaction, {
        auditClass: AUDIT_CLASS.field,
        objectId: next.id,
        userId: caller.user!.id,
        changes,
        at: now,
      });
    }
    return { id: next.id, name: next.name, changes };
  });
  await transaction.commit();
  return { fields: results };
}
