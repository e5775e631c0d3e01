import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/storage/dynamoClient.ts';

/**
 * Reads the whole test table and lists every inconsistency between items that must change
 * together: a name guard without its item (a name reserved forever) or an item without its guard,
 * a guard naming another name than its item, a user whose `memberOf`/`canBless` disagree with the
 * membership items, an API key without its reference, an attachment without its pointer, a comment
 * tag weight that differs from the comments carrying the tag. Empty means nothing was half-written.
 */
type Item = Record<string, unknown>;

async function scanAll(): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const PAIRS: Array<{ item: string; guard: string; idAttribute: string; scope?: (item: Item) => string }> = [
  { item: 'product', guard: 'productName', idAttribute: 'productId' },
  { item: 'group', guard: 'groupName', idAttribute: 'groupId' },
  { item: 'classification', guard: 'classificationName', idAttribute: 'classificationId' },
  { item: 'keyword', guard: 'keywordName', idAttribute: 'keywordId' },
  { item: 'user', guard: 'login', idAttribute: 'userId' },
  { item: 'component', guard: 'componentName', idAttribute: 'componentId', scope: (item) => String(item.productId) },
  { item: 'version', guard: 'versionName', idAttribute: 'valueId', scope: (item) => String(item.productId) },
  { item: 'milestone', guard: 'milestoneName', idAttribute: 'valueId', scope: (item) => String(item.productId) },
];

/** The lowercased name a guard reserves: the last `#` part of its key (the name is always last). */
const guardedName = (guard: Item) => {
  const key = String(guard.sk).includes('#') ? String(guard.sk) : String(guard.pk);
  return key.slice(key.indexOf('#') + 1);
};
const guardScope = (guard: Item) =>
  String(guard.sk).includes('#') ? String(guard.pk).slice(String(guard.pk).indexOf('#') + 1) : '';
const nameOf = (item: Item) => String(item.type === 'user' ? item.login : item.name).toLowerCase();

export async function tableInconsistencies(): Promise<string[]> {
  const items = await scanAll();
  const problems: string[] = [];
  for (const pair of PAIRS) {
    const entities = items.filter((item) => item.type === pair.item);
    const guards = items.filter((item) => item.type === pair.guard);
    for (const guard of guards) {
      const owner = entities.find((entity) => Number(entity.id) === Number(guard[pair.idAttribute]));
      if (!owner)
        problems.push(
          `${pair.guard} '${guardedName(guard)}' reserves a name for ${pair.item} ${guard[pair.idAttribute]}, which does not exist`,
        );
      else if (nameOf(owner) !== guardedName(guard) || (pair.scope && pair.scope(owner) !== guardScope(guard))) {
        problems.push(
          `${pair.guard} '${guardedName(guard)}' reserves a name that ${pair.item} ${owner.id} no longer has ('${nameOf(owner)}')`,
        );
      }
    }
    for (const entity of entities) {
      const guard = guards.find(
        (candidate) =>
          Number(candidate[pair.idAttribute]) === Number(entity.id) && guardedName(candidate) === nameOf(entity),
      );
      if (!guard) problems.push(`${pair.item} ${entity.id} ('${nameOf(entity)}') has no name guard`);
    }
  }
  for (const user of items.filter((item) => item.type === 'user' && Array.isArray(item.memberOf))) {
    for (const [attribute, type] of [
      ['memberOf', 'membership'],
      ['canBless', 'blessRight'],
    ] as const) {
      const stored = items
        .filter((item) => item.type === type && Number(item.userId) === Number(user.id))
        .map((item) => Number(item.groupId))
        .sort((a, b) => a - b);
      const listed = ((user[attribute] as unknown[]) ?? []).map(Number).sort((a, b) => a - b);
      if (JSON.stringify(stored) !== JSON.stringify(listed))
        problems.push(
          `user ${user.id}: ${attribute} ${JSON.stringify(listed)} but ${type} items ${JSON.stringify(stored)}`,
        );
    }
  }
  const references = items.filter((item) => item.type === 'apiKeyReference');
  for (const key of items.filter((item) => item.type === 'apiKey')) {
    if (
      !references.some(
        (reference) =>
          Number(reference.keyId) === Number(key.id) && Number(String(reference.pk).slice(5)) === Number(key.userId),
      )
    ) {
      problems.push(`API key ${key.id} has no reference in its owner's partition`);
    }
  }
  // Attachments: metadata and pointer come and go together; comment tag weights count the
  // comments that carry each tag (case-insensitively).
  const pointers = items.filter((item) => item.type === 'attachmentPointer');
  const attachments = items.filter((item) => item.type === 'attachment');
  for (const attachment of attachments) {
    if (
      !pointers.some(
        (pointer) =>
          Number(pointer.attachmentId) === Number(attachment.id) && Number(pointer.bugId) === Number(attachment.bugId),
      )
    )
      problems.push(`attachment ${attachment.id} has no pointer`);
  }
  for (const pointer of pointers) {
    if (!attachments.some((attachment) => Number(attachment.id) === Number(pointer.attachmentId)))
      problems.push(`attachment pointer ${pointer.attachmentId} points at no attachment`);
  }
  const tagCounts = new Map<string, number>();
  for (const comment of items.filter((item) => item.type === 'comment')) {
    for (const tag of (comment.tags as string[] | undefined) ?? [])
      tagCounts.set(tag.toLowerCase(), (tagCounts.get(tag.toLowerCase()) ?? 0) + 1);
  }
  const weights = new Map(
    items
      .filter((item) => item.type === 'commentTag' && Number(item.weight) > 0)
      .map((item) => [String(item.sk), Number(item.weight)]),
  );
  for (const tag of new Set([...tagCounts.keys(), ...weights.keys()])) {
    if ((tagCounts.get(tag) ?? 0) !== (weights.get(tag) ?? 0))
      problems.push(
        `comment tag '${tag}' has weight ${weights.get(tag) ?? 0} but ${tagCounts.get(tag) ?? 0} comments carry it`,
      );
  }
  return problems;
}
