import type { ProductRecord, ProductValue } from './catalog.ts';

/**
 * A bug's version and target milestone. Bugzilla keeps them by name (`bugs.version`,
 * `bugs.target_milestone`), and renaming one (Bugzilla::Version->update, Bugzilla::Milestone->update)
 * rewrites the column of every bug of the product in the same SQL transaction, with no
 * bugs_activity row and no change to delta_ts. Tracker keeps the value's id on the bug instead,
 * so a rename is one catalogue write, and every bug, its rendering and its searches show the new
 * name at once: the outcome of Bugzilla's rewrite at any number of bugs. The history keeps the
 * names written at the time, as bugs_activity does.
 */
export type ValueKind = 'version' | 'milestone';

export interface BugValueNames {
  version(id: number): string;
  milestone(id: number): string;
}

const valuesOf = (record: ProductRecord, kind: ValueKind) => (kind === 'version' ? record.versions : record.milestones);

/** Every product's values of a kind by id (ids are unique across products). */
export function valuesById(products: readonly ProductRecord[], kind: ValueKind): Map<number, ProductValue> {
  return new Map(products.flatMap((record) => valuesOf(record, kind)).map((value) => [value.id, value]));
}

/** Names by id; an id the catalogue does not know (0 included) reads as the empty name. */
export function bugValueNames(products: readonly ProductRecord[]): BugValueNames {
  const [versions, milestones] = [valuesById(products, 'version'), valuesById(products, 'milestone')];
  return {
    version: (id) => versions.get(id)?.name ?? '',
    milestone: (id) => milestones.get(id)?.name ?? '',
  };
}

/** A value of the product by name, as Bugzilla compares them (case-insensitively; names are unique so). */
export const valueNamed = (values: readonly ProductValue[], name: string): ProductValue | undefined =>
  values.find((value) => value.name.toLowerCase() === name.toLowerCase());

/** A rename of a value, as the catalogue's audit log recorded it. */
export interface ValueRename {
  kind: ValueKind;
  valueId: number;
  from: string;
  at: string;
}

/** The id a version or milestone name stands for in a product (0: none). */
export type LegacyValueId = (kind: ValueKind, productId: number, name: string) => number;

/**
 * The id a name stands for on a bug stored before bugs kept ids: the product's value of that
 * name, or else the value that was renamed from it (such a bug kept the old name, the defect
 * this replaced), the latest rename first. 0 when neither exists.
 */
export function legacyValueId(
  products: readonly ProductRecord[],
  renames: readonly ValueRename[],
  kind: ValueKind,
  productId: number,
  name: string,
): number {
  const record = products.find((candidate) => candidate.product.id === productId);
  const values = record ? valuesOf(record, kind) : [];
  const named = valueNamed(values, name);
  if (named) return named.id;
  const renamed = renames
    .filter(
      (rename) =>
        rename.kind === kind &&
        rename.from.toLowerCase() === name.toLowerCase() &&
        values.some((value) => value.id === rename.valueId),
    )
    .sort((a, b) => b.at.localeCompare(a.at))[0];
  return renamed?.valueId ?? 0;
}
