import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_PATH } from '../../shared/domain/identity/singleSignOn.ts';
import { routes } from '../../shared/routes.ts';
import { browseToCallback, pkcePair, startTestIssuer, useTestIssuer } from '../support/openIdProvider.ts';
import { type SeededInstallation, seedInstallation } from '../support/seededInstallation.ts';
import { userWithKey } from '../support/testAccounts.ts';
import { type ApiResponse, type CallOptions, call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The OpenAPI document against real answers: the document as GET /rest/openapi.json serves it,
 * and every route of the table called on a seeded installation (as an administrator, a plain user
 * and logged out), each answer validated with ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect)
 * against the schema the document gives for that route and status. The answers are the truth:
 * where they disagree, local/openapi/ is what needs fixing.
 */
let app: TestApp;
let seeded: SeededInstallation;
let document: any;
let ajv: Ajv2020;
const DOCUMENT_ID = 'https://tracker.test/openapi.json';
/** Every `METHOD path` some call below was checked against. */
const checked = new Set<string>();

beforeAll(async () => {
  app = await startTestApp();
  seeded = await seedInstallation(app);
  const served = await call(app, 'GET', '/rest/openapi.json');
  expect(served.status).toBe(200);
  document = served.body;
  // Formats are documentation here (ajv-formats is not a dependency); patterns check the times.
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document, DOCUMENT_ID);
});

afterAll(async () => {
  await app?.close();
});

/** A JSON pointer into the document, as a URI fragment (path templates hold `{`, `}` and `/`). */
const pointer = (...tokens: string[]) =>
  `#/${tokens.map((token) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

const validators = new Map<string, ValidateFunction>();

/** The validator of the answer the document gives for this route and status. */
function validatorFor(method: string, path: string, status: number): ValidateFunction {
  const operation = document.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is not in the document`).toBeDefined();
  const response = operation.responses[String(status)];
  expect(response, `${method} ${path} documents no ${status} answer`).toBeDefined();
  const location = response.$ref
    ? pointer('components', 'responses', response.$ref.split('/').pop(), 'content', 'application/json', 'schema')
    : pointer(
        'paths',
        path,
        method.toLowerCase(),
        'responses',
        String(status),
        'content',
        'application/json',
        'schema',
      );
  let validate = validators.get(location);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}${location}` });
    validators.set(location, validate);
  }
  return validate;
}

function expectDocumented(method: string, path: string, response: ApiResponse, status = 200): void {
  expect(response.status, response.text).toBe(status);
  const validate = validatorFor(method, path, status);
  const valid = validate(response.body);
  expect(
    valid,
    `${method} ${path} → ${status}: ${ajv.errorsText(validate.errors)}\n${response.text.slice(0, 2000)}`,
  ).toBe(true);
  checked.add(`${method} ${path}`);
}

/** Calls `url` (the route `path` filled in) and checks the answer against the route's documented one. */
async function check(method: string, path: string, url: string, options: CallOptions = {}, status = 200) {
  const response = await call(app, method, url, options);
  expectDocumented(method, path, response, status);
  return response.body;
}

const admin = () => ({ apiKey: app.admin.apiKey });

describe('answers of reading routes', () => {
  it('instance information', async () => {
    await check('GET', '/rest/version', '/rest/version');
    const { extensions } = await check('GET', '/rest/extensions', '/rest/extensions');
    expect(Object.keys(extensions)).toContain('OpenAPI');
    await check('GET', '/rest/openapi.json', '/rest/openapi.json');
    await check('GET', '/rest/timezone', '/rest/timezone');
    await check('GET', '/rest/time', '/rest/time');
    await check('GET', '/rest/parameters', '/rest/parameters', admin());
    await check('GET', '/rest/parameters', '/rest/parameters');
    await check('GET', '/rest/last_audit_time', '/rest/last_audit_time', {
      ...admin(),
      query: { class: 'Bugzilla::Product' },
    });
    await check('GET', '/rest/jobqueue_status', '/rest/jobqueue_status', admin());
  });

  it('bugs, as an administrator, a plain user and logged out', async () => {
    const { first, second, hiddenBug } = seeded;
    const every = { include_fields: '_all' };
    const bug = await check('GET', '/rest/bug/{id_or_alias}', `/rest/bug/${first}`, { ...admin(), query: every });
    expect(bug.bugs[0]).toHaveProperty('comments');
    expect(bug.bugs[0]).toHaveProperty('cf_browser');
    await check('GET', '/rest/bug/{id_or_alias}', `/rest/bug/grinding`, { apiKey: seeded.plainKey });
    await check('GET', '/rest/bug/{id_or_alias}', `/rest/bug/${second}`, {
      query: { ids: [hiddenBug, 99_999], permissive: 1 },
    });
    await check('GET', '/rest/bug/{id_or_alias}', `/rest/bug/${first}`, {
      ...admin(),
      query: { include_fields: 'id,assigned_to_detail.real_name' },
    });
  });

  it('searches', async () => {
    const found = await check('GET', '/rest/bug', '/rest/bug', { ...admin(), query: { product: 'Widget' } });
    expect(found.bugs.length).toBeGreaterThan(1);
    await check('GET', '/rest/bug', '/rest/bug', { query: { summary: 'gears', include_fields: '_all' } });
    await check('GET', '/rest/bug', '/rest/bug', { ...admin(), query: { product: 'Widget', count_only: 1 } });
    await check('GET', '/rest/bug/possible_duplicates', '/rest/bug/possible_duplicates', {
      ...admin(),
      query: { summary: 'gears grind' },
    });
  });

  it('history, comments and attachments', async () => {
    const { first, privateComment, attachments } = seeded;
    const history = await check('GET', '/rest/bug/{id_or_alias}/history', `/rest/bug/${first}/history`, admin());
    // The seed's changes are one history entry or several, as the clock's second falls between
    // them (entries group changes by their time, as Bugzilla's do): the shape is what is checked.
    expect(history.bugs[0].history.length).toBeGreaterThan(0);
    expect(history.bugs[0].history[0].changes.length).toBeGreaterThan(0);
    const comments = await check('GET', '/rest/bug/{id_or_alias}/comment', `/rest/bug/${first}/comment`, admin());
    expect(comments.bugs[first].comments.length).toBeGreaterThan(3);
    await check('GET', '/rest/bug/{id_or_alias}/comment', `/rest/bug/${first}/comment`, {
      query: { exclude_fields: 'raw_text' },
    });
    await check('GET', '/rest/bug/comment/{comment_id}', `/rest/bug/comment/${privateComment}`, admin());
    await check('GET', '/rest/bug/comment/tags/{query}', '/rest/bug/comment/tags/sp', admin());
    const listed = await check('GET', '/rest/bug/{id_or_alias}/attachment', `/rest/bug/${first}/attachment`, admin());
    expect(listed.bugs[first][0].flags.length).toBe(1);
    await check('GET', '/rest/bug/attachment/{attachment_id}', `/rest/bug/attachment/${attachments.patch}`, {
      query: { exclude_fields: 'data' },
    });
    await check(
      'GET',
      '/rest/bug/attachment/{attachment_id}/download',
      `/rest/bug/attachment/${attachments.image}/download`,
      admin(),
    );
  });

  it('users, groups and API keys', async () => {
    const { users } = seeded;
    await check('GET', '/rest/user', '/rest/user', { ...admin(), query: { ids: [1, users.dev, users.gone] } });
    await check('GET', '/rest/user', '/rest/user', { apiKey: seeded.plainKey, query: { match: 'tracker.test' } });
    await check('GET', '/rest/user/{id_or_name}', '/rest/user/1', admin());
    await check('GET', '/rest/user/{id_or_name}/api_key', '/rest/user/1/api_key', admin());
    await check('GET', '/rest/user/{id_or_name}/activity', '/rest/user/1/activity', admin());
    await check('GET', '/rest/group', '/rest/group', { ...admin(), query: { names: ['testers'], membership: 1 } });
    await check('GET', '/rest/group/{id_or_name}', '/rest/group/testers', {
      apiKey: await userWithKey(app, 'blesser', ['creategroups']),
    });
    await check('GET', '/rest/whoami', '/rest/whoami', admin());
    await check('GET', '/rest/valid_login', '/rest/valid_login', { query: { login: app.admin.login } });
    const login = await check('GET', '/rest/login', '/rest/login', {
      query: { login: app.admin.login, password: app.admin.password },
    });
    await check('GET', '/rest/logout', '/rest/logout', { query: { token: login.token } });
    await check('POST', '/rest/login', '/rest/login', {
      body: { login: app.admin.login, password: app.admin.password },
    });
  });

  it('products, classifications, fields, keywords and flag types', async () => {
    for (const path of ['/rest/product_selectable', '/rest/product_enterable', '/rest/product_accessible'])
      await check('GET', path, path, admin());
    await check('GET', '/rest/product', '/rest/product', {
      ...admin(),
      query: { names: 'Widget', include_fields: '_all' },
    });
    await check('GET', '/rest/product/{id_or_name}', '/rest/product/Hidden', admin());
    await check('GET', '/rest/product/{id_or_name}', '/rest/product/Widget', {});
    await check('GET', '/rest/classification/{id_or_name}', '/rest/classification/Hardware', admin());
    await check('GET', '/rest/field/bug', '/rest/field/bug', { ...admin(), query: { include_fields: '_all' } });
    await check('GET', '/rest/field/bug/{id_or_name}', '/rest/field/bug/bug_status', {});
    await check('GET', '/rest/field/bug/{id_or_name}/values', '/rest/field/bug/priority/values', {});
    await check(
      'GET',
      '/rest/field/bug/{id_or_name}/{product_id}/values',
      '/rest/field/bug/component/2/values',
      admin(),
    );
    await check('GET', '/rest/keyword', '/rest/keyword', {});
    await check('GET', '/rest/keyword/{id_or_name}', '/rest/keyword/regression', {});
    await check('GET', '/rest/flag_type/{id_or_name}', '/rest/flag_type/Widget', admin());
    await check('GET', '/rest/flag_type/{id_or_name}/{component}', '/rest/flag_type/Widget/Gears', {});
    await check('GET', '/rest/flag_type/{id_or_name}', '/rest/flag_type/1', admin());
    await check('GET', '/rest/flag_type', '/rest/flag_type', admin());
  });
});

describe('answers of writing routes', () => {
  it('bugs, comments, attachments and visits', async () => {
    const { first, privateComment, attachments } = seeded;
    const { id } = await check('POST', '/rest/bug', '/rest/bug', {
      ...admin(),
      body: {
        product: 'Widget',
        component: 'Gears',
        version: '1.0',
        summary: 'Written for the OpenAPI check',
        description: 'Steps.',
        op_sys: 'Linux',
        platform: 'PC',
      },
    });
    await check('PUT', '/rest/bug/{id_or_alias}', `/rest/bug/${id}`, {
      ...admin(),
      body: { priority: 'Low', cc: { add: ['dev@tracker.test'] }, comment: { body: 'Lower.' } },
    });
    await check('PUT', '/rest/bug', '/rest/bug', { ...admin(), body: { ids: [id], whiteboard: '[both]' } });
    await check('PUT', '/rest/bug/{id_or_alias}/tags', `/rest/bug/${id}/tags`, { ...admin(), body: { add: ['mine'] } });
    await check('POST', '/rest/bug/{id_or_alias}/comment', `/rest/bug/${id}/comment`, {
      ...admin(),
      body: { comment: 'More.' },
    });
    await check('PUT', '/rest/bug/comment/{comment_id}/tags', `/rest/bug/comment/${privateComment}/tags`, {
      ...admin(),
      body: { add: ['later'], remove: ['spam'] },
    });
    await check('POST', '/rest/bug/comment/render', '/rest/bug/comment/render', {
      body: { text: 'See bug 1.', id: first },
    });
    await check('POST', '/rest/bug/{id_or_alias}/attachment', `/rest/bug/${id}/attachment`, {
      ...admin(),
      body: { file_name: 'notes.txt', summary: 'Notes', content_type: 'text/plain', data: 'aGk=' },
    });
    await check('PUT', '/rest/bug/attachment/{attachment_id}', `/rest/bug/attachment/${attachments.image}`, {
      ...admin(),
      body: { summary: 'The screenshot' },
    });
    await check('POST', '/rest/bug_user_last_visit/{id}', `/rest/bug_user_last_visit/${id}`, admin());
    await check('POST', '/rest/bug_user_last_visit', '/rest/bug_user_last_visit', {
      ...admin(),
      body: { ids: [first] },
    });
    await check('GET', '/rest/bug_user_last_visit', '/rest/bug_user_last_visit', admin());
    await check('GET', '/rest/bug_user_last_visit/{id}', `/rest/bug_user_last_visit/${id}`, admin());
  });

  it('users, groups and API keys', async () => {
    const { users } = seeded;
    const created = await check('POST', '/rest/user', '/rest/user', {
      ...admin(),
      body: { email: 'new@tracker.test' },
    });
    await check('PUT', '/rest/user/{id_or_name}', `/rest/user/${created.id}`, {
      ...admin(),
      body: { full_name: 'New Person', groups: { add: ['testers'] } },
    });
    await check('PUT', '/rest/user', '/rest/user', { ...admin(), body: { ids: [created.id], email_enabled: false } });
    const ownKey = await userWithKey(app, 'selfservice');
    await check('PUT', '/rest/preferences/account', '/rest/preferences/account', {
      apiKey: ownKey,
      body: { full_name: 'Self Service', email_enabled: false },
    });
    const { token } = (
      await call(app, 'GET', '/rest/login', {
        query: { login: 'selfservice@tracker.test', password: 'selfservice-password' },
      })
    ).body;
    const renewed = await check('PUT', '/rest/preferences/account', '/rest/preferences/account', {
      headers: { 'X-BUGZILLA-TOKEN': token },
      body: { current_password: 'selfservice-password', new_password: 'a longer secret' },
    });
    expect(renewed.token).toEqual(expect.any(String));
    const key = await check('POST', '/rest/user/{id_or_name}/api_key', `/rest/user/${users.dev}/api_key`, {
      ...admin(),
      body: { description: 'CI' },
    });
    await check('PUT', '/rest/user/{id_or_name}/api_key/{key_id}', `/rest/user/${users.dev}/api_key/${key.id}`, {
      ...admin(),
      body: { revoked: true },
    });
    await check('POST', '/rest/group', '/rest/group', {
      ...admin(),
      body: { name: 'reviewers', description: 'Review' },
    });
    await check('PUT', '/rest/group/{id_or_name}', '/rest/group/reviewers', { ...admin(), body: { description: 'R' } });
    await check('PUT', '/rest/group', '/rest/group', { ...admin(), body: { names: ['reviewers'], is_active: false } });
    await check('PUT', '/rest/parameters', '/rest/parameters', { ...admin(), body: { mailfrom: 'bugs@tracker.test' } });
  });

  it('the catalogue', async () => {
    const post = (path: string, body: unknown, url = path) => check('POST', path, url, { ...admin(), body });
    const put = (path: string, url: string, body: unknown) => check('PUT', path, url, { ...admin(), body });
    await post('/rest/classification', { name: 'Software', description: 'Code' });
    await put('/rest/classification/{id_or_name}', '/rest/classification/Software', { sort_key: 3 });
    await post('/rest/product', {
      name: 'Gadget',
      description: 'Gadgets',
      version: '1.0',
      group_controls: [{ group: 'testers', membercontrol: 'SHOWN', othercontrol: 'NA' }],
    });
    await put('/rest/product/{id_or_name}', '/rest/product/Gadget', { description: 'All gadgets' });
    await put('/rest/product', '/rest/product', { names: ['Gadget'], is_open: true });
    await check('GET', '/rest/product/{id_or_name}', '/rest/product/Gadget', admin());
    await post('/rest/product/{id_or_name}/version', { name: '2.0' }, '/rest/product/Gadget/version');
    await put('/rest/product/{id_or_name}/version/{value}', '/rest/product/Gadget/version/2.0', { name: '2.1' });
    await post('/rest/product/{id_or_name}/milestone', { name: 'M1' }, '/rest/product/Gadget/milestone');
    await put('/rest/product/{id_or_name}/milestone/{value}', '/rest/product/Gadget/milestone/M1', { sort_key: 5 });
    const component = await post('/rest/component', {
      product: 'Gadget',
      name: 'Knobs',
      description: 'Knobs',
      default_assignee: app.admin.login,
    });
    await post('/rest/component', {
      product: 'Gadget',
      name: 'Dials',
      description: 'Dials',
      default_assignee: app.admin.login,
    });
    await put('/rest/component/{id_or_product}', `/rest/component/${component.id}`, { description: 'Round knobs' });
    await put('/rest/component/{id_or_product}/{component}', '/rest/component/Gadget/Knobs', { sort_key: 2 });
    await check('DELETE', '/rest/component/{id_or_product}/{component}', '/rest/component/Gadget/Dials', admin());
    const spare = await post('/rest/component', {
      product: 'Gadget',
      name: 'Spare',
      description: 'Spare',
      default_assignee: app.admin.login,
    });
    await check('DELETE', '/rest/component/{id_or_product}', `/rest/component/${spare.id}`, admin());
    await post('/rest/field/bug', { name: 'cf_os_build', display_name: 'OS build', type: 1 });
    await put('/rest/field/bug/{id_or_name}', '/rest/field/bug/cf_os_build', { display_name: 'Build' });
    await put('/rest/field/bug', '/rest/field/bug', { names: ['cf_os_build'], sort_key: 40 });
    await post('/rest/field/bug/{id_or_name}/values', { name: 'Critical' }, '/rest/field/bug/priority/values');
    await put('/rest/field/bug/{id_or_name}/values/{value}', '/rest/field/bug/priority/values/Critical', {
      sort_key: 50,
    });
    await put('/rest/field/bug/{id_or_name}/workflow', '/rest/field/bug/bug_status/workflow', {
      add: [{ from: 'CONFIRMED', to: 'UNCONFIRMED' }],
    });
    await post('/rest/keyword', { name: 'perf', description: 'Slow' });
    await put('/rest/keyword/{id_or_name}', '/rest/keyword/perf', { description: 'Too slow' });
    await put('/rest/keyword', '/rest/keyword', { names: ['perf'], is_active: false });
    await post('/rest/flag_type', { name: 'qa', description: 'QA done', inclusions: ['Gadget'] });
    await put('/rest/flag_type/{id_or_name}', '/rest/flag_type/qa', { description: 'QA passed' });
    // What no bug uses can be deleted.
    await check('DELETE', '/rest/flag_type/{id_or_name}', '/rest/flag_type/qa', admin());
    await check('DELETE', '/rest/keyword/{id_or_name}', '/rest/keyword/perf', admin());
    await check('DELETE', '/rest/product/{id_or_name}/version/{value}', '/rest/product/Gadget/version/2.1', admin());
    await check('DELETE', '/rest/product/{id_or_name}/milestone/{value}', '/rest/product/Gadget/milestone/M1', admin());
    await post('/rest/product', { name: 'Scratch', description: 'Made to be deleted', version: '1.0' });
    await check('DELETE', '/rest/product/{id_or_name}', '/rest/product/Scratch', admin());
  });
});

describe('error answers', () => {
  it('match the error envelope and the codes the route lists under that status', async () => {
    await check('GET', '/rest/bug/{id_or_alias}', '/rest/bug/99999', admin(), 404);
    await check('GET', '/rest/bug/{id_or_alias}', `/rest/bug/${seeded.hiddenBug}`, {}, 401);
    await check('GET', '/rest/bug/{id_or_alias}', '/rest/bug/1', { apiKey: 'x'.repeat(40) }, 400);
    await check('GET', '/rest/whoami', '/rest/whoami', {}, 401);
    await check('GET', '/rest/bug/{id_or_alias}/comment', '/rest/bug/99999/comment', admin(), 404);
    await check('POST', '/rest/bug', '/rest/bug', { ...admin(), body: { product: 'Widget' } }, 400);
    await check('GET', '/rest/user', '/rest/user', { query: { ids: 1 } }, 401);
    await check(
      'POST',
      '/rest/user',
      '/rest/user',
      { apiKey: seeded.plainKey, body: { email: 'x@tracker.test' } },
      401,
    );
  });

  it('answer an unknown route with the shared Error schema', async () => {
    const response = await call(app, 'GET', '/rest/no_such_thing');
    expect(response.status).toBe(404);
    const validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer('components', 'schemas', 'Error')}` });
    expect(validate(response.body), ajv.errorsText(validate.errors)).toBe(true);
    expect(response.body.code).toBe(32614);
  });

  it('would catch an answer the document does not describe', () => {
    const validate = validatorFor('GET', '/rest/bug/{id_or_alias}', 200);
    expect(validate({ bugs: [{ id: 1, undocumented_field: true }], faults: [] })).toBe(false);
    expect(validate({ bugs: [{ id: '1' }], faults: [] })).toBe(false);
    expect(validate({ bugs: [{ id: 1, cf_anything: 'custom fields are open' }], faults: [] })).toBe(true);
  });
});

describe("answers of Bugzilla's RPC endpoints", () => {
  it('JSON-RPC by POST and GET, answer and error alike with HTTP 200, and XML-RPC as text/xml', async () => {
    const bug = seeded.first;
    const credentials = { Bugzilla_api_key: app.admin.apiKey };
    const found = await check('POST', '/jsonrpc.cgi', '/jsonrpc.cgi', {
      body: { method: 'Bug.get', params: [{ ids: [bug], ...credentials }], id: 1 },
    });
    expect(found.result.bugs[0].id).toBe(bug);
    const missing = await check('POST', '/jsonrpc.cgi', '/jsonrpc.cgi', {
      body: { method: 'Bug.get', params: [{ ids: [99999], ...credentials }], id: 2 },
    });
    expect(missing.error.code).toBe(101);
    await check('GET', '/jsonrpc.cgi', '/jsonrpc.cgi', {
      query: { method: 'Bugzilla.version', params: '[{}]', id: 3 },
    });
    const xml = await call(app, 'POST', '/xmlrpc.cgi', {
      headers: { 'Content-Type': 'text/xml' },
      rawBody:
        '<?xml version="1.0"?><methodCall><methodName>Bugzilla.version</methodName><params></params></methodCall>',
    });
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(xml.text).toMatch(/<methodResponse><params><param><value><struct><member><name>version<\/name>/);
    expect(document.paths['/xmlrpc.cgi'].post.responses['200'].content['text/xml']).toBeDefined();
    checked.add('POST /xmlrpc.cgi');
    const root = await call(app, 'POST', '/', {
      headers: { 'Content-Type': 'text/xml' },
      rawBody:
        '<?xml version="1.0"?><methodCall><methodName>Bugzilla.version</methodName><params></params></methodCall>',
    });
    expect(root.text).toBe(xml.text);
    expect(document.paths['/'].post.responses['200'].content['text/xml']).toBeDefined();
    checked.add('POST /');
  });
});

describe('answers of the single sign-on routes', () => {
  it('documents whether it is on, its start and its finish, against a real issuer', async () => {
    expect(await check('GET', '/rest/oidc', '/rest/oidc')).toEqual({ enabled: false, provider: null });
    const redirectUri = `${app.url}${CALLBACK_PATH}`;
    const issuer = await startTestIssuer(redirectUri);
    const switchOff = useTestIssuer(issuer, redirectUri);
    try {
      await check('GET', '/rest/oidc', '/rest/oidc');
      issuer.accounts.set('admin-sub', { email: app.admin.login, email_verified: true });
      issuer.signInAs('admin-sub');
      const pkce = pkcePair();
      const started = await check('POST', '/rest/oidc/login', '/rest/oidc/login', {
        body: { code_challenge: pkce.challenge },
      });
      const back = await browseToCallback(started.authorization_url, redirectUri);
      const body = {
        state: back.get('state'),
        code: back.get('code'),
        iss: back.get('iss'),
        code_verifier: pkce.verifier,
        nonce: started.nonce,
      };
      expect((await check('POST', '/rest/oidc/callback', '/rest/oidc/callback', { body })).id).toBe(app.admin.id);
    } finally {
      switchOff();
      await issuer.close();
    }
  });
});

describe('answers of the accounts-by-mail, mail-preference and saved-search routes', () => {
  it('documents each answer, and the refusal of a token that does not exist', async () => {
    const ownKey = await userWithKey(app, 'mailprefs');
    await check('GET', '/rest/preferences/mail', '/rest/preferences/mail', { apiKey: ownKey });
    await check('PUT', '/rest/preferences/mail', '/rest/preferences/mail', {
      apiKey: ownKey,
      body: { email_enabled: true },
    });

    await check('POST', '/rest/saved_search', '/rest/saved_search', {
      apiKey: ownKey,
      body: { name: 'Mine', query: 'product=TestProduct&bug_status=NEW' },
    });
    await check('GET', '/rest/saved_search', '/rest/saved_search', { apiKey: ownKey });
    await check('PUT', '/rest/saved_search/{id_or_name}', '/rest/saved_search/Mine', {
      apiKey: ownKey,
      body: { query: 'product=TestProduct' },
    });
    await check('DELETE', '/rest/saved_search/{id_or_name}', '/rest/saved_search/Mine', { apiKey: ownKey });

    const json = { 'Content-Type': 'application/json' };
    await check('POST', '/rest/account/offer_account_by_email', '/rest/account/offer_account_by_email', {
      body: { email: 'openapi-signup@tracker.test' },
    });
    await check('POST', '/rest/account/password_reset', '/rest/account/password_reset', {
      body: { email: 'openapi-nobody@tracker.test' },
    });
    await check('POST', '/rest/account/invitations', '/rest/account/invitations', {
      ...admin(),
      body: { dry_run: true },
    });
    const unknown = 'no-such-token-0123456789abcdef';
    for (const [path, body] of [
      ['/rest/account/create', { mail_token: unknown, password: 'a long enough secret', full_name: 'Nobody' }],
      ['/rest/account/password', { mail_token: unknown, password: 'a long enough secret' }],
      ['/rest/account/email', { mail_token: unknown }],
      ['/rest/account/token', { mail_token: unknown }],
      ['/rest/account/token/cancel', { mail_token: unknown }],
    ] as const) {
      const refused = await call(app, 'POST', path, { headers: json, body });
      expectDocumented('POST', path, refused, refused.status);
      expect(refused.status, path).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('coverage', () => {
  it('checked a real answer of every route of the table', () => {
    const missing = routes.map((route) => `${route.method} ${route.path}`).filter((key) => !checked.has(key));
    expect(missing).toEqual([]);
  });
});
