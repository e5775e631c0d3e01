import { flagText } from '../../domain/changeReport.ts';
import { type Caller, inGroup } from '../../domain/identity/caller.ts';
import { generateApiKey, secretDigest } from '../../domain/identity/credentials.ts';
import { EDITUSERS_GROUP } from '../../domain/identity/userView.ts';
import { checkTextLength } from '../../domain/inputLimits.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { targetsOf } from '../../domain/objectTargets.ts';
import { storageTimeToBugzilla, toStorageTime } from '../../domain/time.ts';
import { errors } from '../../errors.ts';
import { allocateId } from '../../storage/counterStore.ts';
import { createApiKey, listApiKeys, updateApiKey } from '../../storage/identity/apiKeyStore.ts';
import { findUserIdByLogin, getUsers, loadUserWithMembership } from '../../storage/identity/userStore.ts';
import { retryOnConflict } from '../../storage/transaction.ts';

/**
 * API keys, Tracker's REST stand-in for Bugzilla's preferences page: a user manages their own
 * keys, editusers manages anyone's. The key is shown once, at creation; only its hash is kept.
 */
async function ownerOf(caller: Caller, idOrName: string): Promise<number> {
  const { ids, names } = targetsOf({ id_or_name: idOrName });
  const userId = ids[0] ?? (await findUserIdByLogin(names[0]));
  if (userId === null || (await getUsers([userId])).length === 0) throw errors.notFoundByNameOrNumber('user', idOrName);
  if (caller.user!.id !== userId && !inGroup(caller, EDITUSERS_GROUP)) {
    throw errors.authorizationRequired("Sorry, you are not authorized to manage another user's API keys.");
  }
  return userId;
}

/** Bugzilla's user_api_keys.description is a varchar(255). */
const MAX_DESCRIPTION_LENGTH = 255;
/** Keys a user may hold, revoked ones included: each is listed on every key listing. */
export const MAX_API_KEYS_PER_USER = 100;

const checkDescription = (description: string | undefined) =>
  checkTextLength((description ?? '').trim(), 'description', MAX_DESCRIPTION_LENGTH);

export async function addApiKey(caller: Caller, idOrName: string, description: string | undefined) {
  const userId = await ownerOf(caller, idOrName);
  const text = checkDescription(description);
  const apiKey = generateApiKey();
  const id = await allocateId('apikey');
  // The count and the new key are written against the user item's revision, so parallel
  // creations cannot together pass the cap. The user item must be read before the keys are
  // listed, never beside them: a revision read after the listing could already include a key the
  // listing missed, and the write would then pass its condition with a stale count.
  return retryOnConflict(async () => {
    const owner = await loadUserWithMembership(userId, { consistent: true });
    const existing = await listApiKeys(userId);
    if (!owner) throw errors.notFoundByNameOrNumber('user', idOrName);
    if (existing.length >= MAX_API_KEYS_PER_USER) {
      throw errors.invalidParameter(
        `A user can have at most ${MAX_API_KEYS_PER_USER} API keys; revoked keys count too.`,
      );
    }
    const now = new Date();
    await createApiKey(
      secretDigest(apiKey),
      { id, userId, description: text, createdAt: toStorageTime(now) },
      {
        auditClass: AUDIT_CLASS.user,
        objectId: userId,
        userId: caller.user!.id,
        changes: { api_key: { removed: '', added: `key ${id} created` } },
        at: now,
      },
      owner.rev,
    );
    return { id, api_key: apiKey };
  });
}

export async function apiKeysOf(caller: Caller, idOrName: string) {
  const userId = await ownerOf(caller, idOrName);
  const keys = (await listApiKeys(userId)).sort((a, b) => a.id - b.id);
  return {
    api_keys: keys.map((key) => ({
      id: key.id,
      description: key.description,
      revoked: key.revoked,
      creation_time: storageTimeToBugzilla(key.createdAt),
      last_used: key.lastUsedAt ? storageTimeToBugzilla(key.lastUsedAt) : null,
    })),
  };
}

/** Re-read and re-applied when another request changed the same items meanwhile (retryOnConflict). */
export function changeApiKey(
  caller: Caller,
  idOrName: string,
  keyId: number,
  changes: { revoked?: boolean; description?: string },
) {
  return retryOnConflict(() => changeApiKeyOnce(caller, idOrName, keyId, changes));
}

async function changeApiKeyOnce(
  caller: Caller,
  idOrName: string,
  keyId: number,
  changes: { revoked?: boolean; description?: string },
) {
  const userId = await ownerOf(caller, idOrName);
  const key = (await listApiKeys(userId)).find((candidate) => candidate.id === keyId);
  if (!key) throw errors.notFound(`The user has no API key with the id ${keyId}.`);
  const reported: Record<string, { removed: string; added: string }> = {};
  if (changes.revoked !== undefined && changes.revoked !== key.revoked) {
    reported.revoked = { removed: flagText(key.revoked), added: flagText(changes.revoked) };
  }
  const description = changes.description === undefined ? undefined : checkDescription(changes.description);
  if (description !== undefined && description !== key.description)
    reported.description = { removed: key.description, added: description };
  if (Object.keys(reported).length > 0) {
    await updateApiKey(
      key.digest,
      key.rev ?? 0,
      {
        revoked: reported.revoked ? changes.revoked : undefined,
        description: reported.description ? description : undefined,
      },
      {
        auditClass: AUDIT_CLASS.user,
        objectId: userId,
        userId: caller.user!.id,
        changes: { [`api_key.${keyId}`]: reported.revoked ?? reported.description! },
        at: new Date(),
      },
    );
  }
  return { api_keys: [{ id: keyId, changes: reported }] };
}
