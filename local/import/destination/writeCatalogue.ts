import {
  type Classification,
  type Component,
  type ControlValue,
  DEFAULT_CLASSIFICATION,
  type GroupControl,
  type Product,
  type ProductValue,
} from '../../../shared/domain/catalog/catalog.ts';
import {
  loadClassifications,
  loadProducts,
  putGroupControl,
  putNewClassification,
  putNewComponent,
  putNewProduct,
  putNewProductValue,
} from '../../../shared/storage/catalog/productStore.ts';
import { allocateIds, type IdKind } from '../../../shared/storage/counterStore.ts';
import { collectItems, collectKeys, type Item } from '../../../shared/storage/itemCollector.ts';
import type { ItemKey } from '../../../shared/storage/keys.ts';
import type { WriteTransaction } from '../../../shared/storage/transaction.ts';
import type { ReportBuilder } from '../report.ts';
import type { ClassificationRecord, ProductRecord, ProductValueRecord } from '../source/index.ts';
import type { IdMaps } from './idMaps.ts';
import type { TargetWriter } from './targetWriter.ts';

/**
 * Classifications and products with their components, versions, milestones and group controls,
 * with the source's ids. Where the source gives no id (classifications when `useclassification`
 * is off, values of old sources), the target's item of that name keeps its id, or a new one is
 * taken after the source's highest.
 *
 * The target's catalogue becomes the source's: a target item that a source item replaces (same
 * id, or same name under another id) loses its old name guard; on the first run of an import
 * (no bug written yet) target items the source does not have, such as a new installation's
 * TestProduct, are removed, so the catalogue reads as the source's. Later runs keep them (bugs
 * may name them) and report them.
 */
export interface CatalogueContext {
  ids: IdMaps;
  writer: TargetWriter;
  report: ReportBuilder;
  /** No bug of this import is written yet: target-only items may go. */
  firstRun: boolean;
  /** The importing account's target id: stands in for unknown default assignees. */
  accountId: number;
}

/** Ids for items the source gives none: the target's by name, else new ones (placeholders in a dry run). */
export async function idsFor<T>(
  kind: IdKind,
  items: readonly T[],
  given: (item: T) => number | null,
  existing: (item: T) => number | undefined,
  highestGiven: number,
  writer: TargetWriter,
): Promise<number[]> {
  const missing = items.filter((item) => given(item) === null && existing(item) === undefined).length;
  await writer.advance(kind, highestGiven);
  const fresh =
    missing === 0 ? [] : writer.dryRun ? items.map((_, index) => -1 - index) : await allocateIds(kind, missing);
  return items.map((item) => given(item) ?? existing(item) ?? fresh.shift()!);
}

/** The keys of target entities replaced by another (same id or name, not both) or, on a first run, absent. */
function replacedKeys<T extends { id: number; name: string }>(
  targets: readonly T[],
  sources: ReadonlyArray<{ id: number; name: string }>,
  firstRun: boolean,
  put: (transaction: WriteTransaction, target: T) => void,
  report: ReportBuilder,
  kind: string,
): ItemKey[] {
  const keys: ItemKey[] = [];
  for (const target of targets) {
    const same = (source: { id: number; name: string }) => source.name.toLowerCase() === target.name.toLowerCase();
    const byId = sources.find((source) => source.id === target.id);
    const byName = sources.find(same);
    const exact = byId !== undefined && same(byId);
    if (exact) continue;
    if (byId || byName || firstRun) keys.push(...collectKeys((transaction) => put(transaction, target)));
    else report.skip(`target ${kind}`, target.name, 'not on the source: kept');
  }
  return keys;
}

const maxId = (ids: ReadonlyArray<number | null>) => Math.max(0, ...ids.filter((id): id is number => id !== null));

export async function writeClassifications(
  sources: readonly ClassificationRecord[],
  context: CatalogueContext,
): Promise<Map<string, number>> {
  const targets = await loadClassifications();
  const byName = new Map(targets.map((target) => [target.name.toLowerCase(), target.id]));
  const ids = await idsFor(
    'classification',
    sources,
    (source) => source.id,
    (source) => byName.get(source.name.toLowerCase()),
    maxId(sources.map((source) => source.id)),
    context.writer,
  );
  const imported: Classification[] = sources.map((source, index) => ({
    id: ids[index],
    name: source.name,
    description: source.description,
    sortKey: source.sortKey,
  }));
  const deletes = replacedKeys(
    targets,
    imported,
    context.firstRun,
    putNewClassification,
    context.report,
    'classification',
  );
  const puts = imported.flatMap((classification) =>
    collectItems((transaction) => putNewClassification(transaction, classification)),
  );
  await context.writer.write(puts, deletes);
  context.report.count('classifications', imported.length);
  return new Map(imported.map((classification) => [classification.name.toLowerCase(), classification.id]));
}

const CONTROLS: readonly string[] = ['NA', 'SHOWN', 'DEFAULT', 'MANDATORY'];
const control = (value: string): ControlValue =>
  (CONTROLS.includes(value.toUpperCase()) ? value.toUpperCase() : 'NA') as ControlValue;

export async function writeProducts(
  sources: readonly ProductRecord[],
  classifications: ReadonlyMap<string, number>,
  context: CatalogueContext,
): Promise<void> {
  const { ids, report, writer } = context;
  const targets = await loadProducts();
  const puts: Item[] = [];
  const deletes = replacedKeys(
    targets.map((record) => record.product),
    sources,
    context.firstRun,
    putNewProduct,
    report,
    'product',
  );
  // A target product that goes takes what hangs off it along.
  for (const record of targets) {
    if (sources.some((source) => source.id === record.product.id)) continue;
    const replaced = sources.some((source) => source.name.toLowerCase() === record.product.name.toLowerCase());
    if (!context.firstRun && !replaced) continue;
    deletes.push(
      ...collectKeys((transaction) => {
        for (const component of record.components) putNewComponent(transaction, component);
        for (const version of record.versions) putNewProductValue(transaction, 'version', version);
        for (const milestone of record.milestones) putNewProductValue(transaction, 'milestone', milestone);
        for (const entry of record.groupControls) putGroupControl(transaction, entry);
      }),
    );
  }
  const person = (login: string | null, what: string): number | null => {
    if (!login) return null;
    const id = ids.userId(login);
    if (id === undefined) report.skip('person', `${login} (${what})`, 'not a user of the target: left empty');
    return id ?? null;
  };
  const unclassified =
    classifications.get(DEFAULT_CLASSIFICATION.toLowerCase()) ?? [...classifications.values()][0] ?? 1;
  for (const source of sources) {
    const previous = targets.find((record) => record.product.id === source.id);
    const product: Product = {
      id: source.id,
      name: source.name,
      description: source.description,
      isActive: source.isActive,
      defaultBugType: source.defaultBugType ?? ids.defaultBugType,
      defaultMilestone: source.defaultMilestone ?? '---',
      hasUnconfirmed: source.hasUnconfirmed,
      classificationId:
        (source.classification && classifications.get(source.classification.toLowerCase())) || unclassified,
    };
    puts.push(...collectItems((transaction) => putNewProduct(transaction, product)));
    ids.addProduct(source.name, source.id, source.defaultBugType);

    const components: Component[] = source.components.map((component) => ({
      id: component.id,
      productId: source.id,
      name: component.name,
      description: component.description,
      defaultAssigneeId:
        person(component.defaultAssignee, `default assignee of ${source.name}/${component.name}`) ?? context.accountId,
      defaultQaContactId: person(component.defaultQaContact, `QA contact of ${source.name}/${component.name}`),
      triageOwnerId: person(component.triageOwner, `triage owner of ${source.name}/${component.name}`),
      defaultCcIds: [],
      defaultBugType: component.defaultBugType ?? '',
      sortKey: component.sortKey,
      isActive: component.isActive,
    }));
    deletes.push(
      ...replacedKeys(previous?.components ?? [], components, context.firstRun, putNewComponent, report, 'component'),
    );
    for (const component of components) {
      puts.push(...collectItems((transaction) => putNewComponent(transaction, component)));
      ids.addComponent(source.id, component.name, component.id);
    }

    for (const kind of ['version', 'milestone'] as const) {
      const values: readonly ProductValueRecord[] = kind === 'version' ? source.versions : source.milestones;
      const existing = previous ? (kind === 'version' ? previous.versions : previous.milestones) : [];
      const valueIds = await idsFor(
        kind,
        values,
        (value) => value.id,
        (value) => existing.find((entry) => entry.name.toLowerCase() === value.name.toLowerCase())?.id,
        maxId(values.map((value) => value.id)),
        writer,
      );
      const imported: ProductValue[] = values.map((value, index) => ({
        id: valueIds[index],
        productId: source.id,
        name: value.name,
        sortKey: value.sortKey,
        isActive: value.isActive,
      }));
      const put = (transaction: WriteTransaction, value: ProductValue) => putNewProductValue(transaction, kind, value);
      deletes.push(...replacedKeys(existing, imported, context.firstRun, put, report, kind));
      for (const value of imported) {
        puts.push(...collectItems((transaction) => put(transaction, value)));
        ids.addValue(kind, source.id, value.name, value.id);
      }
      report.count(`${kind}s`, imported.length);
    }

    const controls: GroupControl[] = (source.groupControls ?? []).flatMap((entry) => {
      const groupId = ids.groupId(entry.group);
      if (groupId === undefined) {
        report.skip('group control', `${source.name}: ${entry.group}`, 'no group of that name was imported');
        return [];
      }
      return [
        {
          productId: source.id,
          groupId,
          entry: entry.entry,
          memberControl: control(entry.memberControl),
          otherControl: control(entry.otherControl),
          canEdit: entry.canEdit,
          editComponents: entry.editComponents,
          editBugs: entry.editBugs,
          canConfirm: entry.canConfirm,
        },
      ];
    });
    // A source that does not expose controls (5.0, 5.2) leaves the target's (inferred, or set by the operator).
    for (const stale of source.groupControls === null ? [] : (previous?.groupControls ?? []))
      if (!controls.some((entry) => entry.groupId === stale.groupId))
        deletes.push(...collectKeys((transaction) => putGroupControl(transaction, stale)));
    for (const entry of controls) puts.push(...collectItems((transaction) => putGroupControl(transaction, entry)));
    report.count('components', components.length);
  }
  report.count('products', sources.length);
  await writer.write(puts, deletes);
  await writer.advance('product', maxId(sources.map((source) => source.id)));
  await writer.advance('component', maxId(sources.flatMap((source) => source.components.map((entry) => entry.id))));
}
