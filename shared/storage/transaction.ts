import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { TrackerError } from '../trackerError.ts';
import { documentClient, tableName } from './dynamoClient.ts';
import { stampIncrement, touchesCachedItem } from './catalogCache.ts';
import { forgetRequestReads } from './requestScope.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type ConditionFailure = () => Error;
type Key = { pk: string; sk: string };

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

  get size(): number {
    return this.items.length;
  }

  put(item: Record<string, unknown>, options: { condition?: string; names?: Record<string, string>; values?: Record<string, unknown>; onConditionFailed?: ConditionFailure } = {}): this {
    this.items.push({
      Put: {
        TableName: tableName(),
        Item: item,
        ConditionExpression: options.condition,
        ExpressionAttributeNames: options.names,
        ExpressionAttributeValues: options.values,
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
    update: { expression: string; names?: Record<string, string>; values?: Record<string, unknown>; condition?: string; onConditionFailed?: ConditionFailure },
  ): this {
    return this.push({
      Update: {
        TableName: tableName(),
        Key: primaryKey(key),
        UpdateExpression: update.expression,
        ConditionExpression: update.condition,
        ExpressionAttributeNames: update.names,
        ExpressionAttributeValues: update.values,
      },
    }, update.onConditionFailed);
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
    }
    return this.update(key, update);
  }

  private push(item: TransactItem, onConditionFailed?: ConditionFailure): this {
    this.items.push(item);
    this.failures.push(onConditionFailed);
    return this;
  }

  delete(key: { pk: string; sk: string }, options: { condition?: string; values?: Record<string, unknown>; onConditionFailed?: ConditionFailure } = {}): this {
    return this.push(
      { Delete: { TableName: tableName(), Key: primaryKey(key), ConditionExpression: options.condition, ExpressionAttributeValues: options.values } },
      options.onConditionFailed,
    );
  }

  /** A condition on an item the transaction does not change (a revision that must still hold). */
  conditionCheck(key: { pk: string; sk: string }, check: { condition: string; names?: Record<string, string>; values?: Record<string, unknown>; onConditionFailed?: ConditionFailure }): this {
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

  /** The key an action writes (a ConditionCheck writes nothing). */
  private static writtenKey(item: TransactItem): Record<string, unknown> | undefined {
    return item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key;
  }

  async commit(): Promise<void> {
    if (this.items.length === 0) return;
    // Whatever changes a cached catalogue item, group or the parameters moves the cache's stamp
    // in the same transaction, so no instance keeps serving the old copy (catalogCache.ts).
    if (this.items.some((item) => { const key = WriteTransaction.writtenKey(item); return key !== undefined && touchesCachedItem(key); })) {
      this.updateOnce(stampIncrement.key, stampIncrement.update);
    }
    if (this.items.length > 100) {
      throw new TrackerError(32000, 'This change touches too many items to be made at once; split it into smaller changes.');
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await documentClient().send(new TransactWriteCommand({ TransactItems: this.items }));
        forgetRequestReads();
        return;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        reasons.forEach((reason, index) => {
          const failure = this.failures[index];
          if (reason.Code === 'ConditionalCheckFailed' && failure) throw failure();
        });
        // Another transaction touched the same items at the same moment: the write is whole
        // or absent, so it is safe to try again after a short, jittered pause.
        if (!reasons.some((reason) => reason.Code === 'TransactionConflict')) throw error;
        if (attempt >= MAX_CONFLICT_ATTEMPTS) {
          throw new TrackerError(32000, 'Someone else changed the same data at the same moment. Nothing was saved; please try again.');
        }
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
      }
    }
  }
}

const MAX_CONFLICT_ATTEMPTS = 4;
