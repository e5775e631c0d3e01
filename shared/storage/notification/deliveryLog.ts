import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../dynamoClient.ts';
import { notificationKeys } from '../keys.ts';
import { queryAll } from '../tableReads.ts';

/**
 * What the publisher has delivered of one bug change: a marker per mail (message id and
 * recipient), event (its id) and webhook delivery, written right after the delivery succeeded.
 * The stream hands a batch over at least once; a batch handed over again finds the markers and
 * sends only what is not marked, so a retry after a failure half-way resends nothing that went
 * out. The one gap: a crash between a delivery and its marker, where that one delivery is made
 * again on the retry. Marking before sending would close it by opening a worse one (a crash
 * after the mark loses the mail for good), so Tracker marks after: a message may come twice,
 * never not at all. A repeated mail has the same Message-ID and a repeated event the same id,
 * so a mail system or a consumer can drop it. Markers expire after a few days, long after the
 * stream (24 hours) can hand the change over again.
 */
export type DeliveryChannel = 'mail' | 'event' | 'webhook';

export const DELIVERY_MARKER_DAYS = 3;

const digestOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);

export interface DeliveryLog {
  has(channel: DeliveryChannel, key: string): boolean;
  /**
   * Records a delivery. False when a marker was already there: another run delivered the same
   * message at the same time (the stream's own consumer never overlaps itself on one bug).
   */
  mark(channel: DeliveryChannel, key: string): Promise<boolean>;
}

/** The markers of one change (bug and revision): one strongly consistent Query. */
export async function deliveryLogOf(bugId: number, rev: number): Promise<DeliveryLog> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': notificationKeys.deliveryPartition(bugId),
      ':prefix': notificationKeys.deliveryPrefix(rev),
    },
    ProjectionExpression: 'sk',
    ConsistentRead: true,
  });
  const marked = new Set(items.map((item) => String(item.sk)));
  const keyOf = (channel: DeliveryChannel, key: string) =>
    notificationKeys.delivery(bugId, rev, channel, digestOf(key));
  return {
    has: (channel, key) => marked.has(keyOf(channel, key).sk),
    async mark(channel, key) {
      const itemKey = keyOf(channel, key);
      marked.add(itemKey.sk);
      try {
        await documentClient().send(
          new PutCommand({
            TableName: tableName(),
            Item: {
              ...itemKey,
              type: 'delivered',
              bugId,
              rev,
              channel,
              // What was delivered, readable (a mail's message id and recipient, an event id).
              delivery: key.slice(0, 500),
              at: new Date().toISOString(),
              expiresAt: Math.floor(Date.now() / 1000) + DELIVERY_MARKER_DAYS * 86_400,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
  };
}
