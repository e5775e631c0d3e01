import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildEvent } from '../../local/apiGatewayEmulator.ts';
import { RouteMatcher } from '../../shared/http/routeMatcher.ts';
import { type HttpMethod, routes } from '../../shared/routes.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The catalogue cache across function instances. Each "instance" below is its own copy of the
 * handler modules and everything they import (vi.resetModules before importing them), so it has
 * its own cache and its own DynamoDB client, like two warm Lambdas of different functions. A
 * write through one must be seen by the very next request on the other.
 */
let app: TestApp;
const matcher = new RouteMatcher(routes);

/** Literal imports (vite resolves only those), evaluated anew after each vi.resetModules. */
const MODULES: Record<string, () => Promise<{ handler: unknown }>> = {
  'product/getProducts': () => import('../../functions/product/getProducts.ts'),
  'product/updateProduct': () => import('../../functions/product/updateProduct.ts'),
  'group/getGroups': () => import('../../functions/group/getGroups.ts'),
  'group/createGroup': () => import('../../functions/group/createGroup.ts'),
  'instance/getParameters': () => import('../../functions/instance/getParameters.ts'),
  'instance/updateParameters': () => import('../../functions/instance/updateParameters.ts'),
  'field/legalValues': () => import('../../functions/field/legalValues.ts'),
  'field/getFields': () => import('../../functions/field/getFields.ts'),
  'keyword/createKeyword': () => import('../../functions/keyword/createKeyword.ts'),
  'user/whoami': () => import('../../functions/user/whoami.ts'),
  'user/updateUser': () => import('../../functions/user/updateUser.ts'),
  'user/getUsers': () => import('../../functions/user/getUsers.ts'),
  'user/createUser': () => import('../../functions/user/createUser.ts'),
};

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;

interface Instance {
  call(
    method: HttpMethod,
    path: string,
    options?: { apiKey?: string; body?: unknown },
  ): Promise<{ status: number; body: any }>;
  /** DynamoDB commands this instance sent since the last call to `commands`. */
  commands(): string[];
}

async function newInstance(): Promise<Instance> {
  vi.resetModules();
  const handlers = new Map<string, Handler>();
  for (const [module, load] of Object.entries(MODULES)) handlers.set(module, (await load()).handler as Handler);
  const { documentClient, lowLevelReadClient } = await import('../../shared/storage/dynamoClient.ts');
  let sent: string[] = [];
  for (const client of [documentClient(), lowLevelReadClient()]) {
    client.middlewareStack.add(
      (next, context) => (args) => {
        sent.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'countCommands' },
    );
  }
  return {
    async call(method, path, options = {}) {
      const match = matcher.match(method, path.split('?')[0]!);
      if (!match) throw new Error(`no route for ${method} ${path}`);
      const handler = handlers.get(match.route.handler);
      if (!handler) throw new Error(`${match.route.handler} is not loaded in this instance`);
      const headers: Record<string, string> = { host: 'localhost' };
      if (options.apiKey) headers['x-bugzilla-api-key'] = options.apiKey;
      const body = options.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(options.body));
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const event = buildEvent(
        { method, url: path, headers, body },
        `${method} ${match.route.path}`,
        Object.keys(match.pathParameters).length ? match.pathParameters : undefined,
        randomUUID(),
      );
      const result = await handler(event, { awsRequestId: randomUUID() });
      return { status: result.statusCode, body: JSON.parse(result.body) };
    },
    commands() {
      const commands = sent;
      sent = [];
      return commands;
    },
  };
}

let first: Instance;
let second: Instance;

beforeAll(async () => {
  app = await startTestApp();
  first = await newInstance();
  second = await newInstance();
});
afterAll(async () => {
  await app?.close();
});

describe('the catalogue cache', () => {
  it('serves a repeated catalogue read from the instance after one consistent stamp read', async () => {
    expect((await second.call('GET', '/rest/product/TestProduct')).status).toBe(200);
    second.commands();
    const again = await second.call('GET', '/rest/product/TestProduct');
    expect(again.status).toBe(200);
    // The stamp alone: the component owners are users the instance already holds; no listing Query.
    expect(second.commands()).toEqual(['BatchGetItemCommand']);
  });

  it('shows a product change made through one instance on the next request to the other', async () => {
    expect((await second.call('GET', '/rest/product/TestProduct')).body.products[0].description).not.toBe(
      'Changed elsewhere',
    );
    const changed = await first.call('PUT', '/rest/product/TestProduct', {
      apiKey: app.admin.apiKey,
      body: { description: 'Changed elsewhere' },
    });
    expect(changed.status).toBe(200);
    second.commands();
    const seen = await second.call('GET', '/rest/product/TestProduct');
    expect(seen.body.products[0].description).toBe('Changed elsewhere');
    expect(second.commands()).toContain('QueryCommand');
  });

  it('shows a new group to the other instance', async () => {
    expect(
      (await second.call('GET', '/rest/group', { apiKey: app.admin.apiKey })).body.groups.map(
        (group: { name: string }) => group.name,
      ),
    ).not.toContain('cachetesters');
    const created = await first.call('POST', '/rest/group', {
      apiKey: app.admin.apiKey,
      body: { name: 'cachetesters', description: 'Cache testers' },
    });
    expect(created.status).toBe(200);
    const listed = await second.call('GET', '/rest/group', { apiKey: app.admin.apiKey });
    expect(listed.body.groups.map((group: { name: string }) => group.name)).toContain('cachetesters');
  });

  it('shows changed parameters and keywords to the other instance', async () => {
    expect(
      (await second.call('GET', '/rest/parameters', { apiKey: app.admin.apiKey })).body.parameters.maintainer,
    ).not.toBe('cache@example.com');
    expect(
      (
        await first.call('PUT', '/rest/parameters', {
          apiKey: app.admin.apiKey,
          body: { maintainer: 'cache@example.com' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await second.call('GET', '/rest/parameters', { apiKey: app.admin.apiKey })).body.parameters.maintainer,
    ).toBe('cache@example.com');

    const keywordValues = async () => {
      const { body } = await second.call('GET', '/rest/field/bug/keywords');
      return (body.fields[0].values as Array<{ name: string }>).map((value) => value.name);
    };
    expect(await keywordValues()).not.toContain('cached');
    expect(
      (
        await first.call('POST', '/rest/keyword', {
          apiKey: app.admin.apiKey,
          body: { name: 'cached', description: 'Seen everywhere' },
        })
      ).status,
    ).toBe(200);
    expect(await keywordValues()).toContain('cached');
  });

  it('reads a known caller in one call: the API key beside the stamp', async () => {
    await second.call('GET', '/rest/whoami', { apiKey: app.admin.apiKey });
    second.commands();
    expect((await second.call('GET', '/rest/whoami', { apiKey: app.admin.apiKey })).status).toBe(200);
    expect(second.commands()).toEqual(['BatchGetItemCommand']);
  });

  it('shows a user change made through one instance on the next request to the other', async () => {
    const created = await first.call('POST', '/rest/user', {
      apiKey: app.admin.apiKey,
      body: { email: 'cached@tracker.test', password: 'cached-password', full_name: 'Before' },
    });
    expect(created.status).toBe(200);
    const named = async () =>
      (await second.call('GET', '/rest/user/cached@tracker.test', { apiKey: app.admin.apiKey })).body.users[0]
        .real_name;
    expect(await named()).toBe('Before');
    expect(await named()).toBe('Before');
    expect(
      (
        await first.call('PUT', '/rest/user/cached@tracker.test', {
          apiKey: app.admin.apiKey,
          body: { full_name: 'After' },
        })
      ).status,
    ).toBe(200);
    expect(await named()).toBe('After');
    // The administrator's own groups, changed elsewhere, apply to the very next request too.
    const me = async () => (await second.call('GET', '/rest/whoami', { apiKey: app.admin.apiKey })).body.real_name;
    const before = await me();
    expect(
      (
        await first.call('PUT', `/rest/user/${app.admin.id}`, {
          apiKey: app.admin.apiKey,
          body: { full_name: 'Renamed Admin' },
        })
      ).status,
    ).toBe(200);
    expect(await me()).toBe('Renamed Admin');
    expect(
      (await first.call('PUT', `/rest/user/${app.admin.id}`, { apiKey: app.admin.apiKey, body: { full_name: before } }))
        .status,
    ).toBe(200);
  });
});
