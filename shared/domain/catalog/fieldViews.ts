import { BUILT_IN_FIELDS, type BuiltInField, isSelectType } from '../bug/bugFields.ts';
import {
  bySortKeyThenName,
  type Classification,
  DEFAULT_CLASSIFICATION,
  type ProductRecord,
  type ProductValue,
} from './catalog.ts';
import { byValueOrder, type ControllerValues, type CustomField } from './customFields.ts';
import type { FieldValue, FieldValues, Transition, ValueField } from './fieldValues.ts';
import { byKeywordName, type Keyword } from './keywords.ts';

/**
 * The spec's Bug field definition objects and the Legal Values lists, rendered from the
 * built-in fields, the custom fields and what the catalogue and keyword store hold.
 */
export type AnyField = BuiltInField | CustomField;

export const isCustomField = (field: AnyField): field is CustomField => !('valueSource' in field);

export interface FieldCatalog {
  classifications: readonly Classification[];
  /** The products whose components, versions and milestones the caller may see. */
  products: readonly ProductRecord[];
  keywords: readonly Keyword[];
  /** The installation's legal values of the built-in drop-downs and its workflow. */
  values: FieldValues;
  /**
   * Lowercased names of products the caller may not see: left out of visibility values, which
   * would otherwise reveal that such a product exists.
   */
  hiddenProducts?: ReadonlySet<string>;
}

/** Built-in fields in id order, then custom fields by sort key and name. */
export function allFields(customFields: readonly CustomField[]): AnyField[] {
  const custom = [...customFields].sort((a, b) => a.sortKey - b.sortKey || a.name.localeCompare(b.name) || a.id - b.id);
  return [...BUILT_IN_FIELDS, ...custom];
}

/** By id (a number or digits) or exact name; names are case-sensitive, as in Bugzilla. */
export function findField(fields: readonly AnyField[], reference: number | string): AnyField | undefined {
  if (typeof reference === 'number') return fields.find((field) => field.id === reference);
  return fields.find((field) => field.name === reference);
}

const valueView = (name: string | null, sortKey: number, visibilityValues: readonly string[] = []) => ({
  name,
  sort_key: sortKey,
  sortkey: sortKey,
  visibility_values: [...visibilityValues],
});

const transitionView = (transition: Transition) => ({
  name: transition.to,
  comment_required: transition.commentRequired,
});

/**
 * A value of a built-in drop-down. Bugzilla 5.2 lists disabled values without saying so; Tracker
 * adds `is_active: false` to them (only to them, so an installation that disabled nothing
 * answers exactly as 5.2 does).
 */
const fieldValueView = (value: FieldValue) => ({
  ...valueView(value.name, value.sortKey),
  ...(value.isActive ? {} : { is_active: false }),
});

/** bug_status: a pseudo-value (`name: null`) listing the statuses a new bug may take, then the statuses. */
function workflowValues(values: FieldValues) {
  return [
    { ...valueView(null, 0), is_open: true, can_change_to: values.transitionsFrom(null).map(transitionView) },
    ...values.list('bug_status').map((status) => ({
      ...fieldValueView(status),
      is_open: status.isOpen === true,
      can_change_to: values.transitionsFrom(status.name).map(transitionView),
    })),
  ];
}

function sortedClassifications(classifications: readonly Classification[]): Classification[] {
  if (classifications.length === 0) return [{ id: 1, name: DEFAULT_CLASSIFICATION, description: '', sortKey: 0 }];
  return [...classifications].sort(bySortKeyThenName);
}

type PerProductSource = 'components' | 'versions' | 'milestones';

function perProductValues(
  record: ProductRecord,
  source: PerProductSource,
): Array<Pick<ProductValue, 'name' | 'sortKey' | 'isActive'>> {
  return [...record[source]].sort(bySortKeyThenName);
}

const activeKeywords = (keywords: readonly Keyword[]) =>
  keywords.filter((keyword) => keyword.isActive).sort(byKeywordName);

function builtInValues(field: BuiltInField, catalog: FieldCatalog): unknown[] {
  switch (field.valueSource) {
    case 'fixed':
      return catalog.values.list(field.name as ValueField).map(fieldValueView);
    case 'workflow':
      return workflowValues(catalog.values);
    case 'classifications':
      return sortedClassifications(catalog.classifications).map((classification) =>
        valueView(classification.name, classification.sortKey),
      );
    case 'components':
    case 'versions':
    case 'milestones': {
      const source = field.valueSource;
      return catalog.products.flatMap((record) =>
        perProductValues(record, source).map((value) => ({
          ...valueView(value.name, value.sortKey, [record.product.name]),
          is_active: value.isActive,
        })),
      );
    }
    case 'keywords':
      return activeKeywords(catalog.keywords).map((keyword) => ({
        ...valueView(keyword.name, 0),
        description: keyword.description,
      }));
    // The spec: values are "not [filled for] product"; products have their own calls.
    case 'products':
    case 'none':
      return [];
  }
}

const PER_PRODUCT = new Set(['components', 'versions', 'milestones']);

/** The spec's field definition object; `sort_key` and `is_obsolete` are extra fields (on request). */
export function fieldView(field: AnyField, catalog: FieldCatalog): Record<string, unknown> {
  const custom = isCustomField(field);
  const shown = (controller: string | null, names: readonly string[]) =>
    controller === 'product' && catalog.hiddenProducts
      ? names.filter((name) => !catalog.hiddenProducts!.has(name.toLowerCase()))
      : [...names];
  return {
    id: field.id,
    name: field.name,
    display_name: field.displayName,
    type: field.type,
    is_custom: custom,
    is_mandatory: field.isMandatory,
    is_on_bug_entry: custom ? field.isOnBugEntry : false,
    visibility_field: custom ? field.visibilityField : null,
    visibility_values: custom ? shown(field.visibilityField, field.visibilityValues) : [],
    value_field: custom ? field.valueField : PER_PRODUCT.has(field.valueSource) ? 'product' : null,
    values: custom
      ? [...field.values]
          .sort(byValueOrder)
          .map((value) => valueView(value.name, value.sortKey, shown(field.valueField, value.visibilityValues)))
      : builtInValues(field, catalog),
    sort_key: custom ? field.sortKey : 0,
    is_obsolete: custom ? field.isObsolete : false,
  };
}

/** Field definition properties returned only when asked for by name, `_extra` or `_all`. */
export const EXTRA_FIELD_PROPERTIES: readonly string[] = Object.freeze(['sort_key', 'is_obsolete']);

/** Whether Legal Values needs a product for the field (its values belong to products). */
export const needsProduct = (field: AnyField): boolean => !isCustomField(field) && PER_PRODUCT.has(field.valueSource);

/** Whether the field's values come from the products, classifications or keywords (not the fields' own values). */
export const readsCatalog = (field: AnyField): boolean =>
  !isCustomField(field) && !['fixed', 'workflow', 'none'].includes(field.valueSource);

/**
 * Legal Values: the names of a drop-down field's values in display order, or undefined when the
 * field is not a drop-down. Per-product fields list the active values of `product`; `product`
 * itself lists the catalogue's products by name.
 */
export function legalValueNames(field: AnyField, catalog: FieldCatalog, product?: ProductRecord): string[] | undefined {
  if (isCustomField(field))
    return isSelectType(field.type) ? [...field.values].sort(byValueOrder).map((value) => value.name) : undefined;
  switch (field.valueSource) {
    // Bugzilla's get_legal_field_values: the active values.
    case 'fixed':
      return catalog.values.active(field.name as ValueField).map((value) => value.name);
    case 'workflow':
      return catalog.values.active('bug_status').map((status) => status.name);
    case 'classifications':
      return sortedClassifications(catalog.classifications).map((classification) => classification.name);
    case 'products':
      return catalog.products.map((record) => record.product.name).sort((a, b) => a.localeCompare(b));
    case 'components':
    case 'versions':
    case 'milestones':
      return product
        ? perProductValues(product, field.valueSource)
            .filter((value) => value.isActive)
            .map((value) => value.name)
        : undefined;
    case 'keywords':
    case 'none':
      return undefined;
  }
}

/**
 * Fields that may control a custom field's visibility or values: drop-down fields (built-in
 * type 2, custom types 2 and 3), with every (active) value any product has.
 */
export function controllerValues(fields: readonly AnyField[], catalog: FieldCatalog): ControllerValues {
  return (name) => {
    const field = findField(fields, name);
    if (!field || !isSelectType(field.type)) return undefined;
    if (isCustomField(field) || !PER_PRODUCT.has(field.valueSource)) return legalValueNames(field, catalog);
    const source = field.valueSource as PerProductSource;
    return [...new Set(catalog.products.flatMap((record) => record[source].map((value) => value.name)))];
  };
}
