import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inRequestScope } from '../../shared/runtime/requestScope.ts';
import { documentClient, tableName } from '../../shared/storage/dynamoClient.ts';
import { readItem, readItems } from '../../shared/storage/itemReads.ts';
import { expectError, fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Reads of one request travel together (shared/storage/itemReads.ts) and the bug read endpoints
 * prefetch before authentication. Counted here as DynamoDB sees them: every call the handlers
 * send (the test app runs in this process; Node's http client reports each request, and the
 * test's own fetch calls to the API do not go through it).
 */
let app: TestApp;
let admin: string;

let sent: string[] = [];
const onRequest = (message: unknown) => {
  const target = (message as { request: ClientRequest }).request.getHeader('x-amz-target');
  if (typeof target === 'string' && target.startsWith('DynamoDB_')) sent.push(target.split('.')[1]!);
};

/** The DynamoDB operations that one piece of work sends. */
async function callsOf(work: () => Promise<unknown>): Promise<string[]> {
  sent = [];
  await work();
  const calls = sent;
  sent = [];
  return calls;
}

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  subscribe('http.client.request.start', onRequest);
});

afterAll(async () => {
  unsubscribe('http.client.request.start', onRequest);
  await app.close();
});

const putRaw = (item: Record<string, unknown>) =>
  documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));

describe('item reads of one request', () => {
  it('asks for the items wanted in the same turn in one BatchGetItem, in the order asked', async () => {
    await Promise.all([
      putRaw({ pk: 'TEST#batch', sk: 'a', value: 1 }),
      putRaw({ pk: 'TEST#batch', sk: 'b', value: 2 }),
    ]);
    let items: unknown[] = [];
    const calls = await callsOf(() =>
      inRequestScope(async () => {
        items = await Promise.all([
          readItem({ pk: 'TEST#batch', sk: 'b' }),
          readItem({ pk: 'TEST#batch', sk: 'missing' }),
          readItem({ pk: 'TEST#batch', sk: 'a' }),
        ]);
      }),
    );
    expect(calls).toEqual(['BatchGetItem']);
    expect(items).toEqual([
      { pk: 'TEST#batch', sk: 'b', value: 2 },
      undefined,
      { pk: 'TEST#batch', sk: 'a', value: 1 },
    ]);
  });

  it('reads an item once per request, and afresh after a write', async () => {
    await putRaw({ pk: 'TEST#memo', sk: 'x', value: 'first' });
    const seen: unknown[] = [];
    const calls = await callsOf(() =>
      inRequestScope(async () => {
        seen.push((await readItem({ pk: 'TEST#memo', sk: 'x' }))?.value);
        seen.push((await readItem({ pk: 'TEST#memo', sk: 'x' }))?.value);
        await putRaw({ pk: 'TEST#memo', sk: 'x', value: 'second' });
        seen.push((await readItem({ pk: 'TEST#memo', sk: 'x' }))?.value);
      }),
    );
    expect(seen).toEqual(['first', 'first', 'second']);
    expect(calls).toEqual(['BatchGetItem', 'PutItem', 'BatchGetItem']);
  });

  it('never merges two requests into one batch, and splits more than 100 keys', async () => {
    const key = { pk: 'TEST#memo', sk: 'x' };
    expect(
      await callsOf(() => Promise.all([inRequestScope(() => readItem(key)), inRequestScope(() => readItem(key))])),
    ).toEqual(['BatchGetItem', 'BatchGetItem']);
    const many = Array.from({ length: 250 }, (_, index) => ({ pk: 'TEST#many', sk: String(index) }));
    await Promise.all(many.slice(0, 3).map((item, index) => putRaw({ ...item, index })));
    let found: Array<Record<string, unknown>> = [];
    const calls = await callsOf(() =>
      inRequestScope(async () => {
        found = await readItems(many);
      }),
    );
    expect(calls).toEqual(['BatchGetItem', 'BatchGetItem', 'BatchGetItem']);
    expect(found.map((item) => item.index)).toEqual([0, 1, 2]);
  });

  it('reads every attribute type as the document client would, binary included', async () => {
    const item = {
      pk: 'TEST#types',
      sk: 'all',
      text: 'say "B": {"S": "x"}',
      number: 42.5,
      yes: true,
      nothing: null,
      list: [1, 'two', { three: 3 }],
      map: { nested: ['a'] },
      bytes: Buffer.from([0, 1, 2, 250]),
      // Binary values inside a list and a map, a set of them, and an attribute named as the type.
      B: { S: 'not binary' },
      deep: { list: [Buffer.from([7]), { blob: Buffer.from([8, 9]) }] },
      blobs: new Set([Buffer.from([1]), Buffer.from([2, 3])]),
    };
    await putRaw(item);
    const read = await inRequestScope(() => readItem({ pk: 'TEST#types', sk: 'all' }));
    const { bytes, B, deep, blobs, ...rest } = read!;
    expect(B).toEqual({ S: 'not binary' });
    const [seven, nested] = (deep as { list: [Uint8Array, { blob: Uint8Array }] }).list;
    expect(seven).toBeInstanceOf(Uint8Array);
    expect([...seven]).toEqual([7]);
    expect([...nested.blob]).toEqual([8, 9]);
    expect([...(blobs as Set<Uint8Array>)].map((blob) => [...blob]).sort()).toEqual([[1], [2, 3]]);
    expect(rest).toEqual({
      pk: 'TEST#types',
      sk: 'all',
      text: 'say "B": {"S": "x"}',
      number: 42.5,
      yes: true,
      nothing: null,
      list: [1, 'two', { three: 3 }],
      map: { nested: ['a'] },
    });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...(bytes as Uint8Array)]).toEqual([0, 1, 2, 250]);
  });

  it('hands out frozen items: a reader that changes what it read fails instead of changing it for the others', async () => {
    await inRequestScope(async () => {
      const item = await readItem({ pk: 'TEST#batch', sk: 'a' });
      expect(() => {
        (item as Record<string, unknown>).value = 3;
      }).toThrow(TypeError);
    });
  });
});

describe('bug reads', () => {
  let bugId: number;
  let secretId: number;
  let stranger: string;

  beforeAll(async () => {
    await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'hidden', description: 'Hidden bugs' } }));
    await ok(
      call(app, 'PUT', '/rest/product/TestProduct', {
        apiKey: admin,
        body: { group_controls: [{ group: 'hidden', membercontrol: 'SHOWN', othercontrol: 'NA' }] },
      }),
    );
    stranger = await userWithKey(app, 'stranger');
    await userWithKey(app, 'watcher');
    bugId = await fileTestBug(app, admin, { cc: ['watcher@tracker.test'], alias: 'batched' });
    secretId = await fileTestBug(app, admin, { groups: ['hidden'], summary: 'Secret plans', alias: 'secretplans' });
    await ok(
      call(app, 'PUT', `/rest/bug/${bugId}`, {
        apiKey: admin,
        body: { priority: 'High', comment: { body: 'Raised.' } },
      }),
    );
    await ok(
      call(app, 'POST', `/rest/bug/${bugId}/attachment`, {
        apiKey: admin,
        body: {
          data: Buffer.from('hello').toString('base64'),
          file_name: 'a.txt',
          summary: 'A file',
          content_type: 'text/plain',
        },
      }),
    );
    // The first request of an instance also fills its catalogue cache; measure warm requests.
    for (const path of [
      `/rest/bug/${bugId}`,
      `/rest/bug/${bugId}/history`,
      `/rest/bug/${bugId}/comment`,
      `/rest/bug/${bugId}/attachment`,
    ])
      await ok(call(app, 'GET', path, { apiKey: admin }));
  });

  it("GET bug: the API key, stamp and bug in one call; the caller and the bug's people are users the instance holds", async () => {
    let body: any;
    const calls = await callsOf(async () => {
      body = await ok(call(app, 'GET', `/rest/bug/${bugId}`, { apiKey: admin }));
    });
    expect(calls).toEqual(['BatchGetItem']);
    expect(body.bugs[0]).toMatchObject({
      id: bugId,
      alias: 'batched',
      priority: 'High',
      cc: ['watcher@tracker.test'],
      creator: 'admin@tracker.test',
    });
  });

  it("history, comments and attachments add one Query for the bug's partition", async () => {
    for (const path of [
      `/rest/bug/${bugId}/history`,
      `/rest/bug/${bugId}/comment`,
      `/rest/bug/${bugId}/attachment?exclude_fields=data`,
    ]) {
      const calls = await callsOf(() => ok(call(app, 'GET', path, { apiKey: admin })));
      expect(calls.sort(), path).toEqual(['BatchGetItem', 'Query']);
    }
  });

  it('prefetching shows nothing the caller may not see: 102 by id and by alias, for each read', async () => {
    for (const reference of [String(secretId), 'secretplans']) {
      for (const suffix of ['', '/history', '/comment', '/attachment']) {
        const response = await call(app, 'GET', `/rest/bug/${reference}${suffix}`, { apiKey: stranger });
        expectError(response, 102, 401);
        expect(response.text).not.toContain('Secret plans');
      }
    }
    expectError(await call(app, 'GET', `/rest/bug/${secretId}`), 102, 401);
  });

  it('a bad API key is refused even though the bug was already read', async () => {
    expectError(await call(app, 'GET', `/rest/bug/${bugId}`, { apiKey: 'x'.repeat(40) }), 306, 400);
  });

  it('a change is read by the very next request', async () => {
    await ok(call(app, 'PUT', `/rest/bug/${bugId}`, { apiKey: admin, body: { priority: 'Low' } }));
    expect((await ok(call(app, 'GET', `/rest/bug/${bugId}`, { apiKey: admin }))).bugs[0].priority).toBe('Low');
  });
});
