import type { Keyword } from '../../domain/catalog/keywords.ts';
import { errors } from '../../errors.ts';
import { catalogKeys } from '../keys.ts';
import { queryPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';
import { cachedCatalogRead } from './catalogCache.ts';

/**
 * Keywords: one item each in the `KEYWORDS` partition (read consistently) and a name guard
 * (`KEYWORDNAME#<lowercased name>`) that makes names unique without regard to case.
 */
export function loadKeywords(): Promise<Keyword[]> {
  return cachedCatalogRead('keywords', async () =>
    (await queryPartition(catalogKeys.keywordsPartition))
      .filter((item) => item.type === 'keyword')
      .map((item) => ({
        id: Number(item.id),
        name: String(item.name),
        description: String(item.description ?? ''),
        isActive: item.isActive !== false,
        rev: Number(item.rev ?? 0),
      })),
  );
}

const duplicate = (name: string) => () => errors.nameTaken('keyword', name);

export function putNewKeyword(transaction: WriteTransaction, keyword: Keyword): void {
  transaction.putNew(
    { ...catalogKeys.keywordNameGuard(keyword.name), type: 'keywordName', keywordId: keyword.id },
    duplicate(keyword.name),
  );
  transaction.putNew({ ...catalogKeys.keyword(keyword.id), type: 'keyword', ...keyword }, duplicate(keyword.name));
}

export function putKeyword(transaction: WriteTransaction, previous: Keyword, next: Keyword): void {
  if (previous.name.toLowerCase() !== next.name.toLowerCase()) {
    transaction.delete(catalogKeys.keywordNameGuard(previous.name));
    transaction.putNew(
      { ...catalogKeys.keywordNameGuard(next.name), type: 'keywordName', keywordId: next.id },
      duplicate(next.name),
    );
  }
  transaction.putAtRevision({ ...catalogKeys.keyword(next.id), type: 'keyword', ...next }, previous.rev ?? 0);
}

/** Deletes the keyword as it was read: a concurrent rename or change is a RevisionConflict. */
export function deleteKeyword(transaction: WriteTransaction, keyword: Keyword): void {
  transaction.delete(catalogKeys.keywordNameGuard(keyword.name));
  transaction.deleteAtRevision(catalogKeys.keyword(keyword.id), keyword.rev ?? 0);
}
