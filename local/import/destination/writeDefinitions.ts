import type { FieldType } from '../../../shared/domain/bug/bugFields.ts';
import { CUSTOM_FIELD_TYPES, type CustomField } from '../../../shared/domain/catalog/customFields.ts';
import type { FlagScope, FlagType } from '../../../shared/domain/catalog/flagTypes.ts';
import type { Keyword } from '../../../shared/domain/catalog/keywords.ts';
import { loadCustomFields, putNewCustomField } from '../../../shared/storage/catalog/fieldStore.ts';
import { loadFlagTypes, putNewFlagType } from '../../../shared/storage/catalog/flagTypeStore.ts';
import { loadKeywords, putNewKeyword } from '../../../shared/storage/catalog/keywordStore.ts';
import { collectItems, collectKeys } from '../../../shared/storage/itemCollector.ts';
import type { FieldRecord, FlagTypeRecord, KeywordRecord, ProductRecord } from '../source/index.ts';
import type { CatalogueContext } from './writeCatalogue.ts';
import { idsFor } from './writeCatalogue.ts';

/**
 * Keywords, flag types and custom fields, with the source's ids (keywords found by name or
 * given new ids where the source has none: Bugzilla lists them without). Target-only ones go on
 * a first run and are kept after, as for the rest of the catalogue (writeCatalogue.ts).
 */
export async function writeKeywords(sources: readonly KeywordRecord[], context: CatalogueContext): Promise<void> {
  const targets = await loadKeywords();
  const byName = new Map(targets.map((target) => [target.name.toLowerCase(), target.id]));
  const ids = await idsFor(
    'keyword',
    sources,
    (source) => source.id,
    (source) => byName.get(source.name.toLowerCase()),
    Math.max(0, ...sources.map((source) => source.id ?? 0)),
    context.writer,
  );
  const imported: Keyword[] = sources.map((source, index) => ({
    id: ids[index],
    name: source.name,
    description: source.description,
    isActive: source.isActive,
  }));
  const deletes = targets
    .filter((target) => {
      const same = imported.find((keyword) => keyword.id === target.id);
      if (same && same.name.toLowerCase() === target.name.toLowerCase()) return false;
      return (
        context.firstRun ||
        same !== undefined ||
        imported.some((keyword) => keyword.name.toLowerCase() === target.name.toLowerCase())
      );
    })
    .flatMap((target) => collectKeys((transaction) => putNewKeyword(transaction, target)));
  await context.writer.write(
    imported.flatMap((keyword) => collectItems((transaction) => putNewKeyword(transaction, keyword))),
    deletes,
  );
  for (const keyword of imported) context.ids.addKeyword(keyword.name, keyword.id);
  context.report.count('keywords', imported.length);
}

/**
 * Bugzilla exposes no inclusions, only the components whose listing names the type: a type
 * listed by every component of a product becomes an inclusion of the whole product.
 */
function inclusionsOf(
  type: FlagTypeRecord,
  products: readonly ProductRecord[],
  context: CatalogueContext,
): FlagScope[] {
  const scopes: FlagScope[] = [];
  for (const product of products) {
    const productId = context.ids.productId(product.name);
    if (productId === undefined) continue;
    const listed = type.appliesTo.filter((place) => place.product === product.name).map((place) => place.component);
    if (listed.length === 0) continue;
    if (product.components.every((component) => listed.includes(component.name))) {
      scopes.push({ productId, componentId: 0 });
      continue;
    }
    for (const name of listed) {
      const componentId = context.ids.componentId(productId, name);
      if (componentId !== undefined) scopes.push({ productId, componentId });
    }
  }
  return scopes;
}

export async function writeFlagTypes(
  sources: readonly FlagTypeRecord[],
  products: readonly ProductRecord[],
  context: CatalogueContext,
): Promise<void> {
  const { report } = context;
  const targets = await loadFlagTypes();
  const group = (value: number | string | null, what: string): number | null => {
    if (value === null) return null;
    const id = typeof value === 'number' ? value : context.ids.groupId(value);
    if (id === undefined) report.skip('flag type group', what, 'no group of that name was imported: left to everybody');
    return id ?? null;
  };
  const imported: FlagType[] = sources.map((source) => ({
    id: source.id,
    name: source.name,
    description: source.description,
    ccList: source.ccList ?? '',
    sortKey: source.sortKey ?? 1,
    isActive: source.isActive,
    isRequestable: source.isRequestable ?? true,
    isRequesteeble: source.isRequesteeble,
    isMultiplicable: source.isMultiplicable,
    grantGroupId: group(source.grantGroup, `grant group of ${source.name}`),
    requestGroupId: group(source.requestGroup, `request group of ${source.name}`),
    targetType: source.targetType,
    inclusions: inclusionsOf(source, products, context),
    exclusions: [],
  }));
  const deletes = context.firstRun
    ? targets
        .filter((target) => !imported.some((type) => type.id === target.id))
        .flatMap((target) => collectKeys((transaction) => putNewFlagType(transaction, target)))
    : [];
  await context.writer.write(
    imported.flatMap((type) => collectItems((transaction) => putNewFlagType(transaction, type))),
    deletes,
  );
  await context.writer.advance('flagtype', Math.max(0, ...imported.map((type) => type.id)));
  report.count('flag types', imported.length);
}

export async function writeCustomFields(sources: readonly FieldRecord[], context: CatalogueContext): Promise<void> {
  const { report } = context;
  const targets = await loadCustomFields();
  const imported: CustomField[] = [];
  for (const source of sources.filter((field) => field.isCustom)) {
    if (!CUSTOM_FIELD_TYPES.includes(source.type as FieldType)) {
      report.skip('custom field', source.name, `its type ${source.type} has no Tracker equivalent`);
      continue;
    }
    imported.push({
      id: source.id,
      name: source.name,
      displayName: source.displayName,
      type: source.type as FieldType,
      isMandatory: source.isMandatory,
      isOnBugEntry: source.isOnBugEntry,
      visibilityField: source.visibilityField,
      visibilityValues: source.visibilityValues,
      valueField: source.valueField,
      sortKey: source.sortKey ?? 0,
      isObsolete: source.isObsolete ?? false,
      values: source.values.map((value) => ({
        name: value.name,
        sortKey: value.sortKey,
        visibilityValues: value.visibilityValues,
      })),
    });
  }
  const deletes = context.firstRun
    ? targets
        .filter(({ field }) => !imported.some((entry) => entry.name === field.name))
        .flatMap(({ field }) => collectKeys((transaction) => putNewCustomField(transaction, field)))
    : [];
  await context.writer.write(
    imported.flatMap((field) => collectItems((transaction) => putNewCustomField(transaction, field))),
    deletes,
  );
  await context.writer.advance('field', Math.max(0, ...imported.map((field) => field.id)));
  report.count('custom fields', imported.length);
}
