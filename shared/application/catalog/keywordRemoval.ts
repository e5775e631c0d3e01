import { resolveKeyword } from '../../domain/catalog/keywords.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { deleteKeyword, loadKeywords } from '../../storage/catalog/keywordStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { bugsUsingValue } from '../search/valueUsage.ts';
import { refusals } from './removalRefusals.ts';

/**
 * `DELETE /rest/keyword/{id_or_name}` (editkeywords). Bugzilla removes the keyword from its bugs
 * as it deletes it; Tracker refuses while any bug has it (removing it from many bugs would need a
 * bulk change that keeps their history and the search index right), and says how many.
 */
export function removeKeyword(caller: Caller, reference: string) {
  return retryOnConflict(() => removeKeywordOnce(caller, reference));
}

async function removeKeywordOnce(caller: Caller, reference: string) {
  const keyword = resolveKeyword(reference, await loadKeywords());
  if (!keyword) throw errors.notFoundByIdOrName('keyword', reference);
  const count = await bugsUsingValue({ kind: 'keyword', keywordId: keyword.id });
  if (count > 0) throw refusals.keywordInUse(count, keyword.name);
  const transaction = new WriteTransaction();
  deleteKeyword(transaction, keyword);
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.keyword,
    objectId: keyword.id,
    userId: caller.user!.id,
    changes: { __remove__: { removed: keyword.name, added: '' } },
    at: new Date(),
  });
  await transaction.commit();
  return { keywords: [{ id: keyword.id }] };
}
