import {
  byKeywordName,
  checkKeywordDescription,
  checkKeywordName,
  type Keyword,
  keywordView,
  resolveKeyword,
  sameKeywordName,
} from '../../domain/catalog/keywords.ts';
import { flagText } from '../../domain/changeReport.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { loadKeywords, putKeyword, putNewKeyword } from '../../storage/catalog/keywordStore.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';

/** Keywords: listing (public) and administration (editkeywords). */

interface KeywordInput {
  name?: string;
  description?: string;
  is_active?: boolean;
}

export async function createKeyword(caller: Caller, input: KeywordInput): Promise<{ id: number }> {
  const name = checkKeywordName(input.name);
  const description = checkKeywordDescription(input.description);
  if ((await loadKeywords()).some((keyword) => sameKeywordName(keyword.name, name)))
    throw errors.nameTaken('keyword', name);
  const keyword: Keyword = { id: await allocateId('keyword'), name, description, isActive: input.is_active ?? true };
  const transaction = new WriteTransaction();
  putNewKeyword(transaction, keyword);
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.keyword,
    objectId: keyword.id,
    userId: caller.user!.id,
    changes: { __create__: { removed: '', added: name } },
    at: new Date(),
  });
  await transaction.commit();
  return { id: keyword.id };
}

function resolveAll(keywords: readonly Keyword[], references: ReadonlyArray<string | number>): Keyword[] {
  const found: Keyword[] = [];
  for (const reference of references) {
    const keyword = resolveKeyword(reference, keywords);
    if (!keyword) throw errors.notFoundByIdOrName('keyword', reference);
    if (!found.includes(keyword)) found.push(keyword);
  }
  return found;
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function updateKeywords(caller: Caller, targets: { ids: number[]; names: string[] }, input: KeywordInput) {
  return retryOnConflict(() => updateKeywordsOnce(caller, targets, input));
}

async function updateKeywordsOnce(caller: Caller, targets: { ids: number[]; names: string[] }, input: KeywordInput) {
  const keywords = await loadKeywords();
  const selected = resolveAll(keywords, [...targets.ids, ...targets.names]);
  if (selected.length === 0) throw errors.idsOrNamesRequired();
  if (input.name !== undefined && selected.length > 1)
    throw errors.invalidParameter('You cannot give several keywords the same name.');
  const now = new Date();
  const transaction = new WriteTransaction();
  const results = selected.map((previous) => {
    const next: Keyword = {
      ...previous,
      name: input.name !== undefined ? checkKeywordName(input.name) : previous.name,
      description: input.description !== undefined ? checkKeywordDescription(input.description) : previous.description,
      isActive: input.is_active ?? previous.isActive,
    };
    if (
      !sameKeywordName(next.name, previous.name) &&
      keywords.some((other) => other.id !== previous.id && sameKeywordName(other.name, next.name))
    ) {
      throw errors.nameTaken('keyword', next.name);
    }
    const changes: Record<string, { removed: string; added: string }> = {};
    if (next.name !== previous.name) changes.name = { removed: previous.name, added: next.name };
    if (next.description !== previous.description)
      changes.description = { removed: previous.description, added: next.description };
    if (next.isActive !== previous.isActive)
      changes.is_active = { removed: flagText(previous.isActive), added: flagText(next.isActive) };
    if (Object.keys(changes).length > 0) {
      putKeyword(transaction, previous, next);
      recordAudit(transaction, {
        auditClass: AUDIT_CLASS.keyword,
        objectId: previous.id,
        userId: caller.user!.id,
        changes,
        at: now,
      });
    }
    return { id: previous.id, changes };
  });
  await transaction.commit();
  return { keywords: results };
}

/** Every keyword (inactive ones too, flagged), or those asked for; sorted by name. */
export async function findKeywords(query: { ids: number[]; names: string[] }) {
  const keywords = await loadKeywords();
  const references = [...query.ids, ...query.names];
  const selected = references.length === 0 ? keywords : resolveAll(keywords, references);
  return { keywords: [...selected].sort(byKeywordName).map(keywordView) };
}
