/**
 * What parsing stored items costs (storage/itemParsing.ts): 10,000 parses of a typical bug,
 * comment and attachment item, and of a huge bug (5,000 CCs), against the cast they replaced
 * (a destructuring copy that dropped the keys). Prints microseconds per item; no assertion.
 * Run: `npx tsx bench/itemParsing.ts` on a quiet machine, best of five rounds.
 */
import { toAttachment, toComment, toStoredBugItem } from '../shared/storage/bug/bugItems.ts';

const ROUNDS = 5;
const PARSES = 10_000;

const flag = (id: number) => ({
  id,
  typeId: 3,
  status: '?',
  setterId: 12,
  requesteeId: 40,
  creationDate: '2025-03-01T10:00:00Z',
  modificationDate: '2025-03-01T10:00:00Z',
});

const bugItem = (ccCount: number) => ({
  pk: 'BUG#4711',
  sk: 'BUG',
  type: 'bug',
  gsi2pk: 'COMPONENT#12',
  gsi2sk: '0000004711',
  rev: 7,
  id: 4711,
  alias: null,
  summary: 'Crash when opening the preferences dialog twice in a row',
  status: 'ASSIGNED',
  resolution: '',
  isConfirmed: true,
  productId: 3,
  componentId: 12,
  versionId: 31,
  targetMilestoneId: 44,
  bugType: 'defect',
  priority: 'P2',
  severity: 'major',
  platform: 'x86_64',
  opSys: 'Linux',
  assigneeId: 40,
  reporterId: 12,
  qaContactId: null,
  url: 'https://example.com/report/4711',
  whiteboard: '[needs-info]',
  deadline: null,
  creationTime: '2025-02-27T09:14:03Z',
  lastChangeTime: '2025-03-01T10:00:00Z',
  filedVia: 'standard_form',
  isCcAccessible: true,
  isCreatorAccessible: true,
  estimatedTime: 4,
  remainingTime: 2.5,
  actualTime: 1.5,
  ccIds: Array.from({ length: ccCount }, (_, n) => 100 + n),
  keywordIds: [2, 5],
  groupIds: [],
  dependsOn: [4700],
  blocks: [4800, 4801],
  regressedBy: [],
  regressions: [],
  duplicates: [],
  dupeOf: null,
  seeAlso: ['https://bugs.example.org/show_bug.cgi?id=99'],
  flags: [flag(901)],
  commentCount: 6,
  privateCommentCount: 1,
  attachmentCount: 1,
  privateAttachments: [],
  custom: { cf_fixed_in: '---', cf_crash_signature: '' },
  tags: { 12: ['triage'] },
});

const commentItem = {
  pk: 'BUG#4711',
  sk: 'COMMENT#0000000003',
  type: 'comment',
  id: 88123,
  bugId: 4711,
  count: 3,
  creatorId: 40,
  creationTime: '2025-02-28T15:02:11Z',
  rawText: 'I can reproduce this on a fresh profile; the second open crashes in the font list.\n'.repeat(4),
  isPrivate: false,
  isMarkdown: true,
  workTime: 0,
  attachmentId: null,
  tags: [],
};

const attachmentItem = {
  pk: 'BUG#4711',
  sk: 'ATTACHMENT#0000000512',
  type: 'attachment',
  id: 512,
  bugId: 4711,
  fileName: 'crash.log',
  summary: 'Crash log',
  contentType: 'text/plain',
  size: 20480,
  isPatch: false,
  isPrivate: false,
  isObsolete: false,
  creatorId: 12,
  creationTime: '2025-02-27T09:20:00Z',
  lastChangeTime: '2025-02-27T09:20:00Z',
  sha256: 'a'.repeat(64),
  bodyKey: 'attachments/4711/512',
  creationCommentCount: 1,
  flags: [flag(902)],
};

/** What the casts did: a copy without the keys. */
const castCopy = (item: Record<string, unknown>) => {
  const { pk, sk, type, ...rest } = item;
  return rest;
};

function microsPerItem(
  label: string,
  parse: (item: Record<string, unknown>) => unknown,
  item: Record<string, unknown>,
) {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let n = 0; n < PARSES; n++) parse(item);
    best = Math.min(best, performance.now() - started);
  }
  console.log(`${label.padEnd(34)} ${((best * 1000) / PARSES).toFixed(2).padStart(8)} µs per item`);
}

const typical = bugItem(4);
const huge = bugItem(5_000);
microsPerItem('bug, 4 CCs: parse', toStoredBugItem, typical);
microsPerItem('bug, 4 CCs: cast (before)', castCopy, typical);
microsPerItem('bug, 5,000 CCs: parse', toStoredBugItem, huge);
microsPerItem('bug, 5,000 CCs: cast (before)', castCopy, huge);
microsPerItem('comment: parse', toComment, commentItem);
microsPerItem('comment: cast (before)', castCopy, commentItem);
microsPerItem('attachment: parse', toAttachment, attachmentItem);
microsPerItem('attachment: cast (before)', castCopy, attachmentItem);
