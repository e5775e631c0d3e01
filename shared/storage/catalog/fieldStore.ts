import type { CustomField } from '../../domain/catalog/customFields.ts';
import { errors } from '../../errors.ts';
import { catalogKeys } from '../keys.ts';
import { queryPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';
import { cachedCatalogRead } from './catalogCache.ts';
import { toCustomField } from './catalogItems.ts';

/**
 * Custom field definitions, one item each (`FIELD#<name>`) holding its legal values; the key by
 * name is also the uniqueness guard. Built-in fields are code (shared/domain/bug/bugFields.ts).
 * Each item carries a revision, so two concurrent updates cannot silently undo each other.
 */
export interface StoredCustomField {
  field: CustomField;
  revision: number;
}

export function loadCustomFields(): Promise<StoredCustomField[]> {
  return cachedCatalogRead('customFields', async () => readCustomFields());
}

async function readCustomFields(): Promise<StoredCustomField[]> {
  const items = await queryPartition(catalogKeys.fieldsPartition);
  return items.filter((item) => item.type === 'field').map(toCustomField);
}

/** `type` is every item's entity discriminator, so the field's type is stored as `fieldType`. */
function toItem(field: CustomField, revision: number): Record<string, unknown> & { pk: string; sk: string } {
  const { type: fieldType, ...rest } = field;
  return { ...catalogKeys.field(field.name), ...rest, type: 'field', fieldType, revision };
}

export function putNewCustomField(transaction: WriteTransaction, field: CustomField): void {
  transaction.putNew(toItem(field, 1), () => errors.nameTaken('field', field.name));
}

export function putCustomField(transaction: WriteTransaction, previous: StoredCustomField, next: CustomField): void {
  // Fields were revised before the shared discipline existed; they keep their `revision` attribute.
  transaction.putAtRevision(toItem(next, previous.revision + 1), previous.revision, { attribute: 'revision' });
}
