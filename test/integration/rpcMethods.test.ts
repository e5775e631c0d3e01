import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RPC_METHODS } from '../../shared/http/rpc/rpcMethods.ts';
import { PYTHON } from '../support/python.ts';
import { type SeededInstallation, seedInstallation } from '../support/seededInstallation.ts';
import { fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Every RPC method of the table (shared/http/rpc/rpcMethods.ts) against its REST route, on a
 * seeded installation: the same request made over REST, over JSON-RPC (POST) and over XML-RPC
 * answers the same data. A method that writes is called on three equal objects, one per
 * protocol (three equal bugs, users, products...), and the answers are compared with what tells
 * the three apart (their ids, names, times) left out. XML-RPC answers are read by Python's own
 * xmlrpc.client, the library python-bugzilla uses; Bugzilla's XML-RPC leaves null members out
 * (XMLRPC.pm _strip_undefs), so the REST answer is compared without them.
 */
let app: TestApp;
let seeded: SeededInstallation;
let adminKey: string;
const PROTOCOLS = ['rest', 'json', 'xml'] as const;
type Protocol = (typeof PROTOCOLS)[number];

interface RestRequest {
  method: string;
  path: string;
  query?: Record<string, string | number | Array<string | number>>;
  body?: Record<string, unknown>;
  /** Defaults to the administrator's. */
  apiKey?: string | null;
}

interface Case<Target = undefined> {
  name: string;
  method: string;
  /** One target per protocol, for a method that writes; reads share one. */
  targets?: () => Promise<Target[]>;
  /** The method's parameters; the administrator's API key is added unless given. */
  rpc: (target: Target) => Record<string, unknown>;
  rest: (target: Target) => RestRequest;
  /** What differs between the targets' answers (ids, names, times), as placeholders. */
  normalize?: (answer: unknown, target: Target) => unknown;
  /** The REST answer as the method's result, where they differ (a scalar REST wraps). */
  restResult?: (answer: any, target: Target) => unknown;
  /** Called without credentials (the administrator's key otherwise, unless the parameters carry some). */
  anonymous?: boolean;
  /** The Bugzilla error code all three answer; the others succeed. */
  fault?: number;
}

const cases: Array<Case<any>> = [];
const add = <Target = undefined>(entry: Case<Target>) => cases.push(entry);

// --- Normalizing ------------------------------------------------------------------------------

const TIMES = new Set([
  'creation_time',
  'last_change_time',
  'last_visit_ts',
  'when',
  'time',
  'db_time',
  'web_time',
  'web_time_utc',
  'creation_date',
  'modification_date',
  'update_token',
  'token',
]);

/** Replaces the values (and object keys) a target is told apart by, and every time, with placeholders. */
function normalized(value: unknown, distinct: Array<string | number> = []): unknown {
  const marks = new Set(distinct.map(String));
  const walk = (node: unknown, key?: string): unknown => {
    if (key !== undefined && TIMES.has(key) && node !== null) return '<time>';
    if (Array.isArray(node)) return node.map((item) => walk(item));
    if (node !== null && typeof node === 'object')
      return Object.fromEntries(
        Object.entries(node).map(([name, item]) => [marks.has(name) ? '<target>' : name, walk(item, name)]),
      );
    if ((typeof node === 'string' || typeof node === 'number') && marks.has(String(node))) return '<target>';
    if (typeof node === 'string')
      return [...marks].reduce((text, mark) => (mark.length > 3 ? text.split(mark).join('<target>') : text), node);
    return node;
  };
  return walk(value);
}

/** What Bugzilla's XML-RPC sends of a JSON answer: null members and list entries are left out. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(withoutNulls);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== null)
        .map(([key, item]) => [key, withoutNulls(item)]),
    );
  return value;
}

// --- The three protocols ----------------------------------------------------------------------

type Outcome = { result: unknown } | { fault: { code: number; message: string } };

async function viaRest(request: RestRequest): Promise<Outcome> {
  const apiKey = request.apiKey === null ? undefined : (request.apiKey ?? adminKey);
  const response = await call(app, request.method, request.path, { apiKey, query: request.query, body: request.body });
  if (response.status !== 200) return { fault: { code: response.body?.code, message: response.body?.message } };
  return { result: response.body };
}

async function viaJsonRpc(method: string, params: Record<string, unknown>): Promise<Outcome> {
  const response = await call(app, 'POST', '/jsonrpc.cgi', { body: { method, params: [params], id: 1 } });
  expect(response.status, response.text).toBe(200);
  expect(response.body.id).toBe(1);
  return response.body.error ? { fault: response.body.error } : { result: response.body.result };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An XML-RPC value as clients write one; attachment `data` is <base64>, as python-bugzilla sends it. */
function xmlValue(value: unknown, member?: string): string {
  if (value === null || value === undefined) return '<value><nil/></value>';
  if (typeof value === 'boolean') return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (typeof value === 'number')
    return Number.isInteger(value) ? `<value><int>${value}</int></value>` : `<value><double>${value}</double></value>`;
  if (typeof value === 'string')
    return member === 'data'
      ? `<value><base64>${value}</base64></value>`
      : `<value><string>${escapeXml(value)}</string></value>`;
  if (Array.isArray(value))
    return `<value><array><data>${value.map((item) => xmlValue(item)).join('')}</data></array></value>`;
  const members = Object.entries(value as Record<string, unknown>)
    .map(([name, item]) => `<member><name>${escapeXml(name)}</name>${xmlValue(item, name)}</member>`)
    .join('');
  return `<value><struct>${members}</struct></value>`;
}

/**
 * Reads XML-RPC answers with Python's xmlrpc.client: one answer a line (a JSON string) in, one
 * JSON line out. One Python for the whole file: starting one per answer cost about a second of
 * CPU each on a two-core machine (two thirds of the file's time).
 */
const PYTHON_READER = `
import base64, json, sys, xmlrpc.client
def plain(value):
    if isinstance(value, xmlrpc.client.DateTime):
        v = value.value
        return f"{v[0:4]}-{v[4:6]}-{v[6:8]}T{v[9:17]}Z"
    if isinstance(value, xmlrpc.client.Binary):
        return base64.b64encode(value.data).decode()
    raise TypeError(repr(value))
def read(text):
    try:
        (result,), _ = xmlrpc.client.loads(text)
        return {"result": result}
    except xmlrpc.client.Fault as fault:
        return {"fault": {"code": fault.faultCode, "message": fault.faultString}}
    except Exception as error:
        return {"unreadable": repr(error)}
while True:
    line = sys.stdin.readline()
    if not line:
        break
    print(json.dumps(read(json.loads(line)), default=plain), flush=True)
`;

interface XmlReader {
  /** The answer as xmlrpc.client reads it: `{result}`, `{fault}`, or `{unreadable}` when it cannot. */
  read(text: string): Promise<Outcome | { unreadable: string }>;
  close(): void;
}

function startXmlReader(): XmlReader {
  const child = spawn(PYTHON, ['-c', PYTHON_READER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.resolve(line));
  child.once('exit', (code) => {
    for (const reader of waiting.splice(0)) reader.reject(new Error(`the XML-RPC reader ended (${code})`));
  });
  return {
    read: (text) =>
      new Promise<string>((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin!.write(`${JSON.stringify(text)}\n`);
      }).then((line) => JSON.parse(line)),
    close: () => child.stdin!.end(),
  };
}
let xmlReader: XmlReader;

async function viaXmlRpc(method: string, params: Record<string, unknown>): Promise<Outcome> {
  const body = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params><param>${xmlValue(params)}</param></params></methodCall>`;
  const response = await call(app, 'POST', '/xmlrpc.cgi', { rawBody: body, headers: { 'Content-Type': 'text/xml' } });
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/xml/);
  const read = await xmlReader.read(response.text);
  expect(read, response.text.slice(0, 2000)).not.toHaveProperty('unreadable');
  return read as Outcome;
}

/** The parameters as the case calls: with the administrator's key unless it says otherwise. */
function paramsOf(entry: Case<any>, target: unknown): Record<string, unknown> {
  const params = entry.rpc(target);
  const own = ['Bugzilla_api_key', 'Bugzilla_login', 'Bugzilla_token', 'login'].some((name) => name in params);
  return entry.anonymous || own ? params : { ...params, Bugzilla_api_key: adminKey };
}

// --- The cases --------------------------------------------------------------------------------

/** Three bugs alike in Widget/Gears: one per protocol. */
const twinBugs = () =>
  Promise.all(
    PROTOCOLS.map(() =>
      fileTestBug(app, adminKey, { product: 'Widget', component: 'Gears', version: '1.0', summary: 'Twin' }),
    ),
  );

const post = (path: string, body: Record<string, unknown>) => ok(call(app, 'POST', path, { apiKey: adminKey, body }));

// Instance.
add({
  name: 'version',
  method: 'Bugzilla.version',
  rpc: () => ({}),
  rest: () => ({ method: 'GET', path: '/rest/version' }),
});
add({
  name: 'extensions',
  method: 'Bugzilla.extensions',
  rpc: () => ({}),
  rest: () => ({ method: 'GET', path: '/rest/extensions' }),
});
add({
  name: 'timezone',
  method: 'Bugzilla.timezone',
  rpc: () => ({}),
  rest: () => ({ method: 'GET', path: '/rest/timezone' }),
});
add({ name: 'time', method: 'Bugzilla.time', rpc: () => ({}), rest: () => ({ method: 'GET', path: '/rest/time' }) });
add({
  name: 'parameters, logged out',
  method: 'Bugzilla.parameters',
  anonymous: true,
  rpc: () => ({}),
  rest: () => ({ method: 'GET', path: '/rest/parameters', apiKey: null }),
});
add({
  name: 'parameters',
  method: 'Bugzilla.parameters',
  rpc: () => ({}),
  rest: () => ({ method: 'GET', path: '/rest/parameters' }),
});
add({
  name: 'last audit time',
  method: 'Bugzilla.last_audit_time',
  rpc: () => ({ class: ['Bugzilla::Product'] }),
  rest: () => ({ method: 'GET', path: '/rest/last_audit_time', query: { class: 'Bugzilla::Product' } }),
});

// Fields.
add({
  name: 'fields by name',
  method: 'Bug.fields',
  rpc: () => ({ names: ['bug_status', 'cf_browser'] }),
  rest: () => ({ method: 'GET', path: '/rest/field/bug', query: { names: ['bug_status', 'cf_browser'] } }),
});
add({
  name: 'legal values of a global field',
  method: 'Bug.legal_values',
  rpc: () => ({ field: 'op_sys' }),
  rest: () => ({ method: 'GET', path: '/rest/field/bug/op_sys/values' }),
});
let widgetId: number;
add({
  name: "legal values of a product's field",
  method: 'Bug.legal_values',
  rpc: () => ({ field: 'version', product_id: widgetId }),
  rest: () => ({ method: 'GET', path: `/rest/field/bug/version/${widgetId}/values` }),
});

// Bugs.
add({
  name: 'bugs by id and alias, every field',
  method: 'Bug.get',
  rpc: () => ({ ids: [seeded.first, 'grinding', seeded.second], include_fields: ['_all'] }),
  rest: () => ({
    method: 'GET',
    path: `/rest/bug/${seeded.first}`,
    query: { ids: ['grinding', seeded.second], include_fields: '_all' },
  }),
});
add({
  name: 'bugs a plain user may not see, permissively',
  method: 'Bug.get',
  rpc: () => ({ ids: [seeded.hiddenBug, seeded.second], permissive: true, Bugzilla_api_key: seeded.plainKey }),
  rest: () => ({
    method: 'GET',
    path: `/rest/bug/${seeded.hiddenBug}`,
    query: { ids: seeded.second, permissive: 1 },
    apiKey: seeded.plainKey,
  }),
});
add({
  name: 'a bug that does not exist',
  method: 'Bug.get',
  rpc: () => ({ ids: [99_999_999] }),
  rest: () => ({ method: 'GET', path: '/rest/bug/99999999' }),
  fault: 101,
});
add({
  name: 'history',
  method: 'Bug.history',
  rpc: () => ({ ids: [seeded.first] }),
  rest: () => ({ method: 'GET', path: `/rest/bug/${seeded.first}/history` }),
});
add({
  name: 'comments of bugs',
  method: 'Bug.comments',
  rpc: () => ({ ids: [seeded.first, seeded.second] }),
  rest: () => ({ method: 'GET', path: `/rest/bug/${seeded.first}/comment`, query: { ids: seeded.second } }),
});
add({
  name: 'comments by id',
  method: 'Bug.comments',
  rpc: () => ({ comment_ids: [seeded.privateComment], include_fields: ['id', 'text', 'tags', 'is_private'] }),
  rest: () => ({
    method: 'GET',
    path: `/rest/bug/comment/${seeded.privateComment}`,
    query: { include_fields: 'id,text,tags,is_private' },
  }),
});
add({
  name: 'search',
  method: 'Bug.search',
  rpc: () => ({ product: 'Widget', status: ['IN_PROGRESS', 'RESOLVED'], include_fields: ['id', 'summary', 'status'] }),
  rest: () => ({
    method: 'GET',
    path: '/rest/bug',
    query: { product: 'Widget', status: ['IN_PROGRESS', 'RESOLVED'], include_fields: 'id,summary,status' },
  }),
});
add({
  name: 'quicksearch, counted',
  method: 'Bug.search',
  rpc: () => ({ quicksearch: 'gears', count_only: true }),
  rest: () => ({ method: 'GET', path: '/rest/bug', query: { quicksearch: 'gears', count_only: 1 } }),
});
add({
  name: 'possible duplicates',
  method: 'Bug.possible_duplicates',
  rpc: () => ({ summary: 'grinding gears', products: ['Widget'], include_fields: ['id', 'summary'] }),
  rest: () => ({
    method: 'GET',
    path: '/rest/bug/possible_duplicates',
    query: { summary: 'grinding gears', product: 'Widget', include_fields: 'id,summary' },
  }),
});
add({
  name: 'attachments of a bug',
  method: 'Bug.attachments',
  rpc: () => ({ ids: [seeded.first] }),
  rest: () => ({ method: 'GET', path: `/rest/bug/${seeded.first}/attachment` }),
});
add({
  name: 'attachments by id, without their data',
  method: 'Bug.attachments',
  rpc: () => ({ attachment_ids: [seeded.attachments.patch, seeded.attachments.image], exclude_fields: ['data'] }),
  rest: () => ({
    method: 'GET',
    path: `/rest/bug/attachment/${seeded.attachments.patch}`,
    query: { attachment_ids: seeded.attachments.image, exclude_fields: 'data' },
  }),
});
add({
  name: 'a private attachment, to a plain user',
  method: 'Bug.attachments',
  rpc: () => ({ attachment_ids: [seeded.attachments.image], Bugzilla_api_key: seeded.plainKey }),
  rest: () => ({ method: 'GET', path: `/rest/bug/attachment/${seeded.attachments.image}`, apiKey: seeded.plainKey }),
  fault: 304,
});
add({
  name: 'render a comment',
  method: 'Bug.render_comment',
  rpc: () => ({ text: 'See bug 1 and **this**', id: seeded.first }),
  rest: () => ({
    method: 'POST',
    path: '/rest/bug/comment/render',
    body: { text: 'See bug 1 and **this**', id: seeded.first },
  }),
});
add({
  name: 'comment tags in use',
  method: 'Bug.search_comment_tags',
  rpc: () => ({ query: 'sp', limit: 5 }),
  rest: () => ({ method: 'GET', path: '/rest/bug/comment/tags/sp', query: { limit: 5 } }),
});
add<number>({
  name: 'file a bug',
  method: 'Bug.create',
  targets: async () => [1, 2, 3],
  rpc: () => ({
    product: 'Widget',
    component: 'Springs',
    version: '2.0',
    summary: 'Filed three ways',
    description: 'Same words',
    op_sys: 'Linux',
    platform: 'PC',
    keywords: ['regression'],
  }),
  rest: () => ({
    method: 'POST',
    path: '/rest/bug',
    body: {
      product: 'Widget',
      component: 'Springs',
      version: '2.0',
      summary: 'Filed three ways',
      description: 'Same words',
      op_sys: 'Linux',
      platform: 'PC',
      keywords: ['regression'],
    },
  }),
  normalize: (answer) => ({ id: typeof (answer as { id: unknown }).id }),
});
add<number>({
  name: 'update a bug',
  method: 'Bug.update',
  targets: twinBugs,
  rpc: (bug) => ({ ids: [bug], priority: 'Low', keywords: { add: ['regression'] }, comment: { body: 'Lower' } }),
  rest: (bug) => ({
    method: 'PUT',
    path: `/rest/bug/${bug}`,
    body: { priority: 'Low', keywords: { add: ['regression'] }, comment: { body: 'Lower' } },
  }),
  normalize: (answer, bug) => normalized(answer, [bug]),
});
add<number>({
  name: 'comment on a bug',
  method: 'Bug.add_comment',
  targets: twinBugs,
  rpc: (bug) => ({ id: bug, comment: 'Me too', is_private: true }),
  rest: (bug) => ({ method: 'POST', path: `/rest/bug/${bug}/comment`, body: { comment: 'Me too', is_private: true } }),
  normalize: (answer) => ({ id: typeof (answer as { id: unknown }).id }),
});
add<number>({
  name: 'attach a file',
  method: 'Bug.add_attachment',
  targets: twinBugs,
  rpc: (bug) => ({
    ids: [bug],
    data: Buffer.from('hello\n').toString('base64'),
    file_name: 'hello.txt',
    summary: 'Greeting',
    content_type: 'text/plain',
  }),
  rest: (bug) => ({
    method: 'POST',
    path: `/rest/bug/${bug}/attachment`,
    body: {
      data: Buffer.from('hello\n').toString('base64'),
      file_name: 'hello.txt',
      summary: 'Greeting',
      content_type: 'text/plain',
    },
  }),
  normalize: (answer) => ({ ids: (answer as { ids: unknown[] }).ids.map((id) => typeof id) }),
});
add<number>({
  name: 'change an attachment',
  method: 'Bug.update_attachment',
  targets: async () =>
    Promise.all(
      (await twinBugs()).map(
        async (bug) =>
          (
            await post(`/rest/bug/${bug}/attachment`, {
              data: Buffer.from('x').toString('base64'),
              file_name: 'x.txt',
              summary: 'Before',
              content_type: 'text/plain',
            })
          ).ids[0] as number,
      ),
    ),
  rpc: (attachment) => ({ ids: [attachment], summary: 'After', is_obsolete: true }),
  rest: (attachment) => ({
    method: 'PUT',
    path: `/rest/bug/attachment/${attachment}`,
    body: { summary: 'After', is_obsolete: true },
  }),
  normalize: (answer, attachment) => normalized(answer, [attachment]),
});
add<number>({
  name: "tag a bug (the caller's tags)",
  method: 'Bug.update_tags',
  targets: twinBugs,
  rpc: (bug) => ({ ids: [bug], tags: { add: ['urgent', 'later'] } }),
  rest: (bug) => ({ method: 'PUT', path: `/rest/bug/${bug}/tags`, body: { tags: { add: ['urgent', 'later'] } } }),
  normalize: (answer, bug) => normalized(answer, [bug]),
});
add<number>({
  name: 'tag a comment',
  method: 'Bug.update_comment_tags',
  targets: async () =>
    Promise.all(
      (await twinBugs()).map(async (bug) => (await post(`/rest/bug/${bug}/comment`, { comment: 'Tag me' })).id),
    ),
  rpc: (comment) => ({ comment_id: comment, add: ['spam', 'dup'], remove: ['none'] }),
  rest: (comment) => ({
    method: 'PUT',
    path: `/rest/bug/comment/${comment}/tags`,
    body: { add: ['spam', 'dup'], remove: ['none'] },
  }),
});
add<number>({
  name: 'add See Also links',
  method: 'Bug.update_see_also',
  targets: twinBugs,
  rpc: (bug) => ({ ids: [bug], add: ['https://bugs.example.org/show_bug.cgi?id=5'] }),
  rest: (bug) => ({
    method: 'PUT',
    path: `/rest/bug/${bug}`,
    body: { see_also: { add: ['https://bugs.example.org/show_bug.cgi?id=5'] } },
  }),
  // 5.2's method answers its own shape from the same change: {changes: {<id>: {see_also: {added: [...], removed: [...]}}}}.
  restResult: (answer, bug) => ({
    changes: {
      [bug]: {
        see_also: {
          added: answer.bugs[0].changes.see_also.added.split(', '),
          removed: answer.bugs[0].changes.see_also.removed ? answer.bugs[0].changes.see_also.removed.split(', ') : [],
        },
      },
    },
  }),
  normalize: (answer, bug) => normalized(answer, [bug]),
});

// Users and sessions.
add({
  name: 'log in',
  method: 'User.login',
  rpc: () => ({ login: 'dev@tracker.test', password: 'dev-pw-123' }),
  rest: () => ({
    method: 'GET',
    path: '/rest/login',
    query: { login: 'dev@tracker.test', password: 'dev-pw-123' },
    apiKey: null,
  }),
  normalize: (answer) => normalized(answer),
});
add<string>({
  name: 'log out',
  method: 'User.logout',
  targets: () =>
    Promise.all(
      PROTOCOLS.map(
        async () =>
          (await ok(call(app, 'GET', '/rest/login', { query: { login: 'dev@tracker.test', password: 'dev-pw-123' } })))
            .token as string,
      ),
    ),
  rpc: (token) => ({ Bugzilla_token: token }),
  rest: (token) => ({ method: 'GET', path: '/rest/logout', query: { token }, apiKey: null }),
  restResult: (answer) => answer.result,
});
add({
  name: 'check a login',
  method: 'User.valid_login',
  rpc: () => ({ login: 'dev@tracker.test', Bugzilla_api_key: adminKey }),
  rest: () => ({ method: 'GET', path: '/rest/valid_login', query: { login: 'dev@tracker.test' } }),
  restResult: (answer) => answer.result,
});
add({
  name: 'users by name and id',
  method: 'User.get',
  rpc: () => ({ names: ['dev@tracker.test'], ids: [seeded.users['qa-lead']] }),
  rest: () => ({
    method: 'GET',
    path: '/rest/user',
    query: { names: 'dev@tracker.test', ids: seeded.users['qa-lead'] },
  }),
});
add({
  name: 'users matching, with groups',
  method: 'User.get',
  rpc: () => ({ match: ['person'], include_disabled: true, include_fields: ['name', 'groups'] }),
  rest: () => ({
    method: 'GET',
    path: '/rest/user',
    query: { match: 'person', include_disabled: 1, include_fields: 'name,groups' },
  }),
});
add<string>({
  name: 'create a user',
  method: 'User.create',
  targets: async () => PROTOCOLS.map((protocol) => `new-${protocol}@tracker.test`),
  rpc: (email) => ({ email, full_name: 'New person', password: 'long-enough-1' }),
  rest: (email) => ({
    method: 'POST',
    path: '/rest/user',
    body: { email, full_name: 'New person', password: 'long-enough-1' },
  }),
  normalize: (answer) => ({ id: typeof (answer as { id: unknown }).id }),
});
add<string>({
  // 5.2 answers nothing (undef); REST answers {}. Whether mail goes out depends on the
  // installation's mail settings, which are the same for all three.
  name: 'offer an account by mail',
  method: 'User.offer_account_by_email',
  targets: async () => PROTOCOLS.map((protocol) => `signup-${protocol}@tracker.test`),
  anonymous: true,
  rpc: (email) => ({ email }),
  rest: (email) => ({ method: 'POST', path: '/rest/account/offer_account_by_email', body: { email }, apiKey: null }),
  restResult: () => null,
});
add<number>({
  name: 'update a user',
  method: 'User.update',
  targets: () =>
    Promise.all(
      PROTOCOLS.map(async (protocol) => (await post('/rest/user', { email: `edit-${protocol}@tracker.test` })).id),
    ),
  rpc: (user) => ({ ids: [user], full_name: 'Renamed', groups: { add: ['testers'] } }),
  rest: (user) => ({
    method: 'PUT',
    path: `/rest/user/${user}`,
    body: { full_name: 'Renamed', groups: { add: ['testers'] } },
  }),
  normalize: (answer, user) => normalized(answer, [user]),
});

// Products, components, classifications, groups, flag types.
add({
  name: 'products by name, with a subfield',
  method: 'Product.get',
  rpc: () => ({ names: ['Widget', 'Hidden'], include_fields: ['name', 'components.name', 'versions'] }),
  rest: () => ({
    method: 'GET',
    path: '/rest/product',
    query: { names: ['Widget', 'Hidden'], include_fields: 'name,components.name,versions' },
  }),
});
add({
  name: 'products by type, to a plain user',
  method: 'Product.get',
  rpc: () => ({ type: 'enterable', Bugzilla_api_key: seeded.plainKey, include_fields: ['name'] }),
  rest: () => ({
    method: 'GET',
    path: '/rest/product',
    query: { type: 'enterable', include_fields: 'name' },
    apiKey: seeded.plainKey,
  }),
});
for (const [method, path] of [
  ['Product.get_selectable_products', '/rest/product_selectable'],
  ['Product.get_enterable_products', '/rest/product_enterable'],
  ['Product.get_accessible_products', '/rest/product_accessible'],
] as const)
  add({ name: method, method, rpc: () => ({}), rest: () => ({ method: 'GET', path }) });
add<string>({
  name: 'create a product',
  method: 'Product.create',
  targets: async () => PROTOCOLS.map((protocol) => `Made-${protocol}`),
  rpc: (name) => ({ name, description: 'Made three ways', version: '1.0', has_unconfirmed: false }),
  rest: (name) => ({
    method: 'POST',
    path: '/rest/product',
    body: { name, description: 'Made three ways', version: '1.0', has_unconfirmed: false },
  }),
  normalize: (answer) => ({ id: typeof (answer as { id: unknown }).id }),
});
add<string>({
  name: 'update a product',
  method: 'Product.update',
  targets: () =>
    Promise.all(
      PROTOCOLS.map(async (protocol) => {
        await post('/rest/product', { name: `Edit-${protocol}`, description: 'Before', version: '1.0' });
        return `Edit-${protocol}`;
      }),
    ),
  rpc: (name) => ({ names: [name], description: 'After', is_open: false }),
  rest: (name) => ({ method: 'PUT', path: `/rest/product/${name}`, body: { description: 'After', is_open: false } }),
  normalize: (answer) => ({ products: (answer as any).products.map((product: any) => product.changes) }),
});
add<string>({
  name: 'create a component',
  method: 'Component.create',
  targets: async () => PROTOCOLS.map((protocol) => `Cogs-${protocol}`),
  rpc: (name) => ({ product: 'Widget', name, description: 'Small', default_assignee: 'dev@tracker.test' }),
  rest: (name) => ({
    method: 'POST',
    path: '/rest/component',
    body: { product: 'Widget', name, description: 'Small', default_assignee: 'dev@tracker.test' },
  }),
  normalize: (answer) => ({ id: typeof (answer as { id: unknown }).id }),
});
add({
  name: 'classification by name',
  method: 'Classification.get',
  rpc: () => ({ names: ['Hardware'] }),
  rest: () => ({ method: 'GET', path: '/rest/classification/Hardware' }),
});
add({
  name: 'groups with members',
  method: 'Group.get',
  rpc: () => ({ names: ['testers'], membership: true }),
  rest: () => ({ method: 'GET', path: '/rest/group', query: { names: 'testers', membership: 1 } }),
});
add<string>({
  name: 'create a group',
  method: 'Group.create',
  targets: async () => PROTOCOLS.map((protocol) => `crew-${protocol}`),
  rpc: (name) => ({ name, description: 'A crew', is_active: true }),
  rest: (name) => ({ method: 'POST', path: '/rest/group', body: { name, description: 'A crew', is_active: true } }),
  normalize: (answer) => ({ id: typeof (answer as { id: unknown }).id }),
});
add<string>({
  name: 'update a group',
  method: 'Group.update',
  targets: () =>
    Promise.all(
      PROTOCOLS.map(async (protocol) => {
        await post('/rest/group', { name: `band-${protocol}`, description: 'Before' });
        return `band-${protocol}`;
      }),
    ),
  rpc: (name) => ({ names: [name], description: 'After' }),
  rest: (name) => ({ method: 'PUT', path: `/rest/group/${name}`, body: { description: 'After' } }),
  normalize: (answer) => ({ groups: (answer as any).groups.map((group: any) => group.changes) }),
});
add({
  name: "a component's flag types",
  method: 'FlagType.get',
  rpc: () => ({ product: 'Widget', component: 'Gears' }),
  rest: () => ({ method: 'GET', path: '/rest/flag_type/Widget/Gears' }),
});
add({
  name: "a product's flag types",
  method: 'FlagType.get',
  rpc: () => ({ product: 'Widget' }),
  rest: () => ({ method: 'GET', path: '/rest/flag_type/Widget' }),
});
add<string>({
  name: 'create a flag type',
  method: 'FlagType.create',
  targets: async () => PROTOCOLS.map((protocol) => `qa-${protocol}`),
  rpc: (name) => ({ name, description: 'QA sign-off', inclusions: ['Widget'], is_requestable: true }),
  rest: (name) => ({
    method: 'POST',
    path: '/rest/flag_type',
    body: { name, description: 'QA sign-off', inclusions: ['Widget'], is_requestable: true },
  }),
  normalize: (answer) => ({ id: typeof (answer as { id: unknown }).id }),
});
add<number>({
  name: 'update a flag type',
  method: 'FlagType.update',
  targets: () =>
    Promise.all(
      PROTOCOLS.map(
        async (protocol) =>
          (await post('/rest/flag_type', { name: `ux-${protocol}`, description: 'Before' })).id as number,
      ),
    ),
  rpc: (id) => ({ ids: [id], description: 'After', sort_key: 4 }),
  rest: (id) => ({ method: 'PUT', path: `/rest/flag_type/${id}`, body: { description: 'After', sort_key: 4 } }),
  normalize: (answer) => ({ flagtypes: (answer as any).flagtypes.map((type: any) => type.changes) }),
});

// Last visits.
add({
  name: 'last visits',
  method: 'BugUserLastVisit.get',
  rpc: () => ({ ids: [seeded.first] }),
  rest: () => ({ method: 'GET', path: `/rest/bug_user_last_visit/${seeded.first}` }),
});
add({
  name: 'record a visit',
  method: 'BugUserLastVisit.update',
  rpc: () => ({ ids: [seeded.first, seeded.second] }),
  rest: () => ({ method: 'POST', path: '/rest/bug_user_last_visit', body: { ids: [seeded.first, seeded.second] } }),
  normalize: (answer) => normalized(answer),
});

// --- The test ---------------------------------------------------------------------------------

beforeAll(async () => {
  xmlReader = startXmlReader();
  app = await startTestApp();
  adminKey = app.admin.apiKey;
  seeded = await seedInstallation(app);
  widgetId = (await ok(call(app, 'GET', '/rest/product/Widget', { apiKey: adminKey }))).products[0].id;
  await post(`/rest/bug_user_last_visit/${seeded.first}`, {});
});

afterAll(async () => {
  xmlReader?.close();
  await app?.close();
});

interface Answer {
  outcome: Outcome;
  target: unknown;
}

function expectSame(entry: Case<any>, protocol: Protocol, rest: Answer, rpc: Answer): void {
  const label = `${entry.method} (${entry.name}) over ${protocol}`;
  expect(
    'fault' in rest.outcome ? rest.outcome.fault.code : undefined,
    `${label}: ${JSON.stringify(rest.outcome)}`,
  ).toBe(entry.fault);
  if ('fault' in rest.outcome) {
    expect(rpc.outcome, label).toEqual({ fault: rest.outcome.fault });
    return;
  }
  expect(rpc.outcome, `${label}: ${JSON.stringify(rpc.outcome).slice(0, 500)}`).toHaveProperty('result');
  const normalize = entry.normalize ?? ((answer: unknown) => answer);
  const restResult = entry.restResult ? entry.restResult(rest.outcome.result, rest.target) : rest.outcome.result;
  const expected = normalize(protocol === 'xml' ? withoutNulls(restResult) : restResult, rest.target);
  const actual = normalize((rpc.outcome as { result: unknown }).result, rpc.target);
  if (entry.method === 'Bugzilla.time') {
    // Three calls, three clocks: the same members, each a time.
    expect(Object.keys(actual as object).sort(), label).toEqual(Object.keys(expected as object).sort());
    return;
  }
  expect(actual, label).toEqual(expected);
}

describe('every RPC method answers what its REST route answers', () => {
  it('has a case for every method of the table', () => {
    const covered = new Set(cases.map((entry) => entry.method));
    expect(Object.keys(RPC_METHODS).filter((method) => !covered.has(method))).toEqual([]);
  });

  for (const entry of cases) {
    it(`${entry.method}: ${entry.name}`, async () => {
      const [restTarget, jsonTarget, xmlTarget] = entry.targets ? await entry.targets() : [];
      const rest = { outcome: await viaRest(entry.rest(restTarget)), target: restTarget };
      const json = { outcome: await viaJsonRpc(entry.method, paramsOf(entry, jsonTarget)), target: jsonTarget };
      expectSame(entry, 'json', rest, json);
      const xml = { outcome: await viaXmlRpc(entry.method, paramsOf(entry, xmlTarget)), target: xmlTarget };
      expectSame(entry, 'xml', rest, xml);
    });
  }
});
