/**
 * Writes generated bugs straight to the table with parallel BatchWriteItem (far faster than the
 * API), then one search snapshot for all of them, since bulk writes bypass the change log.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { commentWords } from '../shared/domain/search/index/columns.ts';
import { SearchIndex } from '../shared/domain/search/index/searchIndex.ts';
import { snapshotPartsOf } from '../shared/domain/search/snapshot/indexSnapshot.ts';
import { putBody } from '../shared/storage/bug/attachmentBodies.ts';
import { importedBugItems } from '../shared/storage/bug/bugImportStore.ts';
import { documentClient, tableName } from '../shared/storage/dynamoClient.ts';
import { writeSnapshot } from '../shared/storage/search/searchIndexStore.ts';
import type { GeneratedBugs } from './seedBugs.ts';

async function batchWriteAll(items: Array<Record<string, unknown>>, concurrency = 12): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const start = next;
      next += 25;
      let pending: Record<string, unknown[]> | undefined = {
        [tableName()]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })),
      };
      for (let attempt = 0; pending && Object.keys(pending).length > 0; attempt++) {
        const result = await documentClient().send(new BatchWriteCommand({ RequestItems: pending as never }));
        pending = result.UnprocessedItems as Record<string, unknown[]> | undefined;
        if (pending && Object.keys(pending).length > 0)
          await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Attachment bodies to S3, a few uploads in flight. */
async function putBodies(attachments: GeneratedBugs['attachmentsOf'][number], bodies: Map<number, Buffer>) {
  let next = 0;
  const worker = async () => {
    while (next < attachments.length) {
      const attachment = attachments[next++];
      await putBody(attachment.bodyKey, bodies.get(attachment.id)!, attachment.contentType, attachment.sha256);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * What goes to the table: everything, or (`bugs`) only what a search reads, the bug items and
 * their alias guards. Comments, history and attachments then live only in the search snapshot,
 * which the seed builds from the generated bugs either way: a million bugs are 6.6 million items
 * with them, more than DynamoDB Local holds in memory on a 24 GB machine.
 */
export type TableItems = 'all' | 'bugs';
const OUTSIDE_SEARCH = new Set(['comment', 'commentPointer', 'history', 'attachment', 'attachmentPointer']);

/**
 * The bugs with their comments, history and attachments (bodies to S3), 2,000 bugs at a time;
 * answers the number of items written.
 */
export async function writeBugs(
  { bugs, commentsOf, historyOf, attachmentsOf, bodies }: GeneratedBugs,
  log: (message: string) => void,
  started: number,
  tableItems: TableItems = 'all',
): Promise<number> {
  const bugCount = bugs.length;
  let written = 0;
  for (let start = 0; start < bugCount; start += 2_000) {
    const items = bugs
      .slice(start, start + 2_000)
      .flatMap((bug, offset) =>
        importedBugItems(bug, 1, commentsOf[start + offset], historyOf[start + offset], attachmentsOf[start + offset]),
      )
      .filter((item) => tableItems === 'all' || !OUTSIDE_SEARCH.has(String(item.type)));
    await Promise.all([
      batchWriteAll(items),
      tableItems === 'all' ? putBodies(attachmentsOf.slice(start, start + 2_000).flat(), bodies) : undefined,
    ]);
    written += items.length;
    if ((start / 2_000) % 10 === 9)
      log(`  ${start + 2_000} bugs (${written} items, ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  return written;
}

/** One search snapshot for all of them: bulk writes bypass the change log. */
export async function writeSearchSnapshot({ bugs, commentsOf, historyOf }: GeneratedBugs) {
  const index = new SearchIndex();
  index.highWater = Date.now();
  bugs.forEach((bug, n) => {
    index.apply({
      bug,
      rev: 1,
      history: historyOf[n],
      words: commentWords(commentsOf[n].filter((comment) => !comment.isPrivate).map((comment) => comment.rawText)),
      privateWords: commentWords(
        commentsOf[n].filter((comment) => comment.isPrivate).map((comment) => comment.rawText),
      ),
    });
  });
  return writeSnapshot(snapshotPartsOf(index));
}
