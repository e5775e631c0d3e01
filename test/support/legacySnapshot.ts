import { CODE_COLUMNS, LIST_COLUMNS, NUMBER_COLUMNS } from '../../shared/domain/search/index/columns.ts';
import type { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import type { SnapshotColumns } from '../../shared/domain/search/snapshot/legacySnapshot.ts';

/**
 * An index as the JSON snapshots before the binary form held it (version 2): what an installation
 * upgraded in place still has stored, for tests of reading it (legacySnapshot.ts).
 */
export function legacySnapshotOf(index: SearchIndex): SnapshotColumns {
  const n = index.size;
  const take = (array: Int32Array | Float64Array | Uint8Array) =>
    Array.from(array.subarray(0, n), (value) => (Number.isNaN(value) ? null : value));
  const postings = (lists: SearchIndex['words']) =>
    Object.fromEntries(
      [...lists.keys()].map((word) => {
        const ids: number[] = [];
        lists.forEach(word, (slot) => ids.push(index.id[slot]!));
        const sorted = [...new Set(ids)].sort((a, b) => a - b);
        return [word, sorted.map((id, position) => (position === 0 ? id : id - sorted[position - 1]!))];
      }),
    );
  return {
    version: 2,
    highWater: index.highWater,
    size: n,
    numbers: Object.fromEntries(NUMBER_COLUMNS.map((name) => [name, take(index[name])])),
    codes: Object.fromEntries(
      CODE_COLUMNS.map((column) => [
        column,
        { values: index.vocabularies[column].values, codes: take(index.codes[column]) },
      ]),
    ),
    summary: index.summary.slice(0, n),
    whiteboard: Array.from({ length: n }, (_, slot) => index.whiteboard.get(slot)),
    alias: Array.from({ length: n }, (_, slot) => index.alias.get(slot)),
    url: Array.from({ length: n }, (_, slot) => index.url.get(slot)),
    seeAlso: Array.from({ length: n }, (_, slot) => index.seeAlso.get(slot)).map((values) =>
      values.length ? [...values] : 0,
    ),
    lists: Object.fromEntries(
      LIST_COLUMNS.map((column) => [
        column,
        Array.from({ length: n }, (_, slot) => {
          const values = index.lists[column].get(slot);
          return values.length ? [...values] : 0;
        }),
      ]),
    ),
    flags: Array.from({ length: n }, (_, slot) => index.flags.get(slot)).map((flags) =>
      flags.length ? flags.map((flag) => [flag.typeId, flag.status, flag.setterId, flag.requesteeId]) : 0,
    ),
    tags: Array.from({ length: n }, (_, slot) => index.tags.get(slot) ?? 0),
    custom: Array.from({ length: n }, (_, slot) => index.custom.get(slot) ?? 0),
    changes: Array.from({ length: n }, (_, slot) => {
      const changes = index.history.list(slot);
      return changes.length
        ? changes.map((change) =>
            change.attachmentId === undefined
              ? ([change.field, change.at, change.who, change.removed, change.added] as [
                  string,
                  number,
                  number,
                  string,
                  string,
                ])
              : ([change.field, change.at, change.who, change.removed, change.added, change.attachmentId] as [
                  string,
                  number,
                  number,
                  string,
                  string,
                  number,
                ]),
          )
        : 0;
    }),
    privateAttachments: Array.from({ length: n }, (_, slot) => index.privateAttachmentsAt(slot)).map((marks, slot) =>
      marks === undefined || (marks.length === 0 && index.attachmentCount[slot] === 0)
        ? 0
        : marks.map((mark): [number, number] => [mark.id, mark.creatorId]),
    ),
    words: postings(index.words),
    privateWords: postings(index.privateWords),
  };
}
