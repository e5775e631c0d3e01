/**
 * Criteria over an integer column of the index decided by one 0/1 table per criterion: both the
 * row tests (criterionCompiler.ts) and the whole-index kernels (criterionKernels.ts) read them.
 */
import { BUG_STATUSES, canonicalStatus, isOpenStatus } from '../bug/bugWorkflow.ts';
import { idSetTest, idTable } from './criterionNames.ts';
import { FALSE, type SearchEnvironment, TRUE } from './searchEnvironment.ts';
import { CODE_FIELDS } from './searchFields.ts';
import type { SearchIndex } from './searchIndex.ts';
import { textMatcher } from './valueMatchers.ts';

/**
 * A criterion decided by a 0/1 table indexed by an integer column of the index: code columns,
 * product, component, version, milestone and classification (by id), whiteboard and alias (by code into their
 * distinct values). The table is built when first asked for (an alias's values can be as many as
 * the bugs, and asking whether a criterion has a kernel must stay cheap). Null for other criteria.
 */
export interface ColumnCriterion {
  column: Int32Array;
  table(): Uint8Array;
}

export function columnCriterion(
  env: SearchEnvironment,
  field: string,
  op: string,
  value: string,
): ColumnCriterion | null {
  const { index } = env;
  const once = (column: Int32Array, build: () => Uint8Array): ColumnCriterion => {
    let table: Uint8Array | undefined;
    return { column, table: () => (table ??= build()) };
  };
  const code = CODE_FIELDS[field];
  if (code) {
    const text = textMatcher(op, value);
    return once(index.codes[code], () =>
      field === 'bug_status'
        ? statusCodes(index, op, value)
        : Uint8Array.from(index.vocabularies[code].values, (entry) => (text(entry) ? TRUE : FALSE)),
    );
  }
  switch (field) {
    case 'product': {
      const test = idSetTest(
        env.products.map((record) => ({ id: record.product.id, name: record.product.name })),
        op,
        value,
      );
      return once(index.productId, () => idTable(env.products.map((record) => record.product.id).filter(test)));
    }
    case 'component': {
      const components = env.products.flatMap((record) => record.components);
      const test = idSetTest(
        components.map((component) => ({ id: component.id, name: component.name })),
        op,
        value,
      );
      return once(index.componentId, () => idTable(components.map((component) => component.id).filter(test)));
    }
    case 'version':
    case 'target_milestone': {
      // By id, as the bugs keep them (catalog/bugValues.ts): the names are the catalogue's current ones.
      const values = env.products.flatMap((record) => (field === 'version' ? record.versions : record.milestones));
      const test = idSetTest(values, op, value);
      return once(field === 'version' ? index.versionId : index.targetMilestoneId, () =>
        idTable(values.map((entry) => entry.id).filter(test)),
      );
    }
    case 'classification': {
      const test = idSetTest(
        env.classifications.map((entry) => ({ id: entry.id, name: entry.name })),
        op,
        value,
      );
      return once(index.productId, () =>
        idTable(
          env.products.filter((record) => test(record.product.classificationId)).map((record) => record.product.id),
        ),
      );
    }
    case 'status_whiteboard':
    case 'alias': {
      const [column, values] =
        field === 'alias' ? [index.aliasCode, index.aliases.values] : [index.whiteboardCode, index.whiteboards.values];
      const text = textMatcher(op, value);
      return once(column, () => Uint8Array.from(values, (entry) => (text(entry) ? TRUE : FALSE)));
    }
    default:
      return null;
  }
}

/** Bugzilla's statuses by name, with the legacy names scripts send and CLOSED for every closed status. */
function statusCodes(index: SearchIndex, op: string, value: string): Uint8Array {
  const vocabulary = index.vocabularies.status;
  const table = new Uint8Array(vocabulary.values.length + 1);
  if (op === 'isopen') {
    vocabulary.values.forEach((status, code) => {
      table[code] = isOpenStatus(status) ? 1 : 0;
    });
    return table;
  }
  const values =
    op === 'anyexact' ? value.split(',').map((part) => part.trim()) : op === 'equals' ? [value.trim()] : null;
  if (values) {
    const wanted = new Set<string>();
    for (const name of values) {
      if (name.toUpperCase() === 'CLOSED')
        for (const status of BUG_STATUSES) {
          if (!status.isOpen) wanted.add(status.name);
        }
      else if (name.toUpperCase() === 'OPEN')
        for (const status of BUG_STATUSES) {
          if (status.isOpen) wanted.add(status.name);
        }
      else wanted.add(canonicalStatus(name, null).toUpperCase());
    }
    vocabulary.values.forEach((status, code) => {
      table[code] = wanted.has(status.toUpperCase()) ? 1 : 0;
    });
    return table;
  }
  const text = textMatcher(op, value);
  vocabulary.values.forEach((status, code) => {
    table[code] = text(status) ? 1 : 0;
  });
  return table;
}
