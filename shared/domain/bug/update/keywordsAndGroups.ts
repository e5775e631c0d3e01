import { errors } from '../../../errors.ts';
import { sortedIds } from '../bug.ts';
import { applyListChange, parseListChange } from '../bugFieldRules.ts';
import { productGroupRules } from '../bugGroups.ts';
import type { BugUpdateContext } from './updateContext.ts';

/** Keywords by name; an inactive one may stay on the bug, not be added. */
export function applyKeywords({ env, input, current, next, names }: BugUpdateContext): void {
  if (input.keywords === undefined) return;
  const change = parseListChange('keywords', input.keywords, (name) => {
    const text = String(name).trim();
    const keyword = env.keywords.find((candidate) => candidate.name.toLowerCase() === text.toLowerCase());
    if (!keyword) throw errors.notFoundByName('keyword', text);
    return keyword.id;
  });
  for (const id of [...change.add, ...(change.set ?? [])]) {
    if (!env.keywords.find((keyword) => keyword.id === id)?.isActive && !current.keywordIds.includes(id))
      throw errors.notFound(`The keyword ${names.keyword(id)} is inactive.`);
  }
  next.keywordIds = sortedIds(applyListChange(next.keywordIds, change));
}

/**
 * Bug groups, by the product's group controls and the caller's membership: a group the caller
 * may not restrict bugs to cannot be added, a mandatory one cannot be removed (bugGroups.ts).
 */
export function applyGroups({ env, input, record, oldRecord, next, names, bugId }: BugUpdateContext): void {
  if (input.groups === undefined) return;
  const rules = productGroupRules(env.caller, record, env.groups);
  const change = parseListChange('groups', input.groups, (name) => rules.resolve(String(name)));
  const wanted = applyListChange(next.groupIds, change);
  const productChanged = record.product.id !== oldRecord.product.id;
  for (const groupId of wanted.filter((id) => !next.groupIds.includes(id))) {
    if (rules.refusesAdding(groupId, productChanged) !== null)
      throw errors.bugGroupNotAllowed(names.group(groupId), record.product.name, bugId);
  }
  for (const groupId of next.groupIds.filter((id) => !wanted.includes(id))) {
    const why = rules.refusesRemoving(groupId, productChanged);
    if (why !== null) throw errors.bugGroupRemovalNotAllowed(names.group(groupId), record.product.name, bugId, why);
  }
  next.groupIds = sortedIds(wanted);
}
