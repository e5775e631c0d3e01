import type { Classification } from '../../domain/catalog/catalog.ts';
import { type Caller, inGroup } from '../../domain/identity/caller.ts';
import { characterCount, checkNameCharacters } from '../../domain/inputLimits.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { putClassification, putNewClassification } from '../../storage/catalog/productStore.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { loadCatalog, visibleProductIds } from './catalogContext.ts';

/** Classifications: Bugzilla's `GET /rest/classification/{id_or_name}`, plus create and update (editclassifications). */
const MAX_CLASSIFICATION_NAME_LENGTH = 64;

function findClassification(classifications: readonly Classification[], reference: string): Classification | undefined {
  return (
    (/^\d+$/.test(reference)
      ? classifications.find((classification) => classification.id === Number(reference))
      : undefined) ??
    classifications.find((classification) => classification.name.toLowerCase() === reference.toLowerCase())
  );
}

function checkName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'classification name');
  if (trimmed === '') throw errors.nameRequired('classification');
  if (characterCount(trimmed) > MAX_CLASSIFICATION_NAME_LENGTH)
    throw errors.nameTooLong('classification', MAX_CLASSIFICATION_NAME_LENGTH);
  return trimmed;
}

export async function getClassifications(caller: Caller, references: readonly string[]) {
  const catalog = await loadCatalog();
  // As Bugzilla 5.2's Classification.get: with useclassification off, only editclassifications reads them.
  if (catalog.parameters.useclassification !== '1' && !inGroup(caller, 'editclassifications'))
    throw errors.classificationsDisabled();
  const visible = new Set(visibleProductIds(caller, catalog));
  const found = references.map((reference) => {
    const classification = findClassification(catalog.classifications, reference);
    if (!classification) throw errors.notFoundByNameOrNumber('classification', reference);
    return classification;
  });
  return {
    classifications: found.map((classification) => ({
      id: classification.id,
      name: classification.name,
      description: classification.description,
      sort_key: classification.sortKey,
      products: catalog.products
        .filter((record) => record.product.classificationId === classification.id && visible.has(record.product.id))
        .map((record) => ({
          id: record.product.id,
          name: record.product.name,
          description: record.product.description,
        })),
    })),
  };
}

export async function createClassification(
  caller: Caller,
  input: { name?: string; description?: string; sort_key?: number },
) {
  const catalog = await loadCatalog();
  const name = checkName(input.name);
  if (findClassification(catalog.classifications, name)?.name.toLowerCase() === name.toLowerCase()) {
    throw errors.nameTaken('classification', name);
  }
  const id = await allocateId('classification');
  const transaction = new WriteTransaction();
  putNewClassification(transaction, {
    id,
    name,
    description: (input.description ?? '').trim(),
    sortKey: input.sort_key ?? 0,
  });
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.classification,
    objectId: id,
    userId: caller.user!.id,
    changes: { __create__: { removed: '', added: name } },
    at: new Date(),
  });
  await transaction.commit();
  return { id };
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function updateClassification(
  caller: Caller,
  reference: string,
  input: { name?: string; description?: string; sort_key?: number },
) {
  return retryOnConflict(() => updateClassificationOnce(caller, reference, input));
}

async function updateClassificationOnce(
  caller: Caller,
  reference: string,
  input: { name?: string; description?: string; sort_key?: number },
) {
  const catalog = await loadCatalog();
  const previous = findClassification(catalog.classifications, reference);
  if (!previous) throw errors.notFoundByNameOrNumber('classification', reference);
  const next: Classification = {
    ...previous,
    name: input.name !== undefined ? checkName(input.name) : previous.name,
    description: input.description !== undefined ? input.description.trim() : previous.description,
    sortKey: input.sort_key ?? previous.sortKey,
  };
  if (
    next.name !== previous.name &&
    catalog.classifications.some(
      (other) => other.id !== previous.id && other.name.toLowerCase() === next.name.toLowerCase(),
    )
  ) {
    throw errors.nameTaken('classification', next.name);
  }
  const changes: Record<string, { removed: string; added: string }> = {};
  if (next.name !== previous.name) changes.name = { removed: previous.name, added: next.name };
  if (next.description !== previous.description)
    changes.description = { removed: previous.description, added: next.description };
  if (next.sortKey !== previous.sortKey)
    changes.sort_key = { removed: String(previous.sortKey), added: String(next.sortKey) };
  if (Object.keys(changes).length > 0) {
    const transaction = new WriteTransaction();
    putClassification(transaction, previous, next);
    recordAudit(transaction, {
      auditClass: AUDIT_CLASS.classification,
      objectId: previous.id,
      userId: caller.user!.id,
      changes,
      at: new Date(),
    });
    await transaction.commit();
  }
  return { classifications: [{ id: previous.id, changes }] };
}
