/**
 * A live Bugzilla 5.2 for the importer's tests (../shared/bugzilla52 builds one on loopback): its
 * REST API with the key as a parameter (5.2 reads no header), and its administration forms for
 * what 5.2's API cannot do (custom fields, legal values, the status workflow, product group
 * controls): logged in with a cookie, each form's token read from the page that issues it, as a
 * browser would.
 */

export const BUGZILLA52_URL = (process.env.TRACKER_BUGZILLA52_URL ?? 'http://127.0.0.1:8090').replace(/\/+$/, '');
export const BUGZILLA52_KEY = process.env.TRACKER_BUGZILLA52_KEY ?? 'OracleAdminKey0123456789abcdefghijABCDEF';
const ADMIN_LOGIN = process.env.TRACKER_BUGZILLA52_LOGIN ?? 'admin@example.com';
const ADMIN_PASSWORD = process.env.TRACKER_BUGZILLA52_PASSWORD ?? 'Password-1234';

/** Why the tests cannot run against BUGZILLA52_URL, or null when they can. */
export async function bugzilla52Unavailable(): Promise<string | null> {
  try {
    const response = await fetch(`${BUGZILLA52_URL}/rest/version`, { signal: AbortSignal.timeout(5000) });
    const body = (await response.json()) as { version?: string };
    if (!/^5\.2/.test(body.version ?? '')) return `${BUGZILLA52_URL} answers version ${body.version}, not 5.2`;
    return null;
  } catch (error) {
    return `no Bugzilla 5.2 answers at ${BUGZILLA52_URL} (${(error as Error).message}); start one with bash ../shared/bugzilla52/start.sh (see README, "Importing from Bugzilla 5.2")`;
  }
}

export async function rest<T = any>(method: string, path: string, body?: Record<string, unknown>): Promise<T> {
  const url = new URL(`${BUGZILLA52_URL}/rest${path}`);
  if (method === 'GET' || method === 'DELETE') url.searchParams.set('api_key', BUGZILLA52_KEY);
  const response = await fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify({ ...body, api_key: BUGZILLA52_KEY }),
  });
  const answer = (await response.json()) as any;
  if (answer?.error) throw new Error(`${method} ${path}: Bugzilla error ${answer.code}: ${answer.message}`);
  return answer as T;
}

/** JSON-RPC, for what 5.2 has no REST route for (personal tags). */
export async function jsonRpc<T = any>(method: string, params: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${BUGZILLA52_URL}/jsonrpc.cgi`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ method, params: [{ ...params, api_key: BUGZILLA52_KEY }], id: 1 }),
  });
  const answer = (await response.json()) as any;
  if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result as T;
}

/** The administration forms, as the administrator logged in with a password. */
export class AdminForms {
  private readonly cookies = new Map<string, string>();

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  private async request(path: string, form?: Array<[string, string]>): Promise<string> {
    const response = await fetch(`${BUGZILLA52_URL}/${path}`, {
      method: form ? 'POST' : 'GET',
      headers: {
        Cookie: this.cookieHeader(),
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    this.keep(response);
    return response.text();
  }

  async page(path: string): Promise<string> {
    return this.request(path);
  }

  async login(): Promise<void> {
    // The first visit sets the login request cookie; the login form's token is issued for it.
    await this.request('index.cgi?GoAheadAndLogIn=1');
    const page = await this.request('index.cgi?GoAheadAndLogIn=1');
    const token = /name="Bugzilla_login_token"[^>]*?value="([^"]+)"/.exec(page)?.[1] ?? '';
    await this.request('index.cgi', [
      ['Bugzilla_login', ADMIN_LOGIN],
      ['Bugzilla_password', ADMIN_PASSWORD],
      ['Bugzilla_login_token', token],
      ['GoAheadAndLogIn', '1'],
    ]);
    if (!this.cookies.has('Bugzilla_logincookie')) throw new Error('could not log in to the Bugzilla 5.2 forms');
  }

  /** GETs `formPath` for its token, then POSTs `fields` with it to `target`; fails on an error page. */
  async submit(formPath: string, target: string, fields: Array<[string, string]>): Promise<string> {
    const form = await this.request(formPath);
    const token = /name="token"[^>]*?value="([^"]+)"/.exec(form)?.[1];
    if (!token) throw new Error(`no token in ${formPath}: ${form.slice(0, 300)}`);
    const page = await this.request(target, [...fields, ['token', token]]);
    const error = /<div class="throw_error">([\s\S]*?)<\/div>/.exec(page)?.[1];
    if (error)
      throw new Error(
        `${target}: ${error
          .replace(/<[^>]+>/g, '')
          .replace(/\s+/g, ' ')
          .trim()}`,
      );
    return page;
  }
}

export interface Loaded52 {
  /** Bugs this load filed, in id order. */
  bugs: number[];
  /** The bugs in the private group. */
  privateBugs: number[];
  product: string;
  group: string;
  /** A bug in the added status VERIFYING, reached through the changed workflow. */
  verifying: number;
  /** A bug whose priority was disabled after it was filed. */
  disabledPriority: number;
}

const fieldValue = (page: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(page)?.[1] ??
  new RegExp(`value="([^"]*)"[^>]*name="${name}"`).exec(page)?.[1];

/**
 * Loads a 5.2 the way an administrator and users would, through REST, JSON-RPC and the
 * administration forms: custom fields of each type, a status with its workflow, a keyword, a
 * private group on a product whose controls make it MANDATORY, users, flag types, and bugs with
 * comments (a private one, tags), attachments, flags, dependencies, a duplicate, time tracking,
 * personal tags, and a legal value disabled afterwards. What already exists from an earlier run
 * is reused; the bugs are new each time.
 */
export async function load52(): Promise<Loaded52> {
  const forms = new AdminForms();
  await forms.login();
  const fields = (await rest('GET', '/field/bug')).fields as Array<{ name: string; values?: Array<{ name: string }> }>;
  const hasField = (name: string) => fields.some((field) => field.name === name);
  const customFields: Array<[string, number, string]> = [
    ['cf_kittext', 1, 'Kit text'],
    ['cf_kitselect', 2, 'Kit select'],
    ['cf_kitmulti', 3, 'Kit multi'],
    ['cf_kitnotes', 4, 'Kit notes'],
    ['cf_kitwhen', 5, 'Kit when'],
    ['cf_kitbug', 6, 'Kit bug'],
    ['cf_kitdate', 9, 'Kit date'],
    ['cf_kitcount', 10, 'Kit count'],
  ];
  for (const [name, type, description] of customFields) {
    if (hasField(name)) continue;
    await forms.submit('editfields.cgi?action=add', 'editfields.cgi', [
      ['action', 'new'],
      ['name', name],
      ['desc', description],
      ['type', String(type)],
      ['sortkey', '100'],
      ['enter_bug', '1'],
    ]);
    if (type === 2 || type === 3)
      for (const value of ['Alpha', 'Beta', 'Gamma'])
        await forms.submit(`editvalues.cgi?action=add&field=${name}`, 'editvalues.cgi', [
          ['action', 'new'],
          ['field', name],
          ['value', value],
          ['sortkey', '10'],
        ]);
  }
  const statuses = fields.find((field) => field.name === 'bug_status')?.values?.map((value) => value.name) ?? [];
  if (!statuses.includes('VERIFYING')) {
    await forms.submit('editvalues.cgi?action=add&field=bug_status', 'editvalues.cgi', [
      ['action', 'new'],
      ['field', 'bug_status'],
      ['value', 'VERIFYING'],
      ['sortkey', '450'],
      ['is_open', '1'],
    ]);
    // The whole workflow is posted: every transition that is on now, and IN_PROGRESS → VERIFYING → RESOLVED.
    const workflow = await forms.page('editworkflow.cgi');
    const boxes = [...workflow.matchAll(/<input[^>]*name="(w_(\d+)_(\d+))"[^>]*>/g)];
    const on = boxes.filter((box) => /checked/.test(box[0])).map((box) => box[1]);
    const ids = boxes.flatMap((box) => [Number(box[2]), Number(box[3])]);
    const verifying = Math.max(...ids);
    const inProgress = 3;
    const resolved = 4;
    await forms.submit('editworkflow.cgi', 'editworkflow.cgi', [
      ['action', 'update'],
      ...on.map((name): [string, string] => [name, '1']),
      [`w_${inProgress}_${verifying}`, '1'],
      [`w_${verifying}_${resolved}`, '1'],
    ]);
  }
  const keywords = await jsonRpc('Bug.fields', { names: ['keywords'] });
  if (!JSON.stringify(keywords).includes('"kitregression"'))
    await forms.submit('editkeywords.cgi?action=add', 'editkeywords.cgi', [
      ['action', 'new'],
      ['name', 'kitregression'],
      ['description', 'It used to work'],
    ]);

  const group = 'kitsecret';
  let groupId: number;
  try {
    groupId = (await rest('GET', `/group?names=${group}`)).groups[0].id;
  } catch {
    groupId = (await rest('POST', '/group', { name: group, description: 'Kit secret', is_active: true })).id;
  }
  await rest('PUT', '/user/admin@example.com', { groups: { add: [group] } });
  const logins: string[] = [];
  for (const name of ['kitdev', 'kitqa']) {
    const login = `${name}@example.com`;
    logins.push(login);
    const found = await rest('GET', `/user?names=${login}`).catch(() => ({ users: [] }));
    if (found.users.length === 0)
      await rest('POST', '/user', { email: login, full_name: `${name} person`, password: `${name}-Pass-1234` });
  }
  await rest('PUT', '/user/kitdev@example.com', { groups: { add: [group, 'editbugs'] } });

  const product = 'KitImport';
  const products = await rest('GET', `/product?names=${product}`);
  if (products.products.length === 0) {
    await rest('POST', '/product', {
      name: product,
      description: 'Private imports',
      version: '1.0',
      has_unconfirmed: true,
    });
    await rest('POST', '/component', {
      product,
      name: 'Engine',
      description: 'The engine',
      default_assignee: 'kitdev@example.com',
      default_qa_contact: 'kitqa@example.com',
    });
    await forms.submit(`editproducts.cgi?action=editgroupcontrols&product=${product}`, 'editproducts.cgi', [
      ['action', 'updategroupcontrols'],
      ['product', product],
      [`membercontrol_${groupId}`, '3'],
      [`othercontrol_${groupId}`, '3'],
      ['confirmed', '1'],
    ]);
  }
  const flagTypes = JSON.stringify(await rest('GET', `/flag_type/${product}`));
  const inclusions = [{ [product]: ['Engine'] }, { TestProduct: ['TestComponent'] }];
  if (!flagTypes.includes('"kitreview"'))
    await rest('POST', '/flag_type', {
      name: 'kitreview',
      description: 'Code review',
      target_type: 'attachment',
      inclusions,
      is_requestable: true,
      is_requesteeble: true,
    });
  if (!flagTypes.includes('"kitneedinfo"'))
    await rest('POST', '/flag_type', {
      name: 'kitneedinfo',
      description: 'More information needed',
      target_type: 'bug',
      inclusions,
      is_requestable: true,
      is_requesteeble: true,
      is_multiplicable: true,
    });

  const file = async (values: Record<string, unknown>) =>
    (
      await rest('POST', '/bug', {
        product: 'TestProduct',
        component: 'TestComponent',
        version: 'unspecified',
        op_sys: 'Linux',
        platform: 'PC',
        summary: 'Kit import bug',
        description: 'Steps to reproduce',
        ...values,
      })
    ).id as number;
  const bugs: number[] = [];
  const privateBugs: number[] = [];
  const stamp = Date.now().toString(36);
  const first = await file({
    summary: `Engine stalls ${stamp}`,
    alias: [`kit-${stamp}`],
    priority: 'High',
    severity: 'major',
    cc: logins,
    keywords: ['kitregression'],
    url: 'https://example.com/stall',
    whiteboard: '[kit]',
    estimated_time: 6.5,
    deadline: '2030-01-31',
    cf_kittext: 'Only on Mondays',
    cf_kitselect: 'Beta',
    cf_kitmulti: ['Alpha', 'Gamma'],
    cf_kitnotes: 'Line one\nLine two',
    cf_kitwhen: '2026-11-20 10:11:12',
    cf_kitdate: '2026-12-24',
    cf_kitcount: 42,
    flags: [{ name: 'kitneedinfo', status: '?', requestee: 'kitdev@example.com' }],
  });
  bugs.push(first);
  const second = await file({ summary: `Springs rattle ${stamp}`, depends_on: [first], cf_kitbug: first });
  bugs.push(second);
  const hidden = await file({
    product,
    component: 'Engine',
    version: '1.0',
    summary: `Secret engine ${stamp}`,
    groups: [group],
  });
  bugs.push(hidden);
  privateBugs.push(hidden);
  const hidden2 = await file({ product, component: 'Engine', version: '1.0', summary: `Secret two ${stamp}` });
  bugs.push(hidden2);
  privateBugs.push(hidden2);
  const dupe = await file({ summary: `Same stall ${stamp}` });
  bugs.push(dupe);
  await setActive(forms, 'priority', 'Lowest', true);
  const lowest = await file({ summary: `Cosmetic ${stamp}`, priority: 'Lowest' });
  bugs.push(lowest);

  await rest('PUT', `/bug/${first}`, {
    status: 'IN_PROGRESS',
    assigned_to: 'kitdev@example.com',
    comment: { body: 'Working on it.' },
    remaining_time: 3,
    work_time: 1.5,
    cc: { remove: ['kitqa@example.com'] },
    see_also: { add: ['https://bugs.example.org/show_bug.cgi?id=3'] },
  });
  const privateComment = (await rest('POST', `/bug/${first}/comment`, { comment: 'Insiders only', is_private: true }))
    .id as number;
  await rest('PUT', `/bug/comment/${privateComment}/tags`, { add: ['kittag', 'spam'] });
  const patch = (
    await rest('POST', `/bug/${first}/attachment`, {
      ids: [first],
      file_name: 'oil.patch',
      summary: 'Oil the engine',
      is_patch: true,
      data: Buffer.from('diff --git a/engine b/engine\n+oil\n').toString('base64'),
      comment: 'Here is a fix',
      flags: [{ name: 'kitreview', status: '?', requestee: 'kitdev@example.com' }],
    })
  ).ids[0] as number;
  await rest('POST', `/bug/${first}/attachment`, {
    ids: [first],
    file_name: 'screen.png',
    summary: 'What it looks like',
    content_type: 'image/png',
    data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]).toString('base64'),
    is_private: true,
    // Set again here: obsoleting an attachment clears its flags on 5.2.
    flags: [{ name: 'kitreview', status: '+' }],
  });
  await rest('PUT', `/bug/attachment/${patch}`, { is_obsolete: true, comment: 'Superseded' });
  await rest('PUT', `/bug/${first}`, { status: 'VERIFYING', comment: { body: 'Fixed, checking.' } });
  await rest('PUT', `/bug/${first}`, { status: 'RESOLVED', resolution: 'FIXED' });
  await rest('PUT', `/bug/${dupe}`, { dupe_of: first });
  await rest('PUT', `/bug/${second}`, { status: 'IN_PROGRESS', keywords: { add: ['kitregression'] } });
  await rest('PUT', `/bug/${second}`, { status: 'VERIFYING' });
  await rest('PUT', `/bug/${hidden}`, { comment: { body: 'Only the group reads this.' }, priority: 'Highest' });
  await jsonRpc('Bug.update_tags', { ids: [second], tags: { add: ['kitmine'] } });
  // Disabled after a bug took it: the bug keeps it.
  await setActive(forms, 'priority', 'Lowest', false);
  return { bugs, privateBugs, product, group, verifying: second, disabledPriority: lowest };
}

async function setActive(forms: AdminForms, field: string, value: string, active: boolean): Promise<void> {
  const path = `editvalues.cgi?action=edit&field=${field}&value=${encodeURIComponent(value)}`;
  const sortkey = fieldValue(await forms.page(path), 'sortkey') ?? '0';
  await forms.submit(path, 'editvalues.cgi', [
    ['action', 'update'],
    ['field', field],
    ['value', value],
    ['value_new', value],
    ['sortkey', sortkey],
    ['is_active', active ? '1' : '0'],
  ]);
}
