/**
 * The seed tool's bugs, generated in memory from the catalogue: a skewed status mix, CCs, keywords,
 * dependencies, duplicates, flags, comments and history, with both sides of every relation filled.
 */
import { createHash } from 'node:crypto';
import type { Attachment } from '../shared/domain/bug/attachment.ts';
import type { Bug, BugFlag, HistoryEntry } from '../shared/domain/bug/bug.ts';
import { privateAttachmentMarks } from '../shared/domain/bug/privateActivity.ts';
import { toBugzillaDateTime } from '../shared/domain/time.ts';
import { importedBodyKey } from '../shared/storage/bug/bugImportStore.ts';
import type { StoredComment } from '../shared/storage/bug/bugStore.ts';
import type { SeededCatalogue } from './seedCatalogue.ts';
import { type Random, random } from './seedRandom.ts';
import {
  COMMENT_LINES,
  CONTEXTS,
  OSES,
  PLATFORMS,
  PRIORITIES,
  PROBLEMS,
  SEVERITIES,
  SUBJECTS,
} from './seedVocabulary.ts';

export interface GeneratedBugs {
  bugs: Bug[];
  /** Each bug's comments and history, by the bug's position in `bugs`. */
  commentsOf: StoredComment[][];
  historyOf: HistoryEntry[][];
  attachmentsOf: Attachment[][];
  /** Attachment bodies by attachment id. */
  bodies: Map<number, Buffer>;
}

/**
 * How many attachments each bug gets (about one bug in eight has one or two, as in a typical
 * installation: logs, patches, screenshots), from a generator of its own so adding attachments
 * left every other field of the seeded bugs as it was. Each attachment adds its "Created
 * attachment" comment to the bug's comment count.
 */
export function planAttachmentCounts(seed: number, bugCount: number): number[] {
  const rng = random(seed * 7_919 + 17);
  return Array.from({ length: bugCount }, () =>
    rng.weighted<number>([
      [0, 88],
      [1, 10],
      [2, 2],
    ]),
  );
}

const ATTACHMENT_KINDS = [
  { fileName: 'console.log', contentType: 'text/plain', isPatch: false },
  { fileName: 'fix.patch', contentType: 'text/plain', isPatch: true },
  { fileName: 'trace.txt', contentType: 'text/plain', isPatch: false },
  { fileName: 'settings.json', contentType: 'application/json', isPatch: false },
] as const;

/** A body of 200 B to 8 KB of log-like text. */
function attachmentBody(rng: Random, kind: (typeof ATTACHMENT_KINDS)[number]): Buffer {
  const lines: string[] = [];
  const target = 200 + rng.int(8_000);
  let size = 0;
  while (size < target) {
    const line = kind.isPatch
      ? `${rng.pick(['+', '-', ' '])} ${rng.pick(COMMENT_LINES)}`
      : `[${String(rng.int(86_400)).padStart(5, '0')}] ${rng.pick(SUBJECTS)} ${rng.pick(PROBLEMS)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** How many comments each bug gets (the description included), drawn before the comment ids are allocated. */
export function planCommentCounts(rng: Random, bugCount: number): number[] {
  return Array.from(
    { length: bugCount },
    () =>
      1 +
      rng.weighted<number>([
        [0, 30],
        [1, 30],
        [2, 20],
        [3, 10],
        [5, 7],
        [9, 3],
      ]),
  );
}

/** The ids come from the table's counters; `catalogue.products` counts the bugs each one gets. */
export function generateBugs(
  rng: Random,
  catalogue: SeededCatalogue,
  ids: {
    bugIds: number[];
    commentPlan: number[];
    commentIds: number[];
    flagIds: number[];
    attachmentPlan: number[];
    attachmentIds: number[];
  },
): GeneratedBugs {
  const { bugIds, commentPlan, commentIds, flagIds, attachmentPlan, attachmentIds } = ids;
  let nextAttachment = 0;
  const attachmentsOf: Attachment[][] = [];
  const bodies = new Map<number, Buffer>();
  const { products, userIds, keywordIds, flagTypeIds, securityGroup } = catalogue;
  const bugCount = bugIds.length;
  const firstBug = bugIds[0];
  let nextComment = 0;
  let nextFlag = 0;
  const epoch = Date.parse('2019-01-01T00:00:00Z');
  const span = Date.now() - 86_400_000 - epoch;
  const bugs: Bug[] = [];
  const commentsOf: StoredComment[][] = [];
  const historyOf: HistoryEntry[][] = [];
  const time = (ms: number) => toBugzillaDateTime(new Date(ms));
  for (let n = 0; n < bugCount; n++) {
    const id = bugIds[n];
    const product = rng.weighted(products.map((entry) => [entry, entry.weight] as [typeof entry, number]));
    product.count++;
    const created = epoch + Math.floor((span * n) / bugCount) + rng.int(3_600_000);
    const status = rng.weighted<string>([
      ['RESOLVED', 35],
      ['VERIFIED', 15],
      ['CONFIRMED', 30],
      ['UNCONFIRMED', 12],
      ['IN_PROGRESS', 8],
    ]);
    const open = status === 'CONFIRMED' || status === 'UNCONFIRMED' || status === 'IN_PROGRESS';
    let resolution = open
      ? ''
      : rng.weighted<string>([
          ['FIXED', 55],
          ['INVALID', 15],
          ['WONTFIX', 10],
          ['WORKSFORME', 10],
          ['DUPLICATE', 10],
        ]);
    const reporterId = rng.skewed(userIds, 2);
    const assigneeId = rng.skewed(userIds, 1.4);
    const ccIds = [
      ...new Set(
        Array.from(
          {
            length: rng.weighted<number>([
              [0, 40],
              [1, 25],
              [2, 15],
              [3, 10],
              [5, 10],
            ]),
          },
          () => rng.skewed(userIds),
        ),
      ),
    ].sort((a, b) => a - b);
    const summary = `${rng.pick(SUBJECTS)} ${rng.pick(PROBLEMS)} ${rng.pick(CONTEXTS)}`;
    const keywords =
      rng.next() < 0.25
        ? [...new Set(Array.from({ length: 1 + rng.int(2) }, () => rng.skewed(keywordIds)))].sort((a, b) => a - b)
        : [];
    let dupeOf: number | null = null;
    if (resolution === 'DUPLICATE') {
      if (n > 10) dupeOf = bugIds[rng.int(n)];
      else resolution = 'FIXED';
    }
    const dependsOn =
      n > 10 && rng.next() < 0.08
        ? [...new Set([bugIds[rng.int(n)], ...(rng.next() < 0.3 ? [bugIds[rng.int(n)]] : [])])].sort((a, b) => a - b)
        : [];
    const changed = Math.min(Date.now() - 60_000, created + rng.int(200) * 86_400_000);
    const flags: BugFlag[] =
      rng.next() < 0.12
        ? [
            {
              id: flagIds[nextFlag++ % flagIds.length],
              typeId: rng.pick(flagTypeIds),
              status: rng.pick(['?', '+', '-'] as const),
              setterId: reporterId,
              requesteeId: null,
              creationDate: time(created),
              modificationDate: time(changed),
            },
          ]
        : [];
    const comments: StoredComment[] = [];
    let at = created;
    // The plan counts the attachments' "Created attachment" comments too: they come last.
    for (let count = 0; count < commentPlan[n] - attachmentPlan[n]; count++) {
      const text =
        count === 0
          ? `${summary}.\n\nSteps to reproduce:\n1. ${rng.pick(COMMENT_LINES)}\n2. Open the ${rng.pick(SUBJECTS).toLowerCase()} ${rng.pick(CONTEXTS)}.\n\nExpected: it works. Actual: it ${rng.pick(PROBLEMS)}.`
          : `${rng.pick(COMMENT_LINES)} ${rng.pick(COMMENT_LINES)}`;
      comments.push({
        id: commentIds[nextComment++],
        bugId: id,
        count,
        creatorId: count === 0 ? reporterId : rng.skewed(userIds),
        rawText: text,
        isPrivate: count > 0 && rng.next() < 0.03,
        isMarkdown: false,
        workTime: 0,
        creationTime: time(at),
        attachmentId: null,
        tags: [],
      });
      at = Math.min(changed, at + rng.int(5 * 86_400_000));
    }
    const attachments: Attachment[] = [];
    for (let made = 0; made < attachmentPlan[n]; made++) {
      const attachmentId = attachmentIds[nextAttachment++];
      const kind = rng.pick(ATTACHMENT_KINDS);
      const body = attachmentBody(rng, kind);
      const count = comments.length;
      const creatorId = rng.skewed(userIds);
      bodies.set(attachmentId, body);
      attachments.push({
        id: attachmentId,
        bugId: id,
        fileName: kind.fileName,
        summary: `${rng.pick(SUBJECTS)} ${kind.isPatch ? 'fix' : 'log'}`,
        contentType: kind.contentType,
        size: body.length,
        isPatch: kind.isPatch,
        isPrivate: false,
        isObsolete: false,
        creatorId,
        creationTime: time(at),
        lastChangeTime: time(at),
        sha256: createHash('sha256').update(body).digest('hex'),
        bodyKey: importedBodyKey(id, attachmentId),
        creationCommentCount: count,
        flags: [],
      });
      comments.push({
        id: commentIds[nextComment++],
        bugId: id,
        count,
        creatorId,
        rawText: '',
        isPrivate: false,
        isMarkdown: false,
        workTime: 0,
        creationTime: time(at),
        attachmentId,
        tags: [],
        commentType: 'attachment_created',
        extraData: attachmentId,
      });
    }
    const history: HistoryEntry[] = [];
    if (status !== 'UNCONFIRMED' && status !== 'CONFIRMED') {
      history.push({
        bugId: id,
        when: time(changed),
        whoId: assigneeId,
        changes: [
          { field_name: 'status', removed: 'CONFIRMED', added: status },
          ...(resolution ? [{ field_name: 'resolution', removed: '', added: resolution }] : []),
        ],
      });
    }
    bugs.push({
      id,
      alias: rng.next() < 0.01 ? `seed-${id}` : null,
      summary,
      status,
      resolution,
      isConfirmed: status !== 'UNCONFIRMED',
      productId: product.id,
      componentId: rng.skewed(product.components, 1.3),
      versionId: product.versionId,
      targetMilestoneId: product.milestoneId,
      bugType: rng.weighted<string>([
        ['defect', 75],
        ['enhancement', 18],
        ['task', 7],
      ]),
      priority: rng.skewed(PRIORITIES),
      severity: rng.skewed(SEVERITIES, 1.3),
      platform: rng.skewed(PLATFORMS),
      opSys: rng.skewed(OSES),
      assigneeId,
      reporterId,
      qaContactId: rng.next() < 0.2 ? rng.skewed(userIds) : null,
      url: rng.next() < 0.1 ? `https://example.com/report/${id}` : '',
      whiteboard:
        rng.next() < 0.1 ? rng.pick(['[needs-triage]', '[fixed-in-nightly]', '[qa+]', '[ux]', '[good-first-bug]']) : '',
      deadline: null,
      creationTime: time(created),
      lastChangeTime: time(changed),
      filedVia: 'api',
      isCcAccessible: true,
      isCreatorAccessible: true,
      estimatedTime: 0,
      remainingTime: 0,
      actualTime: 0,
      ccIds,
      keywordIds: keywords,
      groupIds: product.secure ? [securityGroup] : [],
      dependsOn,
      blocks: [],
      regressedBy: [],
      regressions: [],
      duplicates: [],
      dupeOf,
      seeAlso: [],
      flags,
      commentCount: comments.length,
      privateCommentCount: comments.filter((comment) => comment.isPrivate).length,
      attachmentCount: attachments.length,
      // As the API writes it: the bug lists its private attachments (none here), so readers need not look.
      privateAttachments: privateAttachmentMarks(attachments),
      custom: {},
      tags: {},
    });
    commentsOf.push(comments);
    historyOf.push(history);
    attachmentsOf.push(attachments);
  }
  // The other side of every relation.
  for (const bug of bugs) {
    for (const other of bug.dependsOn) bugs[other - firstBug].blocks.push(bug.id);
    if (bug.dupeOf !== null) bugs[bug.dupeOf - firstBug].duplicates.push(bug.id);
  }
  for (const bug of bugs) {
    bug.blocks = [...new Set(bug.blocks)].sort((a, b) => a - b);
    bug.duplicates = [...new Set(bug.duplicates)].sort((a, b) => a - b);
  }
  return { bugs, commentsOf, historyOf, attachmentsOf, bodies };
}
