import { createHiddenAndLockedProducts, fileTestBug, ok, userWithKey } from './testAccounts.ts';
import { call, type TestApp } from './testApp.ts';

/**
 * An installation with something of everything an import carries, seeded over HTTP for the
 * importer's tests: a classification, a bug group with a regular expression, product Widget
 * (versions, an inactive milestone, components Gears and Springs), a keyword, custom fields,
 * flag types, users (one disabled), and bugs with every field, private comments, attachments
 * (one private, one obsolete with a flag), a duplicate, tags and history; then a bug only the
 * group `secret` sees, and a few plain bugs after it.
 */
export interface SeededInstallation {
  /** Every bug filed, in id order: first, second, third, hiddenBug, then the fillers. */
  bugs: number[];
  /** Widget/Gears, every field set, changed since; its attachments and private comment are below. */
  first: number;
  /** Widget/Springs, depends on the first, RESOLVED FIXED. */
  second: number;
  /** A duplicate of the first. */
  third: number;
  /** Filed in Hidden, which only the group `secret` (and administrators) sees. */
  hiddenBug: number;
  users: { dev: number; 'qa-lead': number; gone: number };
  privateComment: number;
  /** oil.patch (obsolete, with a review request) and screenshot.png (private, binary). */
  attachments: { patch: number; image: number };
  /** Each attachment's body by attachment id. */
  bodies: Map<number, Buffer>;
  /** The API key of `plain`, a user in no group. */
  plainKey: string;
}

/** Bytes no text encoding keeps: NUL, 0xFF, a lone CR, PNG's signature. */
export const BINARY = Buffer.from([0, 1, 2, 254, 255, 10, 13, 0x89, 0x50, 0x4e, 0x47]);

export async function seedInstallation(app: TestApp, { fillers = 1 } = {}): Promise<SeededInstallation> {
  const key = app.admin.apiKey;
  const post = (path: string, body: unknown) => ok(call(app, 'POST', path, { apiKey: key, body }));
  const put = (path: string, body: unknown) => ok(call(app, 'PUT', path, { apiKey: key, body }));

  // Catalogue.
  await post('/rest/classification', { name: 'Hardware', description: 'Things you can touch', sort_key: 7 });
  await post('/rest/group', { name: 'testers', description: 'Test team', user_regexp: '^qa-.*@tracker\\.test$' });
  await post('/rest/product', {
    name: 'Widget',
    description: 'Widgets & gadgets',
    version: '1.0',
    classification: 'Hardware',
    has_unconfirmed: false,
  });
  await post('/rest/product/Widget/version', { name: '2.0', sort_key: 2 });
  await post('/rest/product/Widget/milestone', { name: 'M1', sort_key: 10 });
  await post('/rest/product/Widget/milestone', { name: 'M2', sort_key: 20, is_active: false });
  await put('/rest/product/Widget', { default_milestone: 'M1' });
  const users = {} as SeededInstallation['users'];
  for (const name of ['dev', 'qa-lead', 'gone'] as const)
    users[name] = (
      await post('/rest/user', {
        email: `${name}@tracker.test`,
        full_name: `${name} person`,
        password: `${name}-pw-123`,
      })
    ).id;
  await put(`/rest/user/${users.dev}`, { groups: { add: ['editbugs', 'testers'] } });
  await put(`/rest/user/${users.gone}`, { login_denied_text: 'Left the company' });
  await post('/rest/component', {
    product: 'Widget',
    name: 'Gears',
    description: 'Turning parts',
    default_assignee: 'dev@tracker.test',
    default_qa_contact: 'qa-lead@tracker.test',
  });
  await post('/rest/component', {
    product: 'Widget',
    name: 'Springs',
    description: 'Bouncy parts',
    default_assignee: app.admin.login,
  });
  await post('/rest/keyword', { name: 'regression', description: 'It used to work' });
  await post('/rest/field/bug', {
    name: 'cf_browser',
    display_name: 'Browser',
    type: 2,
    values: ['Firefox', 'Chrome'],
  });
  await post('/rest/field/bug', { name: 'cf_notes', display_name: 'Notes', type: 4 });
  await post('/rest/flag_type', {
    name: 'review',
    description: 'Code review',
    target_type: 'attachment',
    inclusions: ['Widget:Gears'],
    is_requesteeble: true,
  });
  await post('/rest/flag_type', {
    name: 'needinfo',
    description: 'More information needed',
    inclusions: ['Widget'],
    is_multiplicable: true,
    is_requesteeble: true,
    sort_key: 3,
  });

  // Bugs with every field, then changes for history.
  const first = await fileTestBug(app, key, {
    product: 'Widget',
    component: 'Gears',
    version: '2.0',
    summary: 'Gears grind',
    description: 'Steps:\n1. turn\n2. listen',
    alias: 'grinding',
    priority: 'High',
    severity: 'major',
    type: 'defect',
    op_sys: 'Windows',
    platform: 'PC',
    target_milestone: 'M1',
    url: 'https://example.com/grind',
    whiteboard: '[triage]',
    keywords: ['regression'],
    cc: ['dev@tracker.test'],
    see_also: ['https://bugs.example.org/show_bug.cgi?id=3'],
    deadline: '2030-01-31',
    estimated_time: 6.5,
    cf_browser: 'Firefox',
    cf_notes: 'Only on Mondays',
    flags: [{ name: 'needinfo', status: '?', requestee: 'dev@tracker.test' }],
  });
  const second = await fileTestBug(app, key, {
    product: 'Widget',
    component: 'Springs',
    version: '1.0',
    summary: 'Springs too bouncy',
    depends_on: [first],
  });
  const third = await fileTestBug(app, key, { summary: 'Same as the first' });
  await put(`/rest/bug/${first}`, {
    status: 'IN_PROGRESS',
    priority: 'Highest',
    comment: { body: 'Working on it, **really**.', is_markdown: true },
    remaining_time: 3,
    cc: { add: ['qa-lead@tracker.test'] },
  });
  const privateComment = (
    await post(`/rest/bug/${first}/comment`, { comment: 'Insiders only', is_private: true, work_time: 1.5 })
  ).id;
  await put(`/rest/bug/comment/${privateComment}/tags`, { add: ['spam', 'needinfo'] });
  const bodies = new Map<number, Buffer>();
  const patchBody = Buffer.from('diff --git a/gear b/gear\n+oil\n');
  const patch = (
    await post(`/rest/bug/${first}/attachment`, {
      file_name: 'oil.patch',
      summary: 'Oil the gears',
      is_patch: true,
      data: patchBody.toString('base64'),
      comment: 'Here is a fix',
      flags: [{ name: 'review', status: '?', requestee: 'dev@tracker.test' }],
    })
  ).ids[0];
  bodies.set(patch, patchBody);
  const image = (
    await post(`/rest/bug/${first}/attachment`, {
      file_name: 'screenshot.png',
      summary: 'What it looks like',
      content_type: 'image/png',
      data: BINARY.toString('base64'),
      is_private: true,
    })
  ).ids[0];
  bodies.set(image, BINARY);
  await put(`/rest/bug/attachment/${patch}`, { is_obsolete: true, comment: 'Superseded' });
  await put(`/rest/bug/${third}`, { dupe_of: first, comment: { body: 'Same thing.' } });
  await put(`/rest/bug/${first}/tags`, { add: ['mine', 'later'] });
  await put(`/rest/bug/${second}`, { status: 'RESOLVED', resolution: 'FIXED', keywords: { add: ['regression'] } });

  // A bug only the group `secret` sees (and Tracker's administrators, who are in every group).
  await createHiddenAndLockedProducts(app);
  const insiderKey = await userWithKey(app, 'keeper', ['secret']);
  const hiddenBug = await fileTestBug(app, insiderKey, { product: 'Hidden', component: 'Core', version: '1.0' });
  const bugs = [first, second, third, hiddenBug];
  for (let n = 0; n < fillers; n++) bugs.push(await fileTestBug(app, key, { summary: `Filler ${n}` }));
  const plainKey = await userWithKey(app, 'plain');
  return {
    bugs,
    first,
    second,
    third,
    hiddenBug,
    users,
    privateComment,
    attachments: { patch, image },
    bodies,
    plainKey,
  };
}
