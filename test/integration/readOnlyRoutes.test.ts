import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_WRITE_PARTITIONS } from '../../lib/functionRoles.ts';
import { routes } from '../../shared/routes.ts';
import { documentClient } from '../../shared/storage/dynamoClient.ts';
import { type CallOptions, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Read-only routes run with a role that may only update or delete items in the partitions
 * authentication stamps (lib/functionRoles.ts). DynamoDB Local enforces no IAM, so this test
 * records every write the handlers send while serving read-only routes and checks each one
 * against what that role allows.
 */
interface RecordedWrite {
  command: string;
  partitions: string[];
}

let app: TestApp;
const writes: RecordedWrite[] = [];
const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

/** The partition key, marshalled (`{S: ...}`) or not, depending on where in the stack we look. */
const text = (value: any): string => (typeof value === 'string' ? value : String(value?.S ?? '<unknown>'));

function partitionsOf(input: Record<string, any>): string[] {
  if (input.Key) return [text(input.Key.pk)];
  if (input.Item) return [text(input.Item.pk)];
  if (input.TransactItems)
    return input.TransactItems.flatMap((item: Record<string, any>) => partitionsOf(Object.values(item)[0]));
  return ['<unknown>'];
}

beforeAll(async () => {
  app = await startTestApp();
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (WRITE_COMMANDS.has(context.commandName ?? ''))
        writes.push({ command: context.commandName!, partitions: partitionsOf(args.input as Record<string, any>) });
      return next(args);
    },
    { step: 'initialize', name: 'recordWrites' },
  );
});
afterAll(async () => {
  await app?.close();
});

const allowedPartition = (partition: string) =>
  AUTHENTICATION_WRITE_PARTITIONS.some((pattern) => partition.startsWith(pattern.replace(/\*$/, '')));

/** Fills path variables with values that exist in a new installation. */
const samplePath = (path: string) =>
  path
    .replace('{id_or_name}', '1')
    .replace('{id_or_product}', '1')
    .replace(/\{[^}]+\}/g, 'x');

describe('read-only routes', () => {
  const readOnly = routes.filter((route) => route.readOnly);

  // One test per kind of credential: bounded work each (a call per read-only route; a password
  // login hashes with scrypt), so none races the clock on a busy machine.
  const credentials: Array<[string, () => CallOptions, boolean]> = [
    ['an API key', () => ({ apiKey: app.admin.apiKey }), true],
    [
      'a wrong password',
      () => ({ query: { Bugzilla_login: app.admin.login, Bugzilla_password: 'wrong password' } }),
      true,
    ],
    [
      'the right password',
      () => ({ query: { Bugzilla_login: app.admin.login, Bugzilla_password: app.admin.password } }),
      false,
    ],
    ['no credentials', () => ({}), false],
  ];

  it.each(credentials)(
    'write nothing but authentication stamps, as updates or deletes, with %s',
    async (_, options, stamps) => {
      writes.length = 0;
      for (const route of readOnly) await call(app, route.method, samplePath(route.path), options());
      // The API key's stamp and the failed login's count are writes this test must have seen.
      if (stamps) expect(writes.length).toBeGreaterThan(0);
      const refused = writes.filter(
        (write) =>
          !['UpdateItemCommand', 'DeleteItemCommand'].includes(write.command) ||
          !write.partitions.every(allowedPartition),
      );
      expect(refused).toEqual([]);
    },
  );
});
