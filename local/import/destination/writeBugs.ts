import {
  addCommentTagWeights,
  aliasGuardKey,
  type ExistingBug,
  importedBodyKey,
  importedBugItems,
  importedChangeLogItems,
  loadExistingBug,
} from '../../../shared/storage/bug/bugImportStore.ts';
import { findBugIdByAlias } from '../../../shared/storage/bug/bugStore.ts';
import type { Item } from '../../../shared/storage/itemCollector.ts';
import type { ItemKey } from '../../../shared/storage/keys.ts';
import type { ReportBuilder } from '../report.ts';
import { Semaphore } from '../source/concurrency.ts';
import type { BugBundle } from '../source/index.ts';
import { type ConvertedBug, convertBug } from './convertBug.ts';
import { fillDuplicates } from './duplicates.ts';
import type { IdMaps } from './idMaps.ts';
import type { ImportIndex } from './importIndex.ts';
import { checkBundleIds, type SeenIds } from './sourceIds.ts';
import type { TargetWriter } from './targetWriter.ts';

/**
 * One batch of bugs (a BugBundle: bugs with comments, history and attachments) into the target:
 * bodies to S3 first (metadata never names a missing body), then every item in parallel
 * batches, then the comment tags' weights. A bug written before by this import (an update, or
 * the batch a stopped run was writing) is read first, so it is replaced: a higher revision, its
 * old alias guard and items it no longer has removed, tag weights moved by the difference.
 */
export interface BugWriteContext {
  ids: IdMaps;
  writer: TargetWriter;
  report: ReportBuilder;
  /** Null in a dry run. */
  index: ImportIndex | null;
  accountId: number;
  historyField(name: string): string;
  /** Read what the target holds of each bug first (updates; the first batch of a resume). */
  replaceExisting: boolean;
  /** Also write change-log entries, so search instances already running see the bugs (updates). */
  changeLog: boolean;
  /** The source lists no `duplicates` (5.0, 5.2): they are worked out (duplicates.ts). */
  deriveDuplicates: boolean;
  /** Ids written so far in this run: one given twice refuses the source (sourceIds.ts). */
  seen: SeenIds;
  /** Aliases given so far in this run (lower case) → bug id: a second bug with one loses it. */
  aliases: Map<string, number>;
}

export interface BatchIds {
  bug: number;
  comment: number;
  attachment: number;
  flag: number;
}

/** The highest ids a batch wrote, and which of its bugs carry tags (comment or personal) now. */
export interface BatchWritten extends BatchIds {
  tagged: number[];
  untagged: number[];
}

const reads = new Semaphore(16);

export async function writeBugBatch(bundle: BugBundle, context: BugWriteContext): Promise<BatchWritten> {
  const { report, writer } = context;
  const highest: BatchWritten = { bug: 0, comment: 0, attachment: 0, flag: 0, tagged: [], untagged: [] };
  checkBundleIds(bundle, context.seen);
  for (const fault of bundle.faults) {
    if (fault.code === 102) report.hiddenBugIds.push(fault.id);
    else report.skip('bug', String(fault.id), `the source refused it: ${fault.message} (${fault.code})`);
  }
  const converted: ConvertedBug[] = [];
  const groupNames = new Map(bundle.bugs.map((record) => [record.id, record.groups]));
  for (const record of bundle.bugs) {
    const bug = convertBug(record, bundle, {
      ids: context.ids,
      accountId: context.accountId,
      bodyKey: importedBodyKey,
      historyField: context.historyField,
      problem: (kind, what, reason) => report.skip(kind, what, reason),
      cleaned: (kind, what, note) => report.clean(kind, what, note),
      restrictedLeftOut: (id, groups) => report.leaveOutRestricted(id, groups),
    });
    if (bug) converted.push(bug);
  }
  if (context.deriveDuplicates) await fillDuplicates(converted, writer.dryRun);
  await keepAliasesUnique(converted, context);

  const existing = new Map<number, ExistingBug | null>();
  if (context.replaceExisting)
    await Promise.all(
      converted.map(({ bug }) => reads.run(async () => existing.set(bug.id, await loadExistingBug(bug.id)))),
    );

  const puts: Item[] = [];
  const deletes: ItemKey[] = [];
  const tagDeltas = new Map<string, number>();
  const moveTag = (tag: string, by: number) => tagDeltas.set(tag, (tagDeltas.get(tag) ?? 0) + by);
  const changeLogBugs: Array<{ bug: ConvertedBug['bug']; rev: number }> = [];
  for (const { bug, product, comments, history, attachments } of converted) {
    const before = existing.get(bug.id) ?? null;
    const rev = (before?.rev ?? 0) + 1;
    const items = importedBugItems(bug, rev, comments, history, attachments);
    puts.push(...items);
    if (before) {
      const kept = new Set(items.map((item) => `${item.pk}\u0000${item.sk}`));
      deletes.push(...before.itemKeys.filter((key) => !kept.has(`${key.pk}\u0000${key.sk}`)));
      if (before.alias && before.alias.toLowerCase() !== (bug.alias ?? '').toLowerCase())
        deletes.push(aliasGuardKey(before.alias));
      for (const tags of before.commentTags.values()) for (const tag of tags) moveTag(tag, -1);
    }
    for (const comment of comments) for (const tag of comment.tags) moveTag(tag, 1);
    const tagged = comments.some((comment) => comment.tags.length > 0) || Object.keys(bug.tags ?? {}).length > 0;
    (tagged ? highest.tagged : highest.untagged).push(bug.id);
    context.index?.add(bug, rev, history, comments);
    if (context.changeLog) changeLogBugs.push({ bug, rev });

    report.count('bugs');
    report.bugInProduct(product);
    report.bugGroups(product, groupNames.get(bug.id) ?? []);
    report.count('comments', comments.length);
    report.count('attachments', attachments.length);
    report.count('history entries', history.length);
    const flags = [...bug.flags, ...attachments.flatMap((attachment) => attachment.flags)];
    report.count('flags', flags.length);
    highest.bug = Math.max(highest.bug, bug.id);
    highest.comment = Math.max(highest.comment, ...comments.map((comment) => comment.id));
    highest.attachment = Math.max(highest.attachment, ...attachments.map((attachment) => attachment.id));
    highest.flag = Math.max(highest.flag, ...flags.map((flag) => flag.id));
  }
  if (changeLogBugs.length > 0)
    puts.push(
      ...importedChangeLogItems(
        changeLogBugs,
        converted.flatMap((entry) => entry.history),
        converted.flatMap((entry) => entry.comments),
      ),
    );

  await writer.bodies(converted.flatMap((entry) => entry.bodies));
  await writer.write(puts, deletes);
  if (!writer.dryRun) await addCommentTagWeights(tagDeltas);
  report.count(
    'attachment bytes',
    converted.flatMap((entry) => entry.bodies).reduce((sum, body) => sum + body.data.length, 0),
  );
  return highest;
}

/**
 * An alias names one bug (search and Get Bug would each find another): a bug whose alias an
 * earlier bug of this run has, or a bug of the target that this run does not write, loses it,
 * and the report says so.
 */
async function keepAliasesUnique(converted: ConvertedBug[], context: BugWriteContext): Promise<void> {
  const inBatch = new Set(converted.map(({ bug }) => bug.id));
  for (const { bug } of converted) {
    if (!bug.alias) continue;
    const key = bug.alias.toLowerCase();
    let owner = context.aliases.get(key);
    if (owner === undefined) {
      const onTarget = await findBugIdByAlias(bug.alias).catch(() => null);
      // A bug this run writes again gives its old alias up (or keeps it): it is not another owner.
      if (onTarget !== null && !inBatch.has(onTarget) && !context.seen.bugs.has(onTarget)) owner = onTarget;
    }
    if (owner !== undefined && owner !== bug.id) {
      context.report.clean(
        'alias',
        `bug ${bug.id}`,
        `alias ${JSON.stringify(bug.alias)} left out: bug ${owner} has it`,
      );
      bug.alias = null;
      continue;
    }
    context.aliases.set(key, bug.id);
  }
}
