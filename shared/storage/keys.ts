/**
 * Every key of the single table, in one place: the storage adapters are the only code that
 * imports this. docs/data-model.md explains each item collection and access pattern.
 */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** Ids in sort keys are zero-padded so that string order is numeric order. */
export const padId = (id: number): string => String(id).padStart(10, '0');

export const keys = {
  counter: (kind: string): ItemKey => ({ pk: 'COUNTER', sk: kind }),

  installation: (): ItemKey => ({ pk: 'INSTANCE', sk: 'INSTALLATION' }),
  parameters: (): ItemKey => ({ pk: 'INSTANCE', sk: 'PARAMETERS' }),
  /** The catalogue cache's version stamp (catalogCache.ts). */
  catalogStamp: (): ItemKey => ({ pk: 'INSTANCE', sk: 'CATALOG' }),
  /** What an import from a Bugzilla brought so far (importStateStore.ts). */
  importState: (): ItemKey => ({ pk: 'INSTANCE', sk: 'IMPORT' }),

  userPartition: (userId: number): string => `USER#${userId}`,
  user: (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** gsi1: every user, ordered by login, for matching and listing. */
  usersIndex: (login: string) => ({ gsi1pk: 'USERS', gsi1sk: login.toLowerCase() }),
  /** A person's mail preferences (userprefs.cgi tab=email): absent means Bugzilla's defaults. */
  mailSettings: (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'MAILPREFS' }),
  /** Who watches a person (Bugzilla's `watch` table, by the watched): a number set. */
  watchers: (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'WATCHERS' }),
  loginGuard: (login: string): ItemKey => ({ pk: `LOGIN#${login.toLowerCase()}`, sk: 'LOGIN' }),
  membershipPrefix: 'MEMBER#',
  blessPrefix: 'BLESS#',
  membership: (userId: number, groupId: number) => ({
    pk: `USER#${userId}`,
    sk: `MEMBER#${padId(groupId)}`,
    gsi1pk: `GROUP#${groupId}#MEMBERS`,
    gsi1sk: `USER#${padId(userId)}`,
  }),
  blessRight: (userId: number, groupId: number) => ({
    pk: `USER#${userId}`,
    sk: `BLESS#${padId(groupId)}`,
    gsi1pk: `GROUP#${groupId}#BLESSERS`,
    gsi1sk: `USER#${padId(userId)}`,
  }),

  /** Every group in one base-table partition, read with one consistent Query (see catalogKeys). */
  groupsPartition: 'GROUPS',
  group: (groupId: number): ItemKey => ({ pk: 'GROUPS', sk: `GROUP#${padId(groupId)}` }),
  groupNameGuard: (name: string): ItemKey => ({ pk: `GROUPNAME#${name.toLowerCase()}`, sk: 'GROUPNAME' }),

  apiKey: (digest: string): ItemKey => ({ pk: `APIKEY#${digest}`, sk: 'APIKEY' }),
  /** A pointer from the owner's partition to each key, so a user's keys are listed consistently. */
  apiKeyReference: (userId: number, keyId: number): ItemKey => ({
    pk: `USER#${userId}`,
    sk: `APIKEYREF#${padId(keyId)}`,
  }),
  apiKeyReferencePrefix: 'APIKEYREF#',
  loginToken: (digest: string): ItemKey => ({ pk: `TOKEN#${digest}`, sk: 'TOKEN' }),
  /** gsi1: a user's live login tokens, so disabling an account can end them all. */
  loginTokensOfUser: (userId: number) => ({ gsi1pk: `USER#${userId}#TOKENS`, gsi1sk: 'TOKEN' }),

  /** A mailed account token (accountTokenStore.ts), by the SHA-256 digest of the token. */
  accountToken: (digest: string): ItemKey => ({ pk: `ACCTOKEN#${digest}`, sk: 'ACCTOKEN' }),
  /** When a token of one kind was last mailed to an address (by the address's digest). */
  accountMailToAddress: (kind: string, addressDigest: string): ItemKey => ({
    pk: `ACCTHROTTLE#${kind}#${addressDigest}`,
    sk: 'ADDRESS',
  }),
  /** How many account mails one client address asked for in one window. */
  accountMailFromClient: (source: string, window: number): ItemKey => ({
    pk: `ACCTHROTTLE#CLIENT#${source}`,
    sk: `WINDOW#${window}`,
  }),
  /** A started single sign-on, under its state's digest (singleSignOn.ts); TTL `expiresAt`, deleted when finished. */
  signInState: (digest: string): ItemKey => ({ pk: `SIGNIN#${digest}`, sk: 'SIGNIN' }),

  /** One item per account and client address (loginThrottle.ts `failureSource`). */
  loginFailures: (userId: number, source: string): ItemKey => ({ pk: `LOGINFAIL#${userId}`, sk: `FROM#${source}` }),
  groupMembersIndex: (groupId: number) => `GROUP#${groupId}#MEMBERS`,

  auditEntry: (auditClass: string, at: string, unique: string): ItemKey => ({
    pk: `AUDIT#${auditClass}`,
    sk: `${at}#${unique}`,
  }),
  /**
   * gsi1: the audit entries of one object, newest last by sort key (a user's account history).
   * Written on every entry since this index was added; entries written before are not in it.
   */
  auditOfObject: (auditClass: string, objectId: number | string, at: string, unique: string) => ({
    gsi1pk: `AUDIT#${auditClass}#${objectId}`,
    gsi1sk: `${at}#${unique}`,
  }),
  auditOfObjectIndex: (auditClass: string, objectId: number | string) => `AUDIT#${auditClass}#${objectId}`,
  auditLatestPartition: 'AUDIT',
  auditLatest: (auditClass: string): ItemKey => ({ pk: 'AUDIT', sk: `LATEST#${auditClass}` }),
};

/**
 * Bug keys: each bug is one item collection (`BUG#<id>`) holding the bug, its comments and its
 * history; guards and pointers that must be found without knowing the bug live in their own
 * partitions. docs/data-model.md §3.
 */
export const bugKeys = {
  bug: (bugId: number): ItemKey => ({ pk: `BUG#${bugId}`, sk: 'BUG' }),
  /** gsi2: the bugs of a component, so a component with bugs cannot be deleted. */
  componentIndex: (componentId: number, bugId: number) => ({
    gsi2pk: `COMPONENT#${componentId}`,
    gsi2sk: padId(bugId),
  }),
  componentIndexPartition: (componentId: number) => `COMPONENT#${componentId}`,
  comment: (bugId: number, count: number): ItemKey => ({ pk: `BUG#${bugId}`, sk: `COMMENT#${padId(count)}` }),
  commentPrefix: 'COMMENT#',
  /** Global comment id → its bug and position, read strongly consistent (an index would lag). */
  commentPointer: (commentId: number): ItemKey => ({ pk: `COMMENT#${commentId}`, sk: 'COMMENT' }),
  /** History entries sort by time; the suffix keeps two writes of one millisecond apart. */
  history: (bugId: number, at: string, unique: string): ItemKey => ({
    pk: `BUG#${bugId}`,
    sk: `HISTORY#${at}#${unique}`,
  }),
  historyPrefix: 'HISTORY#',
  /** The bug whose item collection a partition key names (`BUG#<id>`), or null for any other partition. */
  bugIdOfPartition: (pk: string): number | null => {
    const match = /^BUG#(\d+)$/.exec(pk);
    return match ? Number(match[1]) : null;
  },
  aliasGuard: (alias: string): ItemKey => ({ pk: `ALIAS#${alias.toLowerCase()}`, sk: 'ALIAS' }),
  /** A user's last visits live in the user's partition, so the listing is one consistent Query. */
  lastVisit: (userId: number, bugId: number): ItemKey => ({ pk: `USER#${userId}`, sk: `LASTVISIT#${padId(bugId)}` }),
  lastVisitPrefix: 'LASTVISIT#',
};

/**
 * Attachments and comment tags (docs/data-model.md §3). An attachment's metadata, with its flags,
 * is one item in its bug's collection; its body is one S3 object.
 */
export const attachmentKeys = {
  attachment: (bugId: number, attachmentId: number): ItemKey => ({
    pk: `BUG#${bugId}`,
    sk: `ATTACHMENT#${padId(attachmentId)}`,
  }),
  attachmentPrefix: 'ATTACHMENT#',
  /** Global attachment id → its bug, read strongly consistent. */
  attachmentPointer: (attachmentId: number): ItemKey => ({ pk: `ATTACHMENT#${attachmentId}`, sk: 'ATTACHMENT' }),
  /** Where the body lives in the bucket. */
  bodyKey: (bugId: number, attachmentId: number): string => `attachments/${bugId}/${attachmentId}`,
  bodyPrefix: 'attachments/',
  /** Every comment tag in use, with how many comments carry it (Bugzilla's longdescs_tags_weights). */
  commentTagsPartition: 'COMMENTTAGS',
  commentTag: (tag: string): ItemKey => ({ pk: 'COMMENTTAGS', sk: tag.toLowerCase() }),
};

/**
 * The search index's items (docs/data-model.md §8.7): the change log, one partition per hour
 * (`SEARCHLOG#<yyyy-mm-ddThh>`), sorted by commit stamp, so a catch-up is one consistent Query of
 * the current hour (two across an hour boundary); and the snapshot, gzip chunks of one generation
 * under a pointer item that names the current generation.
 */
export const searchKeys = {
  logPartition: (hour: string): string => `SEARCHLOG#${hour}`,
  logEntry: (at: string, bugId: number, rev: number): ItemKey => ({
    pk: `SEARCHLOG#${at.slice(0, 13)}`,
    sk: `${at}#${padId(bugId)}#${padId(rev)}`,
  }),
  /** "Reload from this snapshot": an importer's notice in the change log, after its bug entries' form. */
  snapshotNotice: (at: string, generation: string): ItemKey => ({
    pk: `SEARCHLOG#${at.slice(0, 13)}`,
    sk: `${at}#SNAPSHOT#${generation}`,
  }),
  snapshotPointer: (): ItemKey => ({ pk: 'SEARCHSNAPSHOT', sk: 'CURRENT' }),
  snapshotPartition: (generation: string): string => `SEARCHSNAPSHOT#${generation}`,
  snapshotChunk: (generation: string, chunk: number): ItemKey => ({
    pk: `SEARCHSNAPSHOT#${generation}`,
    sk: `CHUNK#${String(chunk).padStart(5, '0')}`,
  }),
  /** Bucket objects of snapshots (docs/data-model.md §8.7): one per compressed frame. */
  snapshotObjectPrefix: 'search-snapshots/',
  snapshotObjects: (generation: string): string => `search-snapshots/${generation}/`,
  snapshotFrame: (generation: string, part: string, frame: number): string =>
    `search-snapshots/${generation}/${part}/${String(frame).padStart(5, '0')}`,
};

/**
 * Saved searches (Bugzilla's namedqueries, docs/data-model.md): each in its owner's partition
 * under its lowercased name, so a name is unique per person whatever its case (a conditional Put)
 * and a search is run by name with one consistent read; one shared with a group is also in that
 * group's gsi1 partition (namedquery_group_map), for the lists of those who may run it.
 */
export const savedSearchKeys = {
  savedSearch: (ownerId: number, name: string): ItemKey => ({
    pk: `USER#${ownerId}`,
    sk: `SAVEDSEARCH#${name.toLowerCase()}`,
  }),
  savedSearchPrefix: 'SAVEDSEARCH#',
  sharedWith: (groupId: number, ownerId: number, name: string) => ({
    gsi1pk: `GROUP#${groupId}#SAVEDSEARCHES`,
    gsi1sk: `${padId(ownerId)}#${name.toLowerCase()}`,
  }),
  sharedWithPartition: (groupId: number): string => `GROUP#${groupId}#SAVEDSEARCHES`,
};

/**
 * Catalogue keys. Each kind lives in one base-table partition (`PRODUCTS`, `GROUPS`, ...), so one
 * strongly consistent Query returns all of it: a script that creates a product and then its first
 * component, or a group and then its first member, always sees what it just wrote (a GSI would
 * lag behind). These partitions stay small: they are the configuration, not the bugs.
 */
export const catalogKeys = {
  classificationsPartition: 'CLASSIFICATIONS',
  classification: (id: number): ItemKey => ({ pk: 'CLASSIFICATIONS', sk: `CLASSIFICATION#${padId(id)}` }),
  classificationNameGuard: (name: string): ItemKey => ({
    pk: `CLASSIFICATIONNAME#${name.toLowerCase()}`,
    sk: 'CLASSIFICATIONNAME',
  }),

  /** A product and everything hanging off it sort together: `PRODUCT#<id>`, `PRODUCT#<id>#COMPONENT#<id>`, ... */
  productsPartition: 'PRODUCTS',
  product: (id: number): ItemKey => ({ pk: 'PRODUCTS', sk: `PRODUCT#${padId(id)}` }),
  productNameGuard: (name: string): ItemKey => ({ pk: `PRODUCTNAME#${name.toLowerCase()}`, sk: 'PRODUCTNAME' }),
  component: (productId: number, id: number): ItemKey => ({
    pk: 'PRODUCTS',
    sk: `PRODUCT#${padId(productId)}#COMPONENT#${padId(id)}`,
  }),
  componentNameGuard: (productId: number, name: string): ItemKey => ({
    pk: `PRODUCT#${productId}`,
    sk: `COMPONENTNAME#${name.toLowerCase()}`,
  }),
  version: (productId: number, id: number): ItemKey => ({
    pk: 'PRODUCTS',
    sk: `PRODUCT#${padId(productId)}#VERSION#${padId(id)}`,
  }),
  versionNameGuard: (productId: number, name: string): ItemKey => ({
    pk: `PRODUCT#${productId}`,
    sk: `VERSIONNAME#${name.toLowerCase()}`,
  }),
  milestone: (productId: number, id: number): ItemKey => ({
    pk: 'PRODUCTS',
    sk: `PRODUCT#${padId(productId)}#MILESTONE#${padId(id)}`,
  }),
  milestoneNameGuard: (productId: number, name: string): ItemKey => ({
    pk: `PRODUCT#${productId}`,
    sk: `MILESTONENAME#${name.toLowerCase()}`,
  }),
  groupControl: (productId: number, groupId: number): ItemKey => ({
    pk: 'PRODUCTS',
    sk: `PRODUCT#${padId(productId)}#GROUPCONTROL#${padId(groupId)}`,
  }),

  keywordsPartition: 'KEYWORDS',
  keyword: (id: number): ItemKey => ({ pk: 'KEYWORDS', sk: `KEYWORD#${padId(id)}` }),
  keywordNameGuard: (name: string): ItemKey => ({ pk: `KEYWORDNAME#${name.toLowerCase()}`, sk: 'KEYWORDNAME' }),

  flagTypesPartition: 'FLAGTYPES',
  flagType: (id: number): ItemKey => ({ pk: 'FLAGTYPES', sk: `FLAGTYPE#${padId(id)}` }),

  /** Custom field definitions (the key is also the name's uniqueness guard); built-in fields are code (bugFields.ts). */
  fieldsPartition: 'FIELDS',
  field: (name: string): ItemKey => ({ pk: 'FIELDS', sk: `FIELD#${name}` }),

  /**
   * The installation's legal values of the built-in drop-down fields (one item per field it
   * changed, the values inside) and its bug workflow (one item); absent items: the defaults.
   */
  fieldValuesPartition: 'FIELDVALUES',
  fieldValues: (field: string): ItemKey => ({ pk: 'FIELDVALUES', sk: `VALUES#${field}` }),
  workflow: (): ItemKey => ({ pk: 'FIELDVALUES', sk: 'WORKFLOW' }),
};

/**
 * What the notification publisher has delivered of a bug change (shared/storage/notification/
 * deliveryLog.ts): one marker per mail, event or webhook delivery, in the bug's own partition
 * `NOTIFIED#<bugId>`, sorted by the change's revision, so one Query reads every marker of a change.
 */
export const notificationKeys = {
  deliveryPartition: (bugId: number): string => `NOTIFIED#${bugId}`,
  deliveryPrefix: (rev: number): string => `${padId(rev)}#`,
  delivery: (bugId: number, rev: number, channel: string, digest: string): ItemKey => ({
    pk: `NOTIFIED#${bugId}`,
    sk: `${padId(rev)}#${channel}#${digest}`,
  }),
};
