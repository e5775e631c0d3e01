/**
 * Criteria over an integer column of the index decided by one 0/1 table per criterion: both the
 * row tests (criterionCompiler.ts) and the whole-index kernels (criterionKernels.ts) read them.
 */
import { type FieldValues, isValueField } from '../../catalog/fieldValues.ts';
import type { SearchIndex } from '../index/searchIndex.ts';
import { CODE_FIELDS, PER_COMMENT_NEGATIONS } from '../query/searchFields.ts';
import { idSetTest, idTable } from './criterionNames.ts';
import { FALSE, type SearchEnvironment, TRUE } from './searchEnvironment.ts';
import { textMatcher } from './valueMatchers.ts';

/**
 * A criterion decided by a 0/1 table indexed by an integer column of the index: code columns,
 * product, component, version, milestone and classification (by id), whiteboard and alias (by code into their
 * distinct values). The table is built when first asked for (an alias's values can be as many as
 * the bugs, and asking whether a criterion has a kernel must stay cheap). Null for other criteria.
 */
export interface ColumnCriterion {
  column: Int32Array;
  /** The column's name: which bitmaps of slots by value (columnBitmaps.ts) answer it. */
  name: string;
  table(): Uint8Array;
}

export function columnCriterion(
  env: SearchEnvironment,
  field: string,
  op: string,
  value: string,
): ColumnCriterion | null {
  const { index } = env;
  const once = (name: string, column: Int32Array, build: () => Uint8Array): ColumnCriterion => {
    let table: Uint8Array | undefined;
    return { column, name, table: () => (table ??= build()) };
  };
  const code = CODE_FIELDS[field];
  if (code) {
    if (field === 'bug_status')
      return once(`codes.${code}`, index.codes[code], () => statusCodes(index, env.values, op, value));
    const text = textMatcher(op, value);
    // Bugs keep these values by name; a bug written before a rename matches by the current name.
    const current = (entry: string) => (isValueField(field) ? env.values.currentName(field, entry) : entry);
    return once(`codes.${code}`, index.codes[code], () =>
      Uint8Array.from(index.vocabularies[code].values, (entry) => (text(current(entry)) ? TRUE : FALSE)),
    );
  }
  switch (field) {
    case 'product': {
      const test = idSetTest(
        env.products.map((record) => ({ id: record.product.id, name: record.product.name })),
        op,
        value,
      );
      return once('productId', index.productId, () =>
        idTable(env.products.map((record) => record.product.id).filter(test)),
      );
    }
    case 'component': {
      const components = env.products.flatMap((record) => record.components);
      const test = idSetTest(
        components.map((component) => ({ id: component.id, name: component.name })),
        op,
        value,
      );
      return once('componentId', index.componentId, () =>
        idTable(components.map((component) => component.id).filter(test)),
      );
    }
    case 'version':
    case 'target_milestone': {
      // By id, as the bugs keep them (catalog/bugValues.ts): the names are the catalogue's current ones.
      const values = env.products.flatMap((record) => (field === 'version' ? record.versions : record.milestones));
      const test = idSetTest(values, op, value);
      const name = field === 'version' ? 'versionId' : 'targetMilestoneId';
      return once(name, index[name], () => idTable(values.map((entry) => entry.id).filter(test)));
    }
    case 'classification': {
      const test = idSetTest(
        env.classifications.map((entry) => ({ id: entry.id, name: entry.name })),
        op,
        value,
      );
      return once('productId', index.productId, () =>
        idTable(
          env.products.filter((record) => test(record.product.classificationId)).map((record) => record.product.id),
        ),
      );
    }
    case 'status_whiteboard':
    case 'alias': {
      const [column, values] =
        field === 'alias' ? [index.aliasCode, index.aliases.values] : [index.whiteboardCode, index.whiteboards.values];
      // A negative operator on the alias wants an alias that fails the positive test (searchFields.ts).
      const positive = field === 'alias' ? PER_COMMENT_NEGATIONS[op] : undefined;
      const text = positive ? negatedValue(textMatcher(positive, value)) : textMatcher(op, value);
      return once(`${field}Code`, column, () => Uint8Array.from(values, (entry) => (text(entry) ? TRUE : FALSE)));
    }
    default:
      return null;
  }
}

/** A value that is there (not the empty text of a bug without one) and fails `positive`. */
const negatedValue =
  (positive: (text: string) => boolean) =>
  (text: string): boolean =>
    text !== '' && !positive(text);

/**
 * The installation's statuses by name (as bugs show them now), with the legacy names scripts send,
 * CLOSED for every closed status and OPEN for every open one.
 */
function statusCodes(index: SearchIndex, values: FieldValues, op: string, value: string): Uint8Array {
  const vocabulary = index.vocabularies.status;
  const table = new Uint8Array(vocabulary.values.length + 1);
  if (op === 'isopen') {
    vocabulary.values.forEach((status, code) => {
      table[code] = values.isOpen(status) ? 1 : 0;
    });
    return table;
  }
  const current = (status: string) => values.currentName('bug_status', status);
  const names =
    op === 'anyexact' ? value.split(',').map((part) => part.trim()) : op === 'equals' ? [value.trim()] : null;
  if (names) {
    const wanted = new Set<string>();
    for (const name of names) {
      if (name.toUpperCase() === 'CLOSED' && !values.named('bug_status', name))
        for (const status of values.statusNames((candidate) => !candidate.isOpen)) wanted.add(status.toUpperCase());
      else if (name.toUpperCase() === 'OPEN' && !values.named('bug_status', name))
        for (const status of values.statusNames((candidate) => candidate.isOpen === true))
          wanted.add(status.toUpperCase());
      else wanted.add(values.canonicalStatus(name, null).toUpperCase());
    }
    vocabulary.values.forEach((status, code) => {
      table[code] = wanted.has(current(status).toUpperCase()) ? 1 : 0;
    });
    return table;
  }
  const text = textMatcher(op, value);
  vocabulary.values.forEach((status, code) => {
    table[code] = text(current(status)) ? 1 : 0;
  });
  return table;
}
