import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BugFlag } from '../../shared/domain/bug/bug.ts';
import { toAttachment, toComment, toStoredBugItem } from '../../shared/storage/bug/bugItems.ts';
import {
  toClassification,
  toComponent,
  toCustomField,
  toGroupControl,
  toProduct,
  toProductValue,
} from '../../shared/storage/catalog/catalogItems.ts';
import { dynamoClientConfig } from '../../shared/storage/dynamoClient.ts';
import { toSnapshotPointer } from '../../shared/storage/search/searchIndexStore.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * Stored items are parsed into domain types, not cast (shared/storage/itemParsing.ts): each kind
 * of item comes back as its domain object without its keys, and an item that lacks a field or
 * holds the wrong type is refused with the registry's 32000 naming the kind and the key, and
 * logged, instead of travelling on as a domain object it is not.
 */
const flag: BugFlag = {
  id: 9,
  typeId: 3,
  status: '?',
  setterId: 12,
  requesteeId: null,
  creationDate: '2025-03-01T10:00:00Z',
  modificationDate: '2025-03-01T10:00:00Z',
};

// A bug with something in each kind of field the schema checks: lists, a flag, the optional
// private counts, custom fields and personal tags (the rest as test/unit/support/bugFixtures.ts).
const bug = plainBug(7, {
  assigneeId: 12,
  reporterId: 12,
  ccIds: [12, 40],
  dependsOn: [5],
  flags: [flag],
  privateCommentCount: 0,
  privateAttachments: [],
  custom: { cf_fixed_in: '---' },
  tags: { 12: ['triage'] },
});

const comment = {
  id: 70,
  bugId: 7,
  count: 0,
  creatorId: 12,
  creationTime: '2025-02-27T09:14:03Z',
  rawText: 'Steps.',
  isPrivate: false,
  isMarkdown: false,
  workTime: 0,
  attachmentId: null,
  tags: [],
};

const attachment = {
  id: 5,
  bugId: 7,
  fileName: 'crash.log',
  summary: 'Crash log',
  contentType: 'text/plain',
  size: 4,
  isPatch: false,
  isPrivate: false,
  isObsolete: false,
  creatorId: 12,
  creationTime: '2025-02-27T09:20:00Z',
  lastChangeTime: '2025-02-27T09:20:00Z',
  sha256: 'ab',
  bodyKey: 'attachments/7/5',
  creationCommentCount: 1,
  flags: [{ ...flag, status: '+' }],
};

const product = {
  id: 1,
  name: 'TestProduct',
  description: 'For tests',
  isActive: true,
  defaultBugType: 'defect',
  defaultMilestone: '---',
  hasUnconfirmed: true,
  classificationId: 1,
};

const component = {
  id: 2,
  productId: 1,
  name: 'Core',
  description: 'The core',
  defaultAssigneeId: 12,
  defaultQaContactId: null,
  triageOwnerId: null,
  defaultCcIds: [40],
  defaultBugType: 'defect',
  sortKey: 0,
  isActive: true,
};

const groupControl = {
  productId: 1,
  groupId: 8,
  entry: false,
  memberControl: 'SHOWN',
  otherControl: 'NA',
  canEdit: false,
  editComponents: false,
  editBugs: false,
  canConfirm: false,
};

const snapshotPointer = {
  generation: 'g1',
  sequence: 2,
  chunks: 1,
  highWater: 1000,
  bugCount: 3,
  writtenAt: '2025-03-01T10:00:00.000Z',
  parts: [{ name: 'core', objects: 1 }],
  // The generation the next write deletes: a parse that dropped it left old frames behind.
  previous: 'g0',
};

const customField = {
  id: 1001,
  name: 'cf_fixed_in',
  displayName: 'Fixed in',
  isMandatory: false,
  isOnBugEntry: true,
  visibilityField: null,
  visibilityValues: [],
  valueField: null,
  sortKey: 0,
  isObsolete: false,
  values: [{ name: '---', sortKey: 0, visibilityValues: [] }],
};

interface Case {
  kind: string;
  parse: (item: Record<string, unknown>) => unknown;
  /** The item as stored: keys, `type` and attributes that are no part of the domain object included. */
  item: Record<string, unknown>;
  parsed: unknown;
  /** The same item broken in one attribute. */
  broken: Record<string, unknown>;
}

const keyed = (pk: string, sk: string, type: string, rest: Record<string, unknown>) => ({ pk, sk, type, ...rest });

const cases: Case[] = [
  {
    kind: 'bug',
    parse: toStoredBugItem,
    item: keyed('BUG#7', 'BUG', 'bug', { ...bug, rev: 4, gsi2pk: 'COMPONENT#2', gsi2sk: '0000000007', importRev: 4 }),
    parsed: { bug, rev: 4 },
    broken: keyed('BUG#7', 'BUG', 'bug', { ...bug, assigneeId: 'nobody@example.com', rev: 4 }),
  },
  {
    kind: 'comment',
    parse: toComment,
    item: keyed('BUG#7', 'COMMENT#0000000000', 'comment', comment),
    parsed: comment,
    broken: keyed('BUG#7', 'COMMENT#0000000000', 'comment', { ...comment, rawText: undefined }),
  },
  {
    kind: 'attachment',
    parse: toAttachment,
    item: keyed('BUG#7', 'ATTACHMENT#0000000005', 'attachment', attachment),
    parsed: attachment,
    broken: keyed('BUG#7', 'ATTACHMENT#0000000005', 'attachment', { ...attachment, flags: [{ ...flag, status: 'x' }] }),
  },
  {
    kind: 'classification',
    parse: toClassification,
    item: keyed('CLASSIFICATIONS', 'CLASSIFICATION#0000000001', 'classification', {
      id: 1,
      name: 'Unclassified',
      description: '',
      sortKey: 0,
      rev: 2,
    }),
    parsed: { id: 1, name: 'Unclassified', description: '', sortKey: 0, rev: 2 },
    broken: keyed('CLASSIFICATIONS', 'CLASSIFICATION#0000000001', 'classification', { id: 1, name: 'Unclassified' }),
  },
  {
    kind: 'product',
    parse: toProduct,
    // productId is the partition's own attribute on every catalogue item; a product leaves it out.
    item: keyed('PRODUCTS', 'PRODUCT#0000000001', 'product', { ...product, productId: 1 }),
    parsed: product,
    broken: keyed('PRODUCTS', 'PRODUCT#0000000001', 'product', { id: 1, name: 'TestProduct', isActive: 'yes' }),
  },
  {
    kind: 'component',
    parse: toComponent,
    item: keyed('PRODUCTS', 'PRODUCT#0000000001#COMPONENT#0000000002', 'component', component),
    parsed: component,
    broken: keyed('PRODUCTS', 'PRODUCT#0000000001#COMPONENT#0000000002', 'component', { id: 2, defaultCcIds: '40' }),
  },
  {
    kind: 'version',
    parse: (item) => toProductValue(item, 'version'),
    item: keyed('PRODUCTS', 'PRODUCT#0000000001#VERSION#0000000003', 'version', {
      id: 3,
      productId: 1,
      name: 'unspecified',
      sortKey: 0,
      isActive: true,
    }),
    parsed: { id: 3, productId: 1, name: 'unspecified', sortKey: 0, isActive: true },
    broken: keyed('PRODUCTS', 'PRODUCT#0000000001#VERSION#0000000003', 'version', { id: 3, productId: 1, name: 7 }),
  },
  {
    kind: 'group control',
    parse: toGroupControl,
    item: keyed('PRODUCTS', 'PRODUCT#0000000001#GROUPCONTROL#0000000008', 'groupControl', groupControl),
    parsed: groupControl,
    broken: keyed('PRODUCTS', 'PRODUCT#0000000001#GROUPCONTROL#0000000008', 'groupControl', {
      productId: 1,
      groupId: 8,
      memberControl: 'ALWAYS',
    }),
  },
  {
    kind: 'custom field',
    parse: toCustomField,
    item: keyed('FIELDS', 'FIELD#cf_fixed_in', 'field', { ...customField, fieldType: 2, revision: 3 }),
    parsed: { field: { ...customField, type: 2 }, revision: 3 },
    broken: keyed('FIELDS', 'FIELD#cf_fixed_in', 'field', { ...customField, fieldType: 42, revision: 3 }),
  },
  {
    kind: 'search snapshot pointer',
    parse: toSnapshotPointer,
    item: keyed('SEARCHSNAPSHOT', 'CURRENT', 'searchSnapshotPointer', snapshotPointer),
    parsed: snapshotPointer,
    broken: keyed('SEARCHSNAPSHOT', 'CURRENT', 'searchSnapshotPointer', { generation: 'g1', chunks: '1' }),
  },
];

afterEach(() => vi.restoreAllMocks());

describe('stored items are parsed into domain types', () => {
  it.each(cases)('a $kind item comes back as its domain object, without its keys', ({ parse, item, parsed }) => {
    expect(parse(item)).toStrictEqual(parsed);
  });

  it.each(cases)('a broken $kind item is refused with 32000 naming it, and logged', ({ kind, parse, broken }) => {
    const logged: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((line) => logged.push(String(line)) > 0);
    vi.spyOn(process.stdout, 'write').mockImplementation((line) => logged.push(String(line)) > 0);
    let refusal: unknown;
    try {
      parse(broken);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(TrackerError);
    expect(refusal).toMatchObject({
      code: 32000,
      httpStatus: 400,
      message: expect.stringContaining(`stored ${kind} ${broken.pk} / ${broken.sk}:`),
    });
    const line = logged.map((text) => JSON.parse(text)).find((entry) => entry.message === 'unreadable stored item');
    expect(line).toMatchObject({ level: 'ERROR', kind, key: `${broken.pk} / ${broken.sk}` });
    expect(line.issues.length).toBeGreaterThan(0);
  });

  it('fills what older items may lack: a comment without attachment or tags, an attachment without flags', () => {
    const { attachmentId, tags, ...bare } = comment;
    expect(toComment(bare)).toStrictEqual(comment);
    const { flags, ...unflagged } = attachment;
    expect(toAttachment(unflagged)).toStrictEqual({ ...attachment, flags: [] });
    const { sequence, ...pointer } = cases.at(-1)!.parsed as Record<string, unknown>;
    expect(toSnapshotPointer(pointer)).toStrictEqual({ ...pointer, sequence: 0 });
  });

  it('reads a bug stored before bugs kept value ids with its version and milestone names, for legacyBugValues.ts', () => {
    const { versionId, targetMilestoneId, ...legacy } = bug;
    const parsed = toStoredBugItem({ pk: 'BUG#7', sk: 'BUG', ...legacy, version: '1.0', targetMilestone: '---' });
    expect(parsed.bug).toStrictEqual({ ...legacy, version: '1.0', targetMilestone: '---' });
  });

  it('keeps a large bug whole: thousands of CCs and relations', () => {
    const ccIds = Array.from({ length: 5_000 }, (_, n) => n + 1);
    expect(toStoredBugItem({ ...bug, ccIds, blocks: ccIds }).bug).toStrictEqual({ ...bug, ccIds, blocks: ccIds });
  });
});

describe('the DynamoDB clients’ quiet logger', () => {
  it('has no info, so the SDK builds no log copy of every response; the rest go nowhere', () => {
    const logger = dynamoClientConfig().logger!;
    expect(logger.info).toBeUndefined();
    for (const level of ['trace', 'debug', 'warn', 'error'] as const) expect(logger[level]?.('x')).toBeUndefined();
  });
});
