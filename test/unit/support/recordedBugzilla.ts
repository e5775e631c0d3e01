import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A Bugzilla 5.2 that answers from recordings (test/fixtures/bugzilla-5.2/), since a real one
 * cannot run here. It behaves as stock 5.2 does where the importer depends on it: the API key
 * is read from the `Bugzilla_api_key` parameter only (5.2 ignores the header), a wrong key is
 * error 306, a path's bug merges with `ids`, `permissive=1` is ignored as the real 5.2 ignores it
 * over REST (the first unreadable id fails the whole request: 101 with HTTP 404, 102 with 401),
 * and there is no `whoami` or `keyword` route (32614). `inject` makes the next requests to a
 * path fail (429 with Retry-After, 500, a request left hanging, an HTML page).
 */

export const RECORDED_KEY = 'recorded-admin-key';
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

export const fixture = (name: string): any => {
  const recorded = JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
  return 'response' in recorded && 'request' in recorded ? recorded.response : recorded;
};

type Fault = '429' | '500' | 'hang' | 'html';

export interface RecordedBugzilla {
  url: string;
  /** Requests seen, as path plus query (the key removed), in order. */
  requests: string[];
  /** The next `times` requests whose path is `path` answer with `fault`. */
  inject(path: string, fault: Fault, times?: number): void;
  /**
   * A hostile source (issue 41): changes an answer before it is sent (`body` is the JSON the
   * recording gives; what is returned is sent instead, as JSON or, for a Buffer, as bytes).
   */
  rewrite: ((path: string, query: URLSearchParams, body: unknown) => unknown) | null;
  /** Answers a request itself (a redirect, an endless body...) when it returns true. */
  intercept: ((request: IncomingMessage, response: ServerResponse) => boolean) | null;
  close(): Promise<void>;
}

const envelope = (code: number, message: string) => ({ error: true, code, message });

/** Bugs 1 and 1204 are recorded; 1205 exists but is in a group the account is not in. */
const HIDDEN_BUG = 1205;

export async function startRecordedBugzilla(): Promise<RecordedBugzilla> {
  const faults: Array<{ path: string; fault: Fault; times: number }> = [];
  const requests: string[] = [];
  const hanging: ServerResponse[] = [];
  const bugs = new Map<number, any>(
    [fixture('bugzilla-5.2/bug-all-fields.json'), fixture('bugzilla-5.2/bug-all-fields-after.json')].map((answer) => [
      answer.bugs[0].id,
      answer.bugs[0],
    ]),
  );
  const comments = {
    ...fixture('bugzilla-5.2/bug-comments.json').bugs,
    ...fixture('bugzilla-5.2/comments-after.json').bugs,
  };
  const history = [
    ...fixture('bugzilla-5.2/bug-history.json').bugs.map((bug: any) => ({ ...bug, id: 1 })),
    ...fixture('bugzilla-5.2/bug-history-after.json').bugs,
  ];
  const attachmentList = fixture('bugzilla-5.2/attachments-of-bug.json').bugs;
  const attachmentBodies = fixture('bugzilla-5.2/attachment-get.json').attachments;
  const users = fixture('bugzilla-5.2/user-by-id.json').users;
  const groups = fixture('bugzilla-5.2/groups-membership.json').groups;

  function answer(path: string, query: URLSearchParams, loggedIn: boolean): { status: number; body: unknown } {
    const all = (name: string) => query.getAll(name).flatMap((value) => value.split(','));
    const needsLogin = () => (loggedIn ? null : { status: 401, body: envelope(410, 'You must log in.') });
    if (path === '/rest/version') return { status: 200, body: fixture('bugzilla-5.2/version.json') };
    if (path === '/rest/extensions') return { status: 200, body: fixture('bugzilla-5.2/extensions.json') };
    if (path === '/rest/valid_login')
      return { status: 200, body: { result: loggedIn && query.get('login') === 'admin@example.com' } };
    if (path === '/rest/parameters')
      return {
        status: 200,
        body: fixture(loggedIn ? 'bugzilla-5.2/parameters-admin.json' : 'bugzilla-5.2/parameters-anonymous.json'),
      };
    if (path === '/rest/group') {
      const names = all('names');
      const membership = query.get('membership') === '1';
      return (
        needsLogin() ?? {
          status: 200,
          body: {
            groups: groups
              .filter((group: any) => names.length === 0 || names.includes(group.name))
              .map(({ membership: members, ...group }: any) =>
                membership ? { ...group, membership: members } : group,
              ),
          },
        }
      );
    }
    const user = path.match(/^\/rest\/user(?:\/(\d+))?$/);
    if (user) {
      const ids = [...(user[1] ? [user[1]] : []), ...all('ids')].map(Number);
      const fields = all('include_fields');
      const select = (user: any) =>
        fields.length === 0 ? user : Object.fromEntries(Object.entries(user).filter(([key]) => fields.includes(key)));
      return (
        needsLogin() ?? { status: 200, body: { users: users.filter((user: any) => ids.includes(user.id)).map(select) } }
      );
    }
    if (path === '/rest/field/bug') return { status: 200, body: fixture('bugzilla-5.2/field-bug.json') };
    if (path === '/rest/product' && query.get('type') === 'accessible')
      return { status: 200, body: fixture('bugzilla-5.2/products-accessible.json') };
    if (path === '/rest/flag_type/TestProduct')
      return { status: 200, body: fixture('bugzilla-5.2/flag-types-of-product.json') };
    if (path === '/rest/classification/Unclassified')
      return { status: 200, body: fixture('bugzilla-5.2/classification.json') };
    // Not recorded: the id-ordered search for the last bug, in the shape of a 5.2 search answer.
    if (path === '/rest/bug' && query.get('order') === 'bug_id DESC')
      return { status: 200, body: { bugs: [{ id: 1204 }] } };
    // The id search that learns which bugs exist: the visible ones above v1, ascending.
    if (path === '/rest/bug' && query.get('f1') === 'bug_id' && query.get('o1') === 'greaterthan') {
      const after = Number(query.get('v1'));
      const limit = Number(query.get('limit') ?? 10_000) || 10_000;
      const ids = [...bugs.keys()].filter((id) => id > after).sort((a, b) => a - b);
      return { status: 200, body: { bugs: ids.slice(0, limit).map((id) => ({ id })) } };
    }
    const bug = path.match(/^\/rest\/bug\/(\d+)(\/comment|\/history|\/attachment)?$/);
    if (bug) {
      const ids = [Number(bug[1]), ...all('ids').map(Number)];
      if (bug[2] === undefined) {
        const faults = ids
          .filter((id) => !bugs.has(id))
          .map((id) =>
            id === HIDDEN_BUG
              ? { id, faultCode: 102, faultString: `You are not authorized to access bug #${id}.` }
              : { id, faultCode: 101, faultString: `Bug #${id} does not exist.` },
          );
        if (faults.length > 0)
          return {
            status: faults[0].faultCode === 101 ? 404 : 401,
            body: envelope(faults[0].faultCode, faults[0].faultString),
          };
        return { status: 200, body: { bugs: ids.filter((id) => bugs.has(id)).map((id) => bugs.get(id)), faults } };
      }
      const unknown = ids.find((id) => !bugs.has(id));
      if (unknown !== undefined) return { status: 404, body: envelope(101, `Bug #${unknown} does not exist.`) };
      if (bug[2] === '/comment')
        return { status: 200, body: { bugs: Object.fromEntries(ids.map((id) => [id, comments[id]])), comments: {} } };
      if (bug[2] === '/history')
        return { status: 200, body: { bugs: history.filter((bug: any) => ids.includes(bug.id)) } };
      return {
        status: 200,
        body: { bugs: Object.fromEntries(ids.map((id) => [id, attachmentList[id] ?? []])), attachments: {} },
      };
    }
    const attachment = path.match(/^\/rest\/bug\/attachment\/(\d+)$/);
    if (attachment) {
      const ids = [attachment[1], ...all('attachment_ids')];
      return {
        status: 200,
        body: { bugs: {}, attachments: Object.fromEntries(ids.map((id) => [id, attachmentBodies[id]])) },
      };
    }
    return { status: 404, body: envelope(32614, `A REST API resource was not found for 'GET ${path}'.`) };
  }

  function serve(request: IncomingMessage, response: ServerResponse) {
    if (recorded.intercept?.(request, response)) return;
    const url = new URL(request.url ?? '/', 'http://recorded');
    const key = url.searchParams.get('Bugzilla_api_key');
    url.searchParams.delete('Bugzilla_api_key');
    requests.push(`${url.pathname}${url.search}`);
    const fault = faults.find((entry) => entry.path === url.pathname && entry.times > 0);
    if (fault) {
      fault.times--;
      if (fault.fault === 'hang') {
        hanging.push(response);
        return;
      }
      if (fault.fault === 'html') {
        response.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>It works!</body></html>');
        return;
      }
      const status = Number(fault.fault);
      response
        .writeHead(status, { 'Content-Type': 'text/plain', ...(status === 429 ? { 'Retry-After': '1' } : {}) })
        .end(status === 429 ? 'Too Many Requests' : 'Internal Server Error');
      return;
    }
    // Stock 5.2 reads the key from parameters only, and checks it on every call.
    const { status, body: recordedBody } =
      key !== null && key !== RECORDED_KEY
        ? { status: 400, body: envelope(306, 'The API key you specified is invalid.') }
        : answer(url.pathname, url.searchParams, key === RECORDED_KEY);
    const body = recorded.rewrite
      ? recorded.rewrite(url.pathname, url.searchParams, structuredClone(recordedBody))
      : recordedBody;
    response
      .writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' })
      .end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
  }

  const server: Server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const recorded: RecordedBugzilla = {
    url: `http://127.0.0.1:${port}/rest`,
    requests,
    rewrite: null,
    intercept: null,
    inject: (path, fault, times = 1) => faults.push({ path, fault, times }),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return recorded;
}
