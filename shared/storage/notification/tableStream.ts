import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import { dynamoClientConfig } from '../dynamoClient.ts';
import type { TableStreamRecord } from './streamRecords.ts';

/**
 * Reads the table's change stream through the streams API, as Lambda's event source mapping
 * does on AWS: the local publisher (`npm start`, the tests) polls it with this. Shards are read
 * parents first; a closed shard ends, an open one is caught up when a read returns nothing.
 */
export interface StreamShard {
  shardId: string;
  parentShardId?: string;
}

/** Where to read a shard from: its start, a record (to read it again), or after one. */
export type ShardStart =
  | { type: 'TRIM_HORIZON' | 'LATEST' }
  | { type: 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER'; sequenceNumber: string };

export interface StreamPage {
  records: TableStreamRecord[];
  /** Where the shard goes on; absent when a closed shard was read to its end. */
  next?: string;
}

export class TableStreamReader {
  private readonly table = new DynamoDBClient(dynamoClientConfig());
  private readonly streams = new DynamoDBStreamsClient(dynamoClientConfig());

  constructor(private readonly tableName: string) {}

  /** The table's current stream; undefined when it has none. */
  async streamArn(): Promise<string | undefined> {
    const { Table } = await this.table.send(new DescribeTableCommand({ TableName: this.tableName }));
    return Table?.StreamSpecification?.StreamEnabled ? Table.LatestStreamArn : undefined;
  }

  /** Every shard of the stream, parents before their children. */
  async shards(streamArn: string): Promise<StreamShard[]> {
    const shards: StreamShard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      );
      for (const shard of StreamDescription?.Shards ?? [])
        if (shard.ShardId)
          shards.push({
            shardId: shard.ShardId,
            ...(shard.ParentShardId ? { parentShardId: shard.ParentShardId } : {}),
          });
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    const known = new Set(shards.map((shard) => shard.shardId));
    const ordered: StreamShard[] = [];
    const placed = new Set<string>();
    const place = (shard: StreamShard) => {
      if (placed.has(shard.shardId)) return;
      const parent = shard.parentShardId && known.has(shard.parentShardId) ? shard.parentShardId : undefined;
      if (parent) place(shards.find((candidate) => candidate.shardId === parent)!);
      placed.add(shard.shardId);
      ordered.push(shard);
    };
    for (const shard of shards) place(shard);
    return ordered;
  }

  async iterator(streamArn: string, shardId: string, start: ShardStart): Promise<string | undefined> {
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: start.type as ShardIteratorType,
        ...('sequenceNumber' in start ? { SequenceNumber: start.sequenceNumber } : {}),
      }),
    );
    return ShardIterator;
  }

  async read(iterator: string, limit = 1000): Promise<StreamPage> {
    const { Records, NextShardIterator } = await this.streams.send(
      new GetRecordsCommand({ ShardIterator: iterator, Limit: limit }),
    );
    return {
      records: (Records ?? []) as TableStreamRecord[],
      ...(NextShardIterator ? { next: NextShardIterator } : {}),
    };
  }

  close(): void {
    this.table.destroy();
    this.streams.destroy();
  }
}
