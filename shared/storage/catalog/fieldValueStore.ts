import {
  type FieldValue,
  FieldValues,
  isValueField,
  type StoredFieldValues,
  type Transition,
  type ValueField,
} from '../../domain/catalog/fieldValues.ts';
import { catalogKeys } from '../keys.ts';
import { queryPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';
import { cachedCatalogRead } from './catalogCache.ts';

/**
 * The installation's legal values of the built-in drop-down fields and its workflow
 * (catalog/fieldValues.ts): one item per field it has (`FIELDVALUES` / `VALUES#<field>`, the values
 * inside, as a custom field holds its own) and one for the workflow (`FIELDVALUES` / `WORKFLOW`).
 * A field without an item has the values a new installation starts with. The partition is
 * cached with the catalogue, so its writes move the catalogue stamp; writers check that stamp
 * (WriteTransaction.requireStamp) rather than each item's revision, since a value's rules also
 * read the parameters and the workflow.
 */
export function loadFieldValues(): Promise<FieldValues> {
  return cachedCatalogRead('fieldValues', async () => new FieldValues(await readFieldValues()));
}

async function readFieldValues(): Promise<StoredFieldValues> {
  const items = await queryPartition(catalogKeys.fieldValuesPartition);
  const lists: Partial<Record<ValueField, FieldValue[]>> = {};
  let transitions: Transition[] | undefined;
  for (const item of items) {
    if (item.type === 'fieldValues' && isValueField(String(item.field)))
      lists[item.field as ValueField] = (item.values as FieldValue[]).map(fromItemValue);
    else if (item.type === 'workflow')
      transitions = (item.transitions as Transition[]).map((move) => ({
        from: move.from ?? null,
        to: String(move.to),
        commentRequired: move.commentRequired === true,
      }));
  }
  return { lists, transitions };
}

const fromItemValue = (value: FieldValue): FieldValue => ({
  name: String(value.name),
  sortKey: Number(value.sortKey ?? 0),
  isActive: value.isActive !== false,
  ...(value.isOpen === undefined ? {} : { isOpen: value.isOpen === true }),
  ...(value.formerNames?.length ? { formerNames: value.formerNames.map(String) } : {}),
});

/** Stores every value of a field (the item is small: a field has tens of values). */
export function putFieldValues(transaction: WriteTransaction, field: ValueField, values: readonly FieldValue[]): void {
  transaction.put({ ...catalogKeys.fieldValues(field), type: 'fieldValues', field, values });
}

/** Stores the whole workflow. */
export function putWorkflow(transaction: WriteTransaction, transitions: readonly Transition[]): void {
  transaction.put({ ...catalogKeys.workflow(), type: 'workflow', transitions });
}
