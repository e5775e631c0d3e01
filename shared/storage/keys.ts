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

  userPartition: (userId: number): string => `USER#${userId}`,
  user: (userId: number): ItemKey => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** gsi1: every user, ordered by login, for matching and listing. */
  usersIndex: (login: string) => ({ gsi1pk: 'USERS', gsi1sk: login.toLowerCase() }),
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

  group: (groupId: number): ItemKey => ({ pk: `GROUP#${groupId}`, sk: 'GROUP' }),
  /** gsi1: every group, ordered by name. */
  groupsIndex: (name: string) => ({ gsi1pk: 'GROUPS', gsi1sk: name.toLowerCase() }),
  groupNameGuard: (name: string): ItemKey => ({ pk: `GROUPNAME#${name.toLowerCase()}`, sk: 'GROUPNAME' }),

  apiKey: (digest: string): ItemKey => ({ pk: `APIKEY#${digest}`, sk: 'APIKEY' }),
  /** gsi1: a user's API keys, in creation order. */
  apiKeysOfUser: (userId: number, keyId?: number) => ({
    gsi1pk: `USER#${userId}#APIKEYS`,
    gsi1sk: keyId === undefined ? '' : `APIKEY#${padId(keyId)}`,
  }),
  loginToken: (digest: string): ItemKey => ({ pk: `TOKEN#${digest}`, sk: 'TOKEN' }),
  /** gsi1: a user's live login tokens, so disabling an account can end them all. */
  loginTokensOfUser: (userId: number) => ({ gsi1pk: `USER#${userId}#TOKENS`, gsi1sk: 'TOKEN' }),

  loginFailures: (userId: number): ItemKey => ({ pk: `LOGINFAIL#${userId}`, sk: 'LOGINFAIL' }),
  groupMembersIndex: (groupId: number) => `GROUP#${groupId}#MEMBERS`,

  auditEntry: (auditClass: string, at: string, unique: string): ItemKey => ({ pk: `AUDIT#${auditClass}`, sk: `${at}#${unique}` }),
  auditLatestPartition: 'AUDIT',
  auditLatest: (auditClass: string): ItemKey => ({ pk: 'AUDIT', sk: `LATEST#${auditClass}` }),
};

/** Catalogue keys: each kind has a gsi1 listing partition, so one query returns all of it. */
export const catalogKeys = {
  classification: (id: number) => ({ pk: `CLASSIFICATION#${id}`, sk: 'CLASSIFICATION', gsi1pk: 'CLASSIFICATIONS', gsi1sk: padId(id) }),
  classificationNameGuard: (name: string): ItemKey => ({ pk: `CLASSIFICATIONNAME#${name.toLowerCase()}`, sk: 'CLASSIFICATIONNAME' }),
  classificationsIndex: 'CLASSIFICATIONS',

  productPartition: (productId: number) => `PRODUCT#${productId}`,
  product: (id: number) => ({ pk: `PRODUCT#${id}`, sk: 'PRODUCT', gsi1pk: 'PRODUCTS', gsi1sk: `PRODUCT#${padId(id)}` }),
  productNameGuard: (name: string): ItemKey => ({ pk: `PRODUCTNAME#${name.toLowerCase()}`, sk: 'PRODUCTNAME' }),
  productsIndex: 'PRODUCTS',
  component: (productId: number, id: number) => ({
    pk: `PRODUCT#${productId}`,
    sk: `COMPONENT#${padId(id)}`,
    gsi1pk: 'PRODUCTS',
    gsi1sk: `PRODUCT#${padId(productId)}#COMPONENT#${padId(id)}`,
  }),
  componentNameGuard: (productId: number, name: string): ItemKey => ({ pk: `PRODUCT#${productId}`, sk: `COMPONENTNAME#${name.toLowerCase()}` }),
  version: (productId: number, id: number) => ({
    pk: `PRODUCT#${productId}`,
    sk: `VERSION#${padId(id)}`,
    gsi1pk: 'PRODUCTS',
    gsi1sk: `PRODUCT#${padId(productId)}#VERSION#${padId(id)}`,
  }),
  versionNameGuard: (productId: number, name: string): ItemKey => ({ pk: `PRODUCT#${productId}`, sk: `VERSIONNAME#${name.toLowerCase()}` }),
  milestone: (productId: number, id: number) => ({
    pk: `PRODUCT#${productId}`,
    sk: `MILESTONE#${padId(id)}`,
    gsi1pk: 'PRODUCTS',
    gsi1sk: `PRODUCT#${padId(productId)}#MILESTONE#${padId(id)}`,
  }),
  milestoneNameGuard: (productId: number, name: string): ItemKey => ({ pk: `PRODUCT#${productId}`, sk: `MILESTONENAME#${name.toLowerCase()}` }),
  groupControl: (productId: number, groupId: number) => ({
    pk: `PRODUCT#${productId}`,
    sk: `GROUPCONTROL#${padId(groupId)}`,
    gsi1pk: 'PRODUCTS',
    gsi1sk: `PRODUCT#${padId(productId)}#GROUPCONTROL#${padId(groupId)}`,
  }),

  keyword: (id: number) => ({ pk: `KEYWORD#${id}`, sk: 'KEYWORD', gsi1pk: 'KEYWORDS', gsi1sk: padId(id) }),
  keywordNameGuard: (name: string): ItemKey => ({ pk: `KEYWORDNAME#${name.toLowerCase()}`, sk: 'KEYWORDNAME' }),
  keywordsIndex: 'KEYWORDS',

  flagType: (id: number) => ({ pk: `FLAGTYPE#${id}`, sk: 'FLAGTYPE', gsi1pk: 'FLAGTYPES', gsi1sk: padId(id) }),
  flagTypesIndex: 'FLAGTYPES',

  /** Custom field definitions; built-in fields are defined in code (shared/domain/bugFields.ts). */
  field: (name: string) => ({ pk: `FIELD#${name}`, sk: 'FIELD', gsi1pk: 'FIELDS', gsi1sk: name }),
  fieldsIndex: 'FIELDS',
};
