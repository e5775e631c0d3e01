import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rangeWindows } from '../../local/import/destination/bugRanges.ts';
import {
  createBugzillaClient,
  ImportStopped,
  probeUnlistedIds,
  readUsers,
  SourceDataError,
  SourceRequestError,
} from '../../local/import/source/index.ts';
import { RECORDED_KEY, type RecordedBugzilla, startRecordedBugzilla } from './support/recordedBugzilla.ts';

/**
 * The importer's client and readers against a source that is not to be trusted (issue 41), the
 * recorded Bugzilla 5.2 made hostile: a redirect to another origin (which must not receive the
 * API key), an endless answer, Ctrl-C during a request that never ends, a user at every id and
 * ids up to 2^31−1 between two listed bugs.
 */

let bugzilla: RecordedBugzilla;
/** Another origin: what it was sent, header by header. */
let elsewhere: { url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> };

beforeAll(async () => {
  bugzilla = await startRecordedBugzilla();
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push({ ...request.headers, url: request.url });
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"version":"5.2"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  elsewhere = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});

afterEach(() => {
  bugzilla.intercept = null;
  bugzilla.rewrite = null;
});

afterAll(async () => {
  await bugzilla.close();
  await elsewhere.close();
});

const client = (options: Parameters<typeof createBugzillaClient>[0] extends infer O ? Partial<O> : never = {}) =>
  createBugzillaClient({ baseUrl: bugzilla.url, apiKey: RECORDED_KEY, backoffBaseMs: 10, retries: 0, ...options });

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as Error,
  );

describe('redirects', () => {
  it('refuses one to another origin, which never sees the API key', async () => {
    bugzilla.intercept = (request, response) => {
      if (!request.url?.startsWith('/rest/version')) return false;
      response.writeHead(302, { Location: `${elsewhere.url}/rest/version` }).end();
      return true;
    };
    const error = await failureOf(client().get('/version'));
    expect(error).toBeInstanceOf(SourceRequestError);
    expect(error?.message).toMatch(/redirected to another origin \(http:\/\/127\.0\.0\.1:\d+\).*does not follow/);
    expect(error?.message).not.toContain(RECORDED_KEY);
    expect(elsewhere.seen).toEqual([]);
  });

  it('follows one within the source', async () => {
    bugzilla.intercept = (request, response) => {
      if (!request.url?.startsWith('/rest/moved')) return false;
      response.writeHead(301, { Location: '/rest/version' }).end();
      return true;
    };
    expect(await client().get('/moved')).toEqual({ version: '5.2' });
  });
});

describe('answers', () => {
  it('stops reading one past the cap, and names the request without the key', async () => {
    let sent = 0;
    bugzilla.intercept = (request, response) => {
      if (!request.url?.startsWith('/rest/field/bug')) return false;
      // An endless answer: only a reader that stops at the cap gets past it.
      response.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const more = () => {
        while (!response.destroyed && response.write(chunk)) sent += chunk.length;
      };
      response.on('drain', more);
      more();
      return true;
    };
    const error = await failureOf(client({ maxAnswerBytes: 1_000_000 }).get('/field/bug', { include_fields: '_all' }));
    expect(error).toMatchObject({ failure: 'too-large' });
    expect(error?.message).toMatch(
      /the answer to \/rest\/field\/bug\?include_fields=_all is larger than 1000000 bytes.*--max-answer-mb/,
    );
    expect(error?.message).not.toContain(RECORDED_KEY);
    expect(sent).toBeLessThan(1_000_000_000);
  });

  it('stops at once when the import is stopped, during a request that never ends', async () => {
    bugzilla.inject('/rest/product', 'hang');
    const stop = new AbortController();
    const pending = failureOf(client({ signal: stop.signal, timeoutMs: 3_600_000 }).get('/product'));
    while (!bugzilla.requests.some((request) => request.startsWith('/rest/product')))
      await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    expect(await pending).toBeInstanceOf(ImportStopped);
  });
});

describe('bounds on what a source says it holds', () => {
  it('refuses a source with a user at every id past --max-users', async () => {
    bugzilla.rewrite = (path, query, body) =>
      path === '/rest/user'
        ? { users: query.getAll('ids').map((id) => ({ id: Number(id), name: `u${id}@example.com`, real_name: '' })) }
        : body;
    const reading = (async () => {
      for await (const _batch of readUsers(client(), { maxUsers: 250 })) {
        // read on
      }
    })();
    const error = await failureOf(reading);
    expect(error).toBeInstanceOf(SourceDataError);
    expect(error?.message).toMatch(/more than 250 users \(ids 1 to 300 read so far\).*--max-users/);
  });

  it('reads the ids between listed bugs only up to a budget, however far apart they are', async () => {
    const windows = rangeWindows([1, 2_147_483_647], 1, 2_147_483_647, 100, 1_000);
    expect([...windows.chunks()].map((chunk) => [chunk[0], chunk.at(-1)])).toEqual([
      [1, 100],
      ...Array.from({ length: 10 }, (_, index) => [101 + index * 100, 200 + index * 100]),
      [2_147_483_601, 2_147_483_647],
    ]);
    expect(windows.skipped).toEqual([{ from: 1101, to: 2_147_483_600 }]);
    const probed = await probeUnlistedIds(client(), [1, 2_147_483_647], { limit: 3 });
    expect(probed.unprobed).toEqual({ from: 5, to: 2_147_483_646 });
  });
});
