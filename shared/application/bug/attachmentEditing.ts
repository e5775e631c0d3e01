/**
 * What creating and changing attachments share: the flag rules for a bug, the flag history line,
 * the optional comment's text and the right to edit the bug and its attachments.
 */

import type { Attachment } from '../../domain/bug/attachment.ts';
import type { Bug, BugFlag } from '../../domain/bug/bug.ts';
import { MAX_COMMENT_LENGTH } from '../../domain/bug/bug.ts';
import { hasEditBugs, mayEditProductBugs } from '../../domain/bug/bugAccess.ts';
import { listChange } from '../../domain/bug/bugChanges.ts';
import { type FlagRules, flagLabel } from '../../domain/bug/bugFlags.ts';
import { appliesTo, type FlagType } from '../../domain/catalog/flagTypes.ts';
import { type Caller, inGroup, type UserAccount } from '../../domain/identity/caller.ts';
import { characterCount } from '../../domain/inputLimits.ts';
import { errors } from '../../errors.ts';
import { groupNameIn } from '../catalog/catalogContext.ts';
import { type BugCatalog, type Requestees, usersById } from './bugContext.ts';

type Catalog = BugCatalog['catalog'];

/**
 * The flag rules for the bug's own flags (`'bug'`) or for an attachment's, given the attachment
 * as this request leaves it: a requestee must see the bug and, if it is private, the attachment.
 */
export function flagRules(
  caller: Caller & { user: UserAccount },
  catalog: Catalog,
  bug: Bug,
  target: 'bug' | Pick<Attachment, 'id' | 'isPrivate'>,
  requestees: Requestees,
  now: string,
  nextFlagId: () => number,
): { rules: FlagRules; allTypes: FlagType[] } {
  const ofTarget = catalog.flagTypes.filter((type) => type.targetType === (target === 'bug' ? 'bug' : 'attachment'));
  const groupName = groupNameIn(catalog);
  return {
    rules: {
      types: ofTarget.filter((type) => appliesTo(type, bug.productId, bug.componentId)),
      callerId: caller.user.id,
      inGroupId: (groupId: number) => inGroup(caller, groupName(groupId) ?? ''),
      userIdOf: (login: string) => requestees.userIds.get(login.trim().toLowerCase()),
      requestees: {
        bug,
        ...(target === 'bug' ? {} : { attachment: { id: target.id, isPrivate: target.isPrivate } }),
        requestee: (userId: number) => requestees.callers.get(userId),
        groupName,
        parameters: catalog.parameters,
      },
      now,
      nextFlagId,
    },
    allTypes: ofTarget,
  };
}

/** Bugzilla's `flagtypes.name` change: the labels of the flags that went and that came. */
export function flagChange(
  before: readonly BugFlag[],
  after: readonly BugFlag[],
  typeName: (id: number) => string,
  login: (id: number) => string,
): { removed: string; added: string } | undefined {
  const label = (flag: BugFlag) => flagLabel(flag, typeName, login);
  return listChange(before.map(label), after.map(label));
}

/** Logins of everyone a set of flags names, plus the ones the request named. */
export async function loginLookup(
  flags: readonly BugFlag[],
  named: ReadonlyMap<string, number>,
): Promise<(id: number) => string> {
  const byId = new Map<number, string>([...named].map(([login, id]) => [id, login]));
  const missing = [
    ...new Set(
      flags
        .flatMap((flag) => [flag.setterId, flag.requesteeId])
        .filter((id): id is number => id !== null && !byId.has(id)),
    ),
  ];
  if (missing.length > 0) for (const [id, user] of await usersById(missing)) byId.set(id, user.login);
  return (id: number) => byId.get(id) ?? '';
}

export function commentTextInput(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw errors.commentNotText();
  if (characterCount(value) > MAX_COMMENT_LENGTH) throw errors.commentOverLength(MAX_COMMENT_LENGTH);
  return value;
}

export function assertMayEditBug(caller: Caller, catalog: Catalog, bug: Bug): void {
  const record = catalog.products.find((candidate) => candidate.product.id === bug.productId);
  if (!record || !mayEditProductBugs(caller, record, groupNameIn(catalog)))
    throw errors.bugEditDenied(`You are not allowed to change bug ${bug.id}.`);
}

export const editsAnyField = (caller: Caller, catalog: Catalog, bug: Bug): boolean => {
  const record = catalog.products.find((candidate) => candidate.product.id === bug.productId);
  return !!record && hasEditBugs(caller, record, groupNameIn(catalog));
};
