/**
 * Saved searches (docs/data-model.md): one item per search in its owner's partition, keyed by the
 * lowercased name; a shared one carries the gsi1 attributes of its group's partition.
 */
import type { SavedSearch } from '../../domain/search/query/savedSearch.ts';
import { tableName } from '../dynamoClient.ts';
import { readItem } from '../itemReads.ts';
import { savedSearchKeys } from '../keys.ts';
import { queryAll, queryIndexPartition } from '../tableReads.ts';
import { RevisionConflict, WriteTransaction } from '../transaction.ts';

/** A search as read, with the revision its next write is conditioned on. */
export interface StoredSavedSearch extends SavedSearch {
  rev: number;
}

const toSavedSearch = (item: Record<string, unknown>): StoredSavedSearch => ({
  id: Number(item.id),
  ownerId: Number(item.ownerId),
  name: String(item.name),
  query: String(item.query),
  sharedWithGroupId: item.sharedWithGroupId === undefined ? null : Number(item.sharedWithGroupId),
  rev: Number(item.rev ?? 0),
});

/** One person's search by name, whatever its case; strongly consistent. */
export async function findSavedSearch(ownerId: number, name: string): Promise<StoredSavedSearch | null> {
  const item = await readItem(savedSearchKeys.savedSearch(ownerId, name));
  return item ? toSavedSearch(item) : null;
}

/** Every search a person owns, strongly consistent (a search just saved is listed). */
export async function listOwnSavedSearches(ownerId: number): Promise<StoredSavedSearch[]> {
  const { pk } = savedSearchKeys.savedSearch(ownerId, '');
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': savedSearchKeys.savedSearchPrefix },
    ConsistentRead: true,
  });
  return items.map(toSavedSearch);
}

/** The searches shared with any of these groups (from the index: a share may take a moment to show). */
export async function listSavedSearchesSharedWith(groupIds: readonly number[]): Promise<StoredSavedSearch[]> {
  const partitions = await Promise.all(
    groupIds.map((groupId) => queryIndexPartition('gsi1', savedSearchKeys.sharedWithPartition(groupId))),
  );
  return partitions.flat().map(toSavedSearch);
}

function itemOf(search: SavedSearch): Record<string, unknown> {
  const shared =
    search.sharedWithGroupId === null
      ? {}
      : {
          sharedWithGroupId: search.sharedWithGroupId,
          ...savedSearchKeys.sharedWith(search.sharedWithGroupId, search.ownerId, search.name),
        };
  return {
    ...savedSearchKeys.savedSearch(search.ownerId, search.name),
    type: 'savedSearch',
    id: search.id,
    ownerId: search.ownerId,
    name: search.name,
    query: search.query,
    ...shared,
  };
}

/**
 * Writes a search whole: a new one (`read` undefined) only if its name is still free, else over
 * the revision read. Either race lost is a RevisionConflict, for retryOnConflict to read again.
 */
export async function writeSavedSearch(search: SavedSearch, read: number | undefined): Promise<void> {
  const transaction = new WriteTransaction();
  const item = itemOf(search) as Record<string, unknown> & { pk: string; sk: string };
  if (read === undefined) transaction.putNew({ ...item, rev: 1 }, () => new RevisionConflict(item));
  else transaction.putAtRevision(item, read);
  await transaction.commit();
}

/** Deletes a search as read; a search changed or deleted meanwhile is a RevisionConflict. */
export async function deleteSavedSearch(search: StoredSavedSearch): Promise<void> {
  const transaction = new WriteTransaction();
  const key = savedSearchKeys.savedSearch(search.ownerId, search.name);
  transaction.delete(key, {
    condition: 'attribute_exists(pk) AND rev = :rev',
    values: { ':rev': search.rev },
    onConditionFailed: () => new RevisionConflict(key),
  });
  await transaction.commit();
}
