import type {
  Classification,
  Component,
  GroupControl,
  Product,
  ProductRecord,
  ProductValue,
} from '../../domain/catalog/catalog.ts';
import { errors } from '../../errors.ts';
import { bulkWrite } from '../bulkWrite.ts';
import { catalogKeys, type ItemKey } from '../keys.ts';
import { queryPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';
import { cachedCatalogRead } from './catalogCache.ts';
import { toClassification, toComponent, toGroupControl, toProduct, toProductValue } from './catalogItems.ts';

/**
 * Classifications and products. A product's components, versions, milestones and group controls
 * sort right after it (`PRODUCT#<id>#...`) in the `PRODUCTS` partition, which is read whole with
 * one strongly consistent query.
 */
const listing = (partition: string): Promise<Array<Record<string, unknown>>> => queryPartition(partition);

export function loadClassifications(): Promise<Classification[]> {
  return cachedCatalogRead('classifications', async () =>
    (await listing(catalogKeys.classificationsPartition)).map(toClassification),
  );
}

/** Every product with its components, versions, milestones and group controls: one query. */
export function loadProducts(): Promise<ProductRecord[]> {
  return cachedCatalogRead('products', readProducts);
}

async function readProducts(): Promise<ProductRecord[]> {
  const records = new Map<number, ProductRecord>();
  const items = await listing(catalogKeys.productsPartition);
  for (const item of items.filter((candidate) => candidate.type === 'product')) {
    const product = toProduct(item);
    records.set(product.id, { product, components: [], versions: [], milestones: [], groupControls: [] });
  }
  for (const item of items) {
    const record = records.get(Number(item.productId));
    if (!record) continue;
    if (item.type === 'component') record.components.push(toComponent(item));
    else if (item.type === 'version') record.versions.push(toProductValue(item, 'version'));
    else if (item.type === 'milestone') record.milestones.push(toProductValue(item, 'milestone'));
    else if (item.type === 'groupControl') record.groupControls.push(toGroupControl(item));
  }
  return [...records.values()].sort((a, b) => a.product.id - b.product.id);
}

export function putNewClassification(transaction: WriteTransaction, classification: Classification): void {
  const duplicate = () => errors.nameTaken('classification', classification.name);
  transaction.putNew(
    {
      ...catalogKeys.classificationNameGuard(classification.name),
      type: 'classificationName',
      classificationId: classification.id,
    },
    duplicate,
  );
  transaction.putNew(
    { ...catalogKeys.classification(classification.id), type: 'classification', ...classification },
    duplicate,
  );
}

export function putClassification(transaction: WriteTransaction, previous: Classification, next: Classification): void {
  if (previous.name.toLowerCase() !== next.name.toLowerCase()) {
    transaction.delete(catalogKeys.classificationNameGuard(previous.name));
    transaction.putNew(
      { ...catalogKeys.classificationNameGuard(next.name), type: 'classificationName', classificationId: next.id },
      () => errors.nameTaken('classification', next.name),
    );
  }
  transaction.putAtRevision(
    { ...catalogKeys.classification(next.id), type: 'classification', ...next },
    previous.rev ?? 0,
  );
}

const duplicateProduct = (name: string) => () => errors.productExists(name);

export function putNewProduct(transaction: WriteTransaction, product: Product): void {
  transaction.putNew(
    { ...catalogKeys.productNameGuard(product.name), type: 'productName', productId: product.id },
    duplicateProduct(product.name),
  );
  transaction.putNew(
    { ...catalogKeys.product(product.id), type: 'product', productId: product.id, ...product },
    duplicateProduct(product.name),
  );
}

export function putProduct(transaction: WriteTransaction, previous: Product, next: Product): void {
  if (previous.name.toLowerCase() !== next.name.toLowerCase()) {
    transaction.delete(catalogKeys.productNameGuard(previous.name));
    transaction.putNew(
      { ...catalogKeys.productNameGuard(next.name), type: 'productName', productId: next.id },
      duplicateProduct(next.name),
    );
  }
  transaction.putAtRevision(
    { ...catalogKeys.product(next.id), type: 'product', productId: next.id, ...next },
    previous.rev ?? 0,
  );
}

/**
 * A product's group controls belong to it: changing one raises the product's revision, so two
 * concurrent control changes (read from the same state) cannot undo each other.
 */
export function touchProduct(transaction: WriteTransaction, product: Product): void {
  transaction.updateAtRevision(catalogKeys.product(product.id), product.rev ?? 0);
}

const duplicateComponent = (name: string) => () =>
  errors.componentExists(`A component named ${name} already exists in this product.`);

export function putNewComponent(transaction: WriteTransaction, component: Component): void {
  transaction.putNew(
    {
      ...catalogKeys.componentNameGuard(component.productId, component.name),
      type: 'componentName',
      componentId: component.id,
    },
    duplicateComponent(component.name),
  );
  transaction.putNew(
    { ...catalogKeys.component(component.productId, component.id), type: 'component', ...component },
    duplicateComponent(component.name),
  );
}

export function putComponent(transaction: WriteTransaction, previous: Component, next: Component): void {
  if (previous.name.toLowerCase() !== next.name.toLowerCase()) {
    transaction.delete(catalogKeys.componentNameGuard(previous.productId, previous.name));
    transaction.putNew(
      { ...catalogKeys.componentNameGuard(next.productId, next.name), type: 'componentName', componentId: next.id },
      duplicateComponent(next.name),
    );
  }
  transaction.putAtRevision(
    { ...catalogKeys.component(next.productId, next.id), type: 'component', ...next },
    previous.rev ?? 0,
  );
}

export function deleteComponent(transaction: WriteTransaction, component: Component): void {
  transaction.delete(catalogKeys.componentNameGuard(component.productId, component.name));
  // Only the component as it was read: a concurrent rename must not leave its new name guarded.
  transaction.deleteAtRevision(catalogKeys.component(component.productId, component.id), component.rev ?? 0);
}

export type ProductValueKind = 'version' | 'milestone';

const valueKeys = {
  version: { item: catalogKeys.version, guard: catalogKeys.versionNameGuard },
  milestone: { item: catalogKeys.milestone, guard: catalogKeys.milestoneNameGuard },
};

const duplicateValue = (kind: ProductValueKind, name: string) => () =>
  errors.productValueTaken(kind, name, 'this product');

export function putNewProductValue(transaction: WriteTransaction, kind: ProductValueKind, value: ProductValue): void {
  const { item, guard } = valueKeys[kind];
  transaction.putNew(
    { ...guard(value.productId, value.name), type: `${kind}Name`, valueId: value.id },
    duplicateValue(kind, value.name),
  );
  transaction.putNew({ ...item(value.productId, value.id), type: kind, ...value }, duplicateValue(kind, value.name));
}

export function putProductValue(
  transaction: WriteTransaction,
  kind: ProductValueKind,
  previous: ProductValue,
  next: ProductValue,
): void {
  const { item, guard } = valueKeys[kind];
  if (previous.name.toLowerCase() !== next.name.toLowerCase()) {
    transaction.delete(guard(previous.productId, previous.name));
    transaction.putNew(
      { ...guard(next.productId, next.name), type: `${kind}Name`, valueId: next.id },
      duplicateValue(kind, next.name),
    );
  }
  transaction.putAtRevision({ ...item(next.productId, next.id), type: kind, ...next }, previous.rev ?? 0);
}

export function putGroupControl(transaction: WriteTransaction, control: GroupControl): void {
  transaction.put({
    ...catalogKeys.groupControl(control.productId, control.groupId),
    type: 'groupControl',
    ...control,
  });
}

export function deleteGroupControl(
  transaction: WriteTransaction,
  control: Pick<GroupControl, 'productId' | 'groupId'>,
): void {
  transaction.delete(catalogKeys.groupControl(control.productId, control.groupId));
}

/** Deletes a version or milestone as it was read: a concurrent rename is a RevisionConflict. */
export function deleteProductValue(transaction: WriteTransaction, kind: ProductValueKind, value: ProductValue): void {
  const { item, guard } = valueKeys[kind];
  transaction.delete(guard(value.productId, value.name));
  transaction.deleteAtRevision(item(value.productId, value.id), value.rev ?? 0);
}

/** Items of one DynamoDB transaction at most (100), less the cache stamp WriteTransaction adds. */
const TRANSACTION_ROOM = 95;

/**
 * Deletes a product as it was read (a concurrent change to it is a RevisionConflict), its name
 * guard, and as many of its components, versions, milestones and group controls (with their
 * guards) as the transaction has room for: call it last. Answers the keys left over, for
 * deleteProductLeftovers after the commit: once the product item is gone its children are read as
 * nothing (readProducts skips children of no product), so the product is gone whole at the commit.
 */
export function deleteProduct(transaction: WriteTransaction, record: ProductRecord): ItemKey[] {
  const { product } = record;
  transaction.delete(catalogKeys.productNameGuard(product.name));
  transaction.deleteAtRevision(catalogKeys.product(product.id), product.rev ?? 0);
  const parts = productPartKeys(record);
  const room = Math.max(0, TRANSACTION_ROOM - transaction.size);
  for (const key of parts.slice(0, room)) transaction.delete(key);
  return parts.slice(room);
}

/** The keys of a product's children and their name guards. */
function productPartKeys(record: ProductRecord): ItemKey[] {
  const productId = record.product.id;
  return [
    ...record.components.flatMap((component) => [
      catalogKeys.component(productId, component.id),
      catalogKeys.componentNameGuard(productId, component.name),
    ]),
    ...record.versions.flatMap((version) => [
      catalogKeys.version(productId, version.id),
      catalogKeys.versionNameGuard(productId, version.name),
    ]),
    ...record.milestones.flatMap((milestone) => [
      catalogKeys.milestone(productId, milestone.id),
      catalogKeys.milestoneNameGuard(productId, milestone.name),
    ]),
    ...record.groupControls.map((control) => catalogKeys.groupControl(productId, control.groupId)),
  ];
}

/** Deletes keys left over from a deleted product (invisible already), 25 at a time. */
export async function deleteProductLeftovers(leftovers: readonly ItemKey[]): Promise<void> {
  if (leftovers.length > 0) await bulkWrite([], leftovers, { concurrency: 2 });
}
