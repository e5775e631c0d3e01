import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { errors } from '../errors.ts';
import { forgetRequestReads } from '../runtime/requestScope.ts';
import { stampIncrement, touchesCachedItem, touchesCachedUser, touchesGroup } from './catalog/catalogCache.ts';
import { documentClient, tableName } from './dynamoClient.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type ConditionFailure = () => Error;
type Key = { pk: string; sk: string };

/**
 * Write discipline for items that two people can change at once (users, groups, catalogue items;
 * bugs too). Without it, two requests that read the same item and then write it one after the
 * other raise no DynamoDB conflict, and the second silently undoes the first ("last writer wins").
 *
 *   await retryOnConflict(async () => {
 *     const item = await readConsistently();            // carries `rev` (absent on old items = 0)
 *     ...validate and compute the change from what was read...
 *     const transaction = new WriteTransaction();
 *     transaction.updateAtRevision(key, item.rev ?? 0, { expression: 'SET a = :a', values });
 *     // or transaction.putAtRevision({ ...key, ...wholeItem }, item.rev ?? 0)
 *     await transaction.commit();                       // throws RevisionConflict if `rev` moved
 *     return answer;                                    // computed from this attempt's read
 *   });
 *
 * - `updateAtRevision` / `putAtRevision` condition the write on `rev = :read` (or, for `read` 0,
 *   on an existing item without `rev`) and store `rev = read + 1`. Every writer of the item must
 *   use them, or at least raise `rev`, so that readers of an older state notice.
 * - A failed revision condition makes `commit()` throw `RevisionConflict` (before any error a
 *   guard names: a guard may only look taken because the read was stale).
 * - `retryOnConflict` runs the whole read-validate-write function again on `RevisionConflict`,
 *   after forgetting the request's memoised reads, so the change is re-applied to the new state
 *   and the answer describes what was really stored. After `attempts` tries (default 10) it answers
 *   32000 ("try again"): nothing of that request was saved.
 * - Reads inside the function must be strongly consistent (base-table reads with
 *   `ConsistentRead`), or a stale read just loses again.
 */
export class RevisionConflict extends Error {
  constructor(readonly key: Key) {
    super(`The item ${key.pk}/${key.sk} changed since it was read.`);
    this.name = 'RevisionConflict';
  }
}

export const REVISION_ATTRIBUTE = 'rev';

export async function retryOnConflict<T>(
  readThenWrite: () => Promise<T>,
  options: { attempts?: number } = {},
): Promise<T> {
  const attempts = options.attempts ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await readThenWrite();
    } catch (error) {
      if (!(error instanceof RevisionConflict)) throw error;
      forgetRequestReads();
      if (attempt >= attempts) {
        throw errors.invalidParameter(
          'Someone else kept changing the same data at the same moment. Nothing was saved; please try again.',
        );
      }
      await pause(attempt);
    }
  }
}

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 25 * attempt));

function revisionCondition(read: number, attribute: string) {
  return read > 0
    ? {
        condition: '#rev = :readRev',
        names: { '#rev': attribute },
        values: { ':readRev': read } as Record<string, unknown>,
      }
    : {
        condition: 'attribute_exists(pk) AND attribute_not_exists(#rev)',
        names: { '#rev': attribute },
        values: {} as Record<string, unknown>,
      };
}

/** Key builders may carry index attributes too; a Key must hold the primary key only. */
const primaryKey = ({ pk, sk }: Key): Key => ({ pk, sk });

/**
 * A multi-item write that lands whole or not at all (TransactWriteItems). Each conditional item
 * may name the Bugzilla error its failed condition means (a taken login, a lost race), so a
 * cancelled transaction becomes a clear client error instead of a 500.
 */
export class WriteTransaction {
  private readonly items: TransactItem[] = [];
  private readonly failures: Array<ConditionFailure | undefined> = [];
  private readonly revisioned = new Set<number>();
  /** Writes to a group that change only who its regexp makes a member (see `update`'s `membersOnly`). */
  private readonly memberWrites = new WeakSet<TransactItem>();
  private stampExpectation: StampExpectation = {};

  get size(): number {
    return this.items.length;
  }

  put(
    item: Record<string, unknown>,
    options: {
      condition?: string;
      names?: Record<string, string>;
      values?: Record<string, unknown>;
      onConditionFailed?: ConditionFailure;
    } = {},
  ): this {
    this.items.push({
      Put: {
        TableName: tableName(),
        Item: item,
        ConditionExpression: options.condition,
        ExpressionAttributeNames: nonEmpty(options.names),
        ExpressionAttributeValues: nonEmpty(options.values),
      },
    });
    this.failures.push(options.onConditionFailed);
    return this;
  }

  /** A Put that fails with `onConditionFailed` if an item with this key already exists. */
  putNew(item: Record<string, unknown> & { pk: string; sk: string }, onConditionFailed: ConditionFailure): this {
    return this.put(item, { condition: 'attribute_not_exists(pk)', onConditionFailed });
  }

  update(
    key: { pk: string; sk: string },
    update: {
      expression: string;
      names?: Record<string, string>;
      values?: Record<string, unknown>;
      condition?: string;
      onConditionFailed?: ConditionFailure;
      /**
       * The write changes only which users a group's regexp makes members, not which groups
       * exist nor their regexps: it moves the stamp's `version` (the cached groups changed) but
       * not its `groups`, which a user's regexp memberships are derived under (requireStamp).
       */
      membersOnly?: boolean;
    },
  ): this {
    this.push(
      {
        Update: {
          TableName: tableName(),
          Key: primaryKey(key),
          UpdateExpression: update.expression,
          ConditionExpression: update.condition,
          ExpressionAttributeNames: nonEmpty(update.names),
          ExpressionAttributeValues: nonEmpty(update.values),
        },
      },
      update.onConditionFailed,
    );
    if (update.membersOnly) this.memberWrites.add(this.items[this.items.length - 1]);
    return this;
  }

  /**
   * An update of an item read at revision `read` (0: read without `rev`): fails the transaction
   * with RevisionConflict if the item changed since, and raises `rev`. `expression` may be empty
   * (only raise `rev`: marks an aggregate as changed, e.g. a product whose group control changed).
   */
  updateAtRevision(
    key: Key,
    read: number,
    update: {
      expression?: string;
      names?: Record<string, string>;
      values?: Record<string, unknown>;
      attribute?: string;
      membersOnly?: boolean;
    } = {},
  ): this {
    const guard = revisionCondition(read, update.attribute ?? REVISION_ATTRIBUTE);
    const bump = '#rev = :nextRev';
    const expression = update.expression?.trim() ?? '';
    const merged = /^SET\s/i.test(expression)
      ? expression.replace(/^SET\s+/i, `SET ${bump}, `)
      : `SET ${bump} ${expression}`.trim();
    this.revisioned.add(this.items.length);
    return this.update(key, {
      expression: merged,
      names: { ...update.names, ...guard.names },
      values: { ...update.values, ...guard.values, ':nextRev': read + 1 },
      condition: guard.condition,
      onConditionFailed: () => new RevisionConflict(primaryKey(key)),
      membersOnly: update.membersOnly,
    });
  }

  /** A whole-item Put of an item read at revision `read`; stores `rev = read + 1` (see updateAtRevision). */
  putAtRevision(item: Record<string, unknown> & Key, read: number, options: { attribute?: string } = {}): this {
    const attribute = options.attribute ?? REVISION_ATTRIBUTE;
    const guard = revisionCondition(read, attribute);
    this.revisioned.add(this.items.length);
    return this.put(
      { ...item, [attribute]: read + 1 },
      { ...guard, onConditionFailed: () => new RevisionConflict(primaryKey(item)) },
    );
  }

  /**
   * Fails the transaction with RevisionConflict if an item this write does not change moved on
   * from revision `read`: a decision that depended on it (no dependency loop through it) would
   * be stale.
   */
  checkAtRevision(key: Key, read: number, options: { attribute?: string } = {}): this {
    const guard = revisionCondition(read, options.attribute ?? REVISION_ATTRIBUTE);
    this.revisioned.add(this.items.length);
    return this.conditionCheck(key, { ...guard, onConditionFailed: () => new RevisionConflict(primaryKey(key)) });
  }

  /** Deletes an item only as it was read at revision `read` (see updateAtRevision). */
  deleteAtRevision(key: Key, read: number, options: { attribute?: string } = {}): this {
    const guard = revisionCondition(read, options.attribute ?? REVISION_ATTRIBUTE);
    this.revisioned.add(this.items.length);
    return this.push(
      {
        Delete: {
          TableName: tableName(),
          Key: primaryKey(key),
          ConditionExpression: guard.condition,
          ExpressionAttributeNames: guard.names,
          ExpressionAttributeValues: nonEmpty(guard.values),
        },
      },
      () => new RevisionConflict(primaryKey(key)),
    );
  }

  /**
   * Like `update`, but a later call for the same key replaces the earlier one: DynamoDB refuses a
   * transaction that touches one item twice, and summary items (latest audit time) are set often.
   */
  updateOnce(key: { pk: string; sk: string }, update: Parameters<WriteTransaction['update']>[1]): this {
    const index = this.items.findIndex((item) => item.Update?.Key?.pk === key.pk && item.Update?.Key?.sk === key.sk);
    if (index >= 0) {
      this.items.splice(index, 1);
      this.failures.splice(index, 1);
      // Indexes after the removed action move down by one.
      const shifted = [...this.revisioned].map((at) => (at > index ? at - 1 : at)).filter((at) => at !== index);
      this.revisioned.clear();
      for (const at of shifted) this.revisioned.add(at);
    }
    return this.update(key, update);
  }

  private push(item: TransactItem, onConditionFailed?: ConditionFailure): this {
    this.items.push(item);
    this.failures.push(onConditionFailed);
    return this;
  }

  delete(
    key: { pk: string; sk: string },
    options: { condition?: string; values?: Record<string, unknown>; onConditionFailed?: ConditionFailure } = {},
  ): this {
    return this.push(
      {
        Delete: {
          TableName: tableName(),
          Key: primaryKey(key),
          ConditionExpression: options.condition,
          ExpressionAttributeValues: options.values,
        },
      },
      options.onConditionFailed,
    );
  }

  /** A condition on an item the transaction does not change (a revision that must still hold). */
  conditionCheck(
    key: { pk: string; sk: string },
    check: {
      condition: string;
      names?: Record<string, string>;
      values?: Record<string, unknown>;
      onConditionFailed?: ConditionFailure;
    },
  ): this {
    return this.push(
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: primaryKey(key),
          ConditionExpression: check.condition,
          ExpressionAttributeNames: check.names,
          ExpressionAttributeValues: check.values,
        },
      },
      check.onConditionFailed,
    );
  }

  /**
   * Fails the transaction with RevisionConflict unless the caches' stamp (catalogCache.ts) still
   * counts `catalog` catalogue writes, `users` user writes and `groups` group writes: for a
   * decision that read every group (a new user's regexp groups) or every user (a group's regexp
   * members), where no single item's revision would show that another request changed the set
   * meanwhile.
   */
  requireStamp(expected: StampExpectation): this {
    this.stampExpectation = { ...this.stampExpectation, ...expected };
    return this;
  }

  private stampCondition() {
    const parts: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    for (const [counter, attribute] of [
      ['catalog', 'version'],
      ['users', 'users'],
      ['groups', 'groups'],
    ] as const) {
      const expected = this.stampExpectation[counter];
      if (expected === undefined) continue;
      names[`#expected_${attribute}`] = attribute;
      if (expected === 0) parts.push(`attribute_not_exists(#expected_${attribute})`);
      else {
        parts.push(`#expected_${attribute} = :expected_${attribute}`);
        values[`:expected_${attribute}`] = expected;
      }
    }
    return parts.length === 0 ? undefined : { condition: parts.join(' AND '), names, values };
  }

  /** The key an action writes (a ConditionCheck writes nothing). */
  private static writtenKey(item: TransactItem): Record<string, unknown> | undefined {
    return item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key;
  }

  async commit(): Promise<void> {
    if (this.items.length === 0) return;
    // Whatever changes a cached catalogue item, group, the parameters or a user moves the caches'
    // stamp in the same transaction, so no instance keeps serving the old copy (catalogCache.ts,
    // userCache.ts).
    const written = this.items.map((item) => WriteTransaction.writtenKey(item)).filter((key) => key !== undefined);
    const touches = {
      catalog: written.some(touchesCachedItem),
      users: written.some(touchesCachedUser),
      groups: this.items.some(
        (item) => !this.memberWrites.has(item) && touchesGroup(WriteTransaction.writtenKey(item)),
      ),
    };
    const expectation = this.stampCondition();
    if (touches.catalog || touches.users) {
      const { key, update } = stampIncrement(touches);
      // The stamp is one item: its expected counts become the increment's condition.
      const stampMoved = () => new RevisionConflict(primaryKey(key));
      this.updateOnce(
        key,
        expectation
          ? {
              ...update,
              condition: expectation.condition,
              names: { ...update.names, ...expectation.names },
              values: { ...update.values, ...expectation.values },
              onConditionFailed: stampMoved,
            }
          : update,
      );
      if (expectation) this.revisioned.add(this.items.length - 1);
    } else if (expectation) {
      this.revisioned.add(this.items.length);
      const { key } = stampIncrement({ catalog: true, users: false });
      this.conditionCheck(key, {
        ...expectation,
        values: nonEmpty(expectation.values),
        onConditionFailed: () => new RevisionConflict(primaryKey(key)),
      });
    }
    if (this.items.length > 100) {
      throw errors.invalidParameter(
        'This change touches too many items to be made at once; split it into smaller changes.',
      );
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await documentClient().send(new TransactWriteCommand({ TransactItems: this.items }));
        forgetRequestReads();
        return;
      } catch (error) {
        if (isItemTooLarge(error)) throw itemTooLarge();
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        if (reasons.some((reason) => reason.Code === 'ValidationError' && /size/i.test(reason.Message ?? '')))
          throw itemTooLarge();
        // A moved revision first: a guard may only look taken because what was read is stale.
        reasons.forEach((reason, index) => {
          if (reason.Code === 'ConditionalCheckFailed' && this.revisioned.has(index)) throw this.failures[index]!();
        });
        reasons.forEach((reason, index) => {
          const failure = this.failures[index];
          if (reason.Code === 'ConditionalCheckFailed' && failure) throw failure();
        });
        // Another transaction touched the same items at the same moment: the write is whole
        // or absent, so it is safe to try again after a short, jittered pause.
        if (!reasons.some((reason) => reason.Code === 'TransactionConflict')) throw error;
        if (attempt >= MAX_CONFLICT_ATTEMPTS) {
          throw errors.invalidParameter(
            'Someone else changed the same data at the same moment. Nothing was saved; please try again.',
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
      }
    }
  }
}

const MAX_CONFLICT_ATTEMPTS = 4;

type StampExpectation = { catalog?: number; users?: number; groups?: number };

/**
 * The last line of defence behind the input limits: a change that would make an item exceed
 * DynamoDB's 400 KB (or a transaction its 4 MB) is the caller's input, not a server fault.
 */
const isItemTooLarge = (error: unknown) =>
  error instanceof Error &&
  error.name === 'ValidationException' &&
  /item size|size has exceeded|transaction request cannot/i.test(error.message);
const itemTooLarge = () =>
  errors.invalidParameter(
    'This change is too large to be stored: shorten the longest values or make fewer changes at once. Nothing was saved.',
  );

/** DynamoDB refuses an empty map of expression names or values. */
const nonEmpty = <T extends Record<string, unknown>>(map: T | undefined): T | undefined =>
  map && Object.keys(map).length > 0 ? map : undefined;
