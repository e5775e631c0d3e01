import { DEFAULT_CLASSIFICATION, DEFAULT_VERSION, PLACEHOLDER_MILESTONE } from '../../domain/catalog/catalog.ts';
import { DEFAULT_TRANSITIONS, defaultValues, VALUE_FIELDS } from '../../domain/catalog/fieldValues.ts';
import { generateApiKey, hashPassword, secretDigest } from '../../domain/identity/credentials.ts';
import { regexpMembersOf } from '../../domain/identity/groupRegexps.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { type AdminAccount, SYSTEM_GROUPS } from '../../domain/instance/installation.ts';
import { DEFAULT_PARAMETERS } from '../../domain/instance/parameters.ts';
import { toStorageTime } from '../../domain/time.ts';
import { saveBackfillState } from '../../storage/bug/privateAttachmentsBackfillStore.ts';
import { putFieldValues, putWorkflow } from '../../storage/catalog/fieldValueStore.ts';
import {
  putNewClassification,
  putNewComponent,
  putNewProduct,
  putNewProductValue,
} from '../../storage/catalog/productStore.ts';
import { allocateId, allocateIds } from '../../storage/counterStore.ts';
import { putNewApiKey } from '../../storage/identity/apiKeyStore.ts';
import { addRegexpMembersUpdate, listGroups, putNewGroup } from '../../storage/identity/groupStore.ts';
import { putMembership, putNewUser } from '../../storage/identity/userStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { isInstalled, putInstallationMarker } from '../../storage/instance/installationStore.ts';
import { initialiseParameters } from '../../storage/instance/parameterStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';
import { everyUserToDeriveFrom } from '../identity/groups.ts';
import { writeEmptySearchSnapshot } from '../search/searchCompactor.ts';

export interface BootstrapOptions {
  adminLogin: string;
  adminRealName?: string;
  /** Generated when absent; returned once so the caller can show it. */
  adminPassword?: string;
  adminApiKey?: string;
  urlbase?: string;
}

export type BootstrapResult = { created: false } | { created: true; admin: AdminAccount; adminId: number };

class AlreadyInstalled extends Error {}

/** Bugzilla's new-installation catalogue: classification Unclassified and the demo TestProduct. */
function seedCatalogue(
  transaction: WriteTransaction,
  now: Date,
  adminId: number,
  ids: { classificationId: number; productId: number; componentId: number; versionId: number; milestoneId: number },
): void {
  const { classificationId, productId, componentId, versionId, milestoneId } = ids;
  putNewClassification(transaction, {
    id: classificationId,
    name: DEFAULT_CLASSIFICATION,
    description: 'Not assigned to any classification',
    sortKey: 0,
  });
  putNewProduct(transaction, {
    id: productId,
    name: 'TestProduct',
    description:
      'This is a test product. This ought to be blown away and replaced with real stuff in a finished installation of Tracker.',
    isActive: true,
    defaultBugType: DEFAULT_PARAMETERS.default_bug_type,
    defaultMilestone: PLACEHOLDER_MILESTONE,
    hasUnconfirmed: true,
    classificationId,
  });
  putNewComponent(transaction, {
    id: componentId,
    productId,
    name: 'TestComponent',
    description:
      'This is a test component in the test product database. This ought to be blown away and replaced with real stuff in a finished installation of Tracker.',
    defaultAssigneeId: adminId,
    defaultQaContactId: null,
    triageOwnerId: null,
    defaultCcIds: [],
    defaultBugType: '',
    sortKey: 0,
    isActive: true,
  });
  putNewProductValue(transaction, 'version', {
    id: versionId,
    productId,
    name: DEFAULT_VERSION,
    sortKey: 0,
    isActive: true,
  });
  putNewProductValue(transaction, 'milestone', {
    id: milestoneId,
    productId,
    name: PLACEHOLDER_MILESTONE,
    sortKey: 0,
    isActive: true,
  });
  const created = (auditClass: string, objectId: number, name: string) =>
    recordAudit(transaction, {
      auditClass,
      objectId,
      userId: null,
      changes: { __create__: { removed: '', added: name } },
      at: now,
    });
  created(AUDIT_CLASS.classification, classificationId, DEFAULT_CLASSIFICATION);
  created(AUDIT_CLASS.product, productId, 'TestProduct');
  created(AUDIT_CLASS.component, componentId, 'TestProduct: TestComponent');
  created(AUDIT_CLASS.version, versionId, DEFAULT_VERSION);
  created(AUDIT_CLASS.milestone, milestoneId, PLACEHOLDER_MILESTONE);
}

/**
 * Creates a new installation in one transaction: system groups, the administrator with a
 * password and an API key, the default parameters, Bugzilla's demo catalogue and their audit entries. Idempotent: an
 * installed table is left alone (every deploy and every `npm start` calls this).
 */
export async function bootstrapInstallation(options: BootstrapOptions): Promise<BootstrapResult> {
  if (await isInstalled()) {
    await deriveMissingRegexpMembers();
    return { created: false };
  }

  const now = new Date();
  const at = toStorageTime(now);
  const admin: AdminAccount = {
    login: options.adminLogin,
    realName: options.adminRealName ?? 'Tracker Administrator',
    password: options.adminPassword ?? generateApiKey().slice(0, 16),
    apiKey: options.adminApiKey ?? generateApiKey(),
  };
  const [groupIds, adminId, apiKeyId, classificationId, productId, componentId, versionId, milestoneId] =
    await Promise.all([
      allocateIds('group', SYSTEM_GROUPS.length),
      allocateId('user'),
      allocateId('apikey'),
      allocateId('classification'),
      allocateId('product'),
      allocateId('component'),
      allocateId('version'),
      allocateId('milestone'),
    ]);

  const transaction = new WriteTransaction();
  putInstallationMarker(transaction, at, () => new AlreadyInstalled());
  SYSTEM_GROUPS.forEach((group, index) => {
    const id = groupIds[index];
    putNewGroup(transaction, {
      id,
      name: group.name,
      description: group.description,
      isBugGroup: false,
      userRegexp: group.userRegexp ?? '',
      regexpMembers: regexpMembersOf(group.userRegexp ?? '', [{ id: adminId, login: admin.login }]),
      isActive: true,
      iconUrl: '',
    });
    recordAudit(transaction, {
      auditClass: AUDIT_CLASS.group,
      objectId: id,
      userId: null,
      changes: { __create__: { removed: '', added: group.name } },
      at: now,
    });
  });
  const adminGroupId = groupIds[SYSTEM_GROUPS.findIndex((group) => group.name === 'admin')];
  putNewUser(transaction, {
    id: adminId,
    login: admin.login,
    realName: admin.realName,
    passwordHash: await hashPassword(admin.password),
    createdAt: at,
    memberOf: [adminGroupId],
  });
  putMembership(transaction, adminId, adminGroupId);
  putNewApiKey(transaction, secretDigest(admin.apiKey), {
    id: apiKeyId,
    userId: adminId,
    description: 'Bootstrap key',
    createdAt: at,
  });
  recordAudit(transaction, {
    auditClass: AUDIT_CLASS.user,
    objectId: adminId,
    userId: null,
    changes: { __create__: { removed: '', added: admin.login } },
    at: now,
  });
  seedCatalogue(transaction, now, adminId, { classificationId, productId, componentId, versionId, milestoneId });
  // The built-in fields' legal values and the workflow, as data administrators may change.
  for (const field of VALUE_FIELDS) putFieldValues(transaction, field, defaultValues(field));
  putWorkflow(transaction, DEFAULT_TRANSITIONS);
  initialiseParameters(transaction, {
    ...DEFAULT_PARAMETERS,
    maintainer: admin.login,
    urlbase: options.urlbase ?? DEFAULT_PARAMETERS.urlbase,
  });

  try {
    await transaction.commit();
  } catch (error) {
    if (error instanceof AlreadyInstalled) return { created: false };
    throw error;
  }
  // An empty search snapshot: this installation's change log holds every bug from its first one,
  // so the search index never needs a table scan (docs/data-model.md §8.7).
  await writeEmptySearchSnapshot();
  // No bug was stored before bugs listed their private attachments: nothing to backfill (privateActivityBackfill.ts).
  await saveBackfillState({ done: true });
  return { created: true, admin, adminId };
}

/**
 * Groups stored before regexp members were kept on the group have a user_regexp but no members
 * derived from it (GroupSummary.regexpMembers): derive them once, at the next deploy or start.
 */
async function deriveMissingRegexpMembers(): Promise<void> {
  await retryOnConflict(async () => {
    const pending = (await listGroups()).filter(
      (group) => group.userRegexp !== '' && group.regexpMembers === undefined,
    );
    if (pending.length === 0) return;
    const transaction = new WriteTransaction();
    const users = await everyUserToDeriveFrom(transaction);
    for (const group of pending) addRegexpMembersUpdate(transaction, group, regexpMembersOf(group.userRegexp, users));
    await transaction.commit();
  });
}
