import { describe, expect, it } from 'vitest';
import { inlineKind } from '../../web/src/lib/attachments.ts';
import { checkDelegation, delegationRedirect } from '../../web/src/lib/authDelegation.ts';
import { type BugLike, draftChanges, draftOf, draftProblems } from '../../web/src/lib/bugDraft.ts';
import {
  countQuery,
  hasCriteria,
  pageQuery,
  pagingOf,
  quicksearchTarget,
  searchParams,
} from '../../web/src/lib/buglistQuery.ts';
import { normaliseColumns, parseColumnList, parseOrder, toggleSort } from '../../web/src/lib/columns.ts';
import { replyText } from '../../web/src/lib/comments.ts';
import { csvCell, toCsv } from '../../web/src/lib/csv.ts';
import { linkify } from '../../web/src/lib/linkify.ts';
import { pendingRequests } from '../../web/src/lib/requests.ts';
import { parseRoute, safeReturnPath } from '../../web/src/lib/routes.ts';
import { emptySearchForm, queryToSearchForm, searchFormToQuery } from '../../web/src/lib/searchForm.ts';
import { commentRequired, type StatusValue, transitionsFrom } from '../../web/src/lib/workflow.ts';

/** The web app's pure logic (web/src/lib): addresses, CSV, the workflow, the bug edit form. */

const STATUSES: StatusValue[] = [
  { name: null, can_change_to: [{ name: 'UNCONFIRMED' }, { name: 'CONFIRMED' }, { name: 'IN_PROGRESS' }] },
  {
    name: 'UNCONFIRMED',
    is_open: true,
    can_change_to: [{ name: 'CONFIRMED' }, { name: 'IN_PROGRESS' }, { name: 'RESOLVED' }],
  },
  {
    name: 'CONFIRMED',
    is_open: true,
    can_change_to: [{ name: 'IN_PROGRESS' }, { name: 'RESOLVED', comment_required: true }],
  },
  { name: 'IN_PROGRESS', is_open: true, can_change_to: [{ name: 'CONFIRMED' }, { name: 'RESOLVED' }] },
  {
    name: 'RESOLVED',
    is_open: false,
    can_change_to: [{ name: 'UNCONFIRMED' }, { name: 'CONFIRMED' }, { name: 'VERIFIED' }],
  },
  { name: 'VERIFIED', is_open: false, can_change_to: [{ name: 'UNCONFIRMED' }, { name: 'CONFIRMED' }] },
];

const BUG: BugLike = {
  summary: 'Knob falls off',
  status: 'CONFIRMED',
  resolution: '',
  dupe_of: null,
  product: 'Widgets',
  component: 'Frontend',
  version: '1.0',
  target_milestone: '---',
  priority: 'Normal',
  severity: 'major',
  platform: 'All',
  op_sys: 'All',
  assigned_to: 'dev@example.com',
  qa_contact: '',
  cc: ['a@example.com', 'b@example.com'],
  keywords: ['crash'],
  blocks: [3],
  depends_on: [],
  see_also: [],
  url: '',
  whiteboard: '',
  groups: [],
  flags: [{ id: 7, type_id: 2, name: 'review', status: '?', requestee: 'dev@example.com' }],
};

describe('routes', () => {
  it('reads Bugzilla addresses', () => {
    expect(parseRoute('/', '')).toEqual({ page: 'home' });
    expect(parseRoute('/index.cgi', '')).toEqual({ page: 'home' });
    expect(parseRoute('/show_bug.cgi', '?id=12')).toEqual({ page: 'bug', id: '12' });
    expect(parseRoute('/show_bug.cgi', '?id=my-alias')).toEqual({ page: 'bug', id: 'my-alias' });
    expect(parseRoute('/attachment.cgi', '?id=5&action=edit')).toEqual({ page: 'attachment', id: '5', edit: true });
    expect(parseRoute('/attachment.cgi', '?id=5')).toEqual({ page: 'attachment', id: '5', edit: false });
    expect(parseRoute('/userprefs.cgi', '?tab=apikey')).toEqual({ page: 'prefs', tab: 'apikey' });
    expect(parseRoute('/userprefs.cgi', '')).toEqual({ page: 'prefs', tab: 'account' });
    expect(parseRoute('/enter_bug.cgi', '?product=W&component=F')).toEqual({
      page: 'enter',
      product: 'W',
      component: 'F',
    });
    expect(parseRoute('/auth.cgi', '?callback=https%3A%2F%2Fx&description=d')).toEqual({
      page: 'auth',
      callback: 'https://x',
      description: 'd',
    });
    expect(parseRoute('/buglist.cgi', '?quicksearch=x').page).toBe('buglist');
    expect(parseRoute('/nope', '').page).toBe('notfound');
  });

  it("reads Bugzilla's administration and report addresses", () => {
    const users = parseRoute('/editusers.cgi', '?action=edit&userid=3');
    expect(users).toMatchObject({ page: 'admin', cgi: 'editusers' });
    expect(users.page === 'admin' && users.params.get('userid')).toBe('3');
    expect(parseRoute('/admin.cgi', '')).toMatchObject({ page: 'admin', cgi: 'admin' });
    expect(parseRoute('/report.cgi', '?x_axis_field=product')).toMatchObject({ page: 'admin', cgi: 'report' });
    expect(parseRoute('/showdependencytree.cgi', '?id=4')).toMatchObject({ page: 'admin', cgi: 'showdependencytree' });
    expect(parseRoute('/editnothing.cgi', '').page).toBe('notfound');
  });

  it('returns after login only to an app page of this origin', () => {
    expect(safeReturnPath('/show_bug.cgi?id=3')).toBe('/show_bug.cgi?id=3');
    expect(safeReturnPath('//evil.example/x')).toBe('/');
    expect(safeReturnPath('/\\evil.example')).toBe('/');
    expect(safeReturnPath('https://evil.example/')).toBe('/');
    expect(safeReturnPath('/rest/bug')).toBe('/');
    expect(safeReturnPath(null)).toBe('/');
  });
});

describe('buglist addresses', () => {
  const params = new URLSearchParams(
    'product=Widgets&bug_status=CONFIRMED&bug_status=IN_PROGRESS&columnlist=bug_id,short_desc&order=bug_id%20DESC&query_format=advanced&short_desc=&resolution=&limit=20&offset=40',
  );

  it('keeps the search and drops what only drives the page', () => {
    expect(searchParams(params).toString()).toBe(
      'product=Widgets&bug_status=CONFIRMED&bug_status=IN_PROGRESS&order=bug_id+DESC&resolution=',
    );
  });

  it('pages with limit and offset, counts with count_only', () => {
    expect(pagingOf(params)).toEqual({ limit: 20, offset: 40 });
    expect(pagingOf(new URLSearchParams('limit=x&offset=-3'))).toEqual({ limit: 50, offset: 0 });
    const page = pageQuery(params, ['summary', 'status'], pagingOf(params));
    expect(page.get('include_fields')).toBe('id,summary,status');
    expect([page.get('limit'), page.get('offset')]).toEqual(['20', '40']);
    const count = countQuery(params);
    expect(count.get('count_only')).toBe('1');
    expect(count.has('order')).toBe(false);
  });

  it('knows a search without criteria', () => {
    expect(hasCriteria(new URLSearchParams('order=bug_id&columnlist=x'))).toBe(false);
    expect(hasCriteria(new URLSearchParams('quicksearch=knob'))).toBe(true);
  });

  it('opens a lone bug number from quicksearch', () => {
    expect(quicksearchTarget(' 42 ')).toBe('/show_bug.cgi?id=42');
    expect(quicksearchTarget('#42')).toBe('/show_bug.cgi?id=42');
    expect(quicksearchTarget('knob falls')).toBe('/buglist.cgi?quicksearch=knob+falls');
  });
});

describe('columns and sorting', () => {
  it('reads columnlist in Bugzilla names or API names', () => {
    expect(parseColumnList('bug_id,short_desc,bug_status,nonsense')).toEqual(['id', 'summary', 'status']);
    expect(parseColumnList('')).toBeUndefined();
    expect(normaliseColumns(['summary', 'id', 'bogus'])).toEqual(['id', 'summary']);
  });

  it('sorts by a clicked column first, and reverses it on a second click', () => {
    expect(parseOrder('bug_status,changeddate DESC')).toEqual([
      { column: 'bug_status', descending: false },
      { column: 'changeddate', descending: true },
    ]);
    expect(toggleSort(null, 'priority')).toBe('priority');
    expect(toggleSort('priority', 'priority')).toBe('priority DESC');
    expect(toggleSort('priority DESC,bug_id', 'bug_id')).toBe('bug_id,priority DESC');
  });
});

describe('CSV', () => {
  it('quotes as RFC 4180 says and keeps formulas text', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(['a', 'b'])).toBe('"a, b"');
    expect(csvCell(null)).toBe('');
    expect(toCsv(['ID', 'Summary'], [[1, 'line\nbreak']])).toBe('ID,Summary\r\n1,"line\nbreak"\r\n');
  });
});

describe('workflow', () => {
  it('offers only the moves allowed from the current status, the current one first', () => {
    expect(transitionsFrom(STATUSES, 'CONFIRMED').map((t) => t.name)).toEqual(['CONFIRMED', 'IN_PROGRESS', 'RESOLVED']);
    expect(transitionsFrom(STATUSES, null).map((t) => t.name)).toEqual(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);
    expect(transitionsFrom(STATUSES, 'RESOLVED').find((t) => t.name === 'VERIFIED')?.isOpen).toBe(false);
  });

  it('knows which moves need a comment', () => {
    expect(commentRequired(STATUSES, 'CONFIRMED', 'RESOLVED')).toBe(true);
    expect(commentRequired(STATUSES, 'IN_PROGRESS', 'RESOLVED')).toBe(false);
    expect(commentRequired(STATUSES, 'CONFIRMED', 'CONFIRMED')).toBe(false);
  });
});

describe('the bug edit form', () => {
  it('sends nothing for an untouched draft', () => {
    expect(draftChanges(BUG, draftOf(BUG), STATUSES)).toEqual({});
  });

  it('sends only what changed, lists as add and remove', () => {
    const draft = {
      ...draftOf(BUG),
      priority: 'High',
      keywords: 'crash, regression',
      blocks: '',
      cc_add: 'c@example.com',
      cc_remove: ['a@example.com'],
      comment: 'Triaged.',
    };
    expect(draftChanges(BUG, draft, STATUSES)).toEqual({
      priority: 'High',
      keywords: { add: ['regression'], remove: [] },
      blocks: { add: [], remove: ['3'] },
      cc: { add: ['c@example.com'], remove: ['a@example.com'] },
      comment: { body: 'Triaged.', is_private: false },
    });
  });

  it('resolves with a resolution, marks duplicates with dupe_of', () => {
    const resolved = { ...draftOf(BUG), status: 'RESOLVED', resolution: 'FIXED', comment: 'Done' };
    expect(draftChanges(BUG, resolved, STATUSES)).toMatchObject({ status: 'RESOLVED', resolution: 'FIXED' });
    const dupe = { ...draftOf(BUG), status: 'RESOLVED', resolution: 'DUPLICATE', dupe_of: '9' };
    const changes = draftChanges(BUG, dupe, STATUSES);
    expect(changes.dupe_of).toBe(9);
    expect(changes.status).toBeUndefined();
  });

  it('says what is missing before sending', () => {
    expect(draftProblems(BUG, { ...draftOf(BUG), status: 'RESOLVED', resolution: 'FIXED' }, STATUSES)).toEqual([
      'A comment is required to change the status to RESOLVED.',
    ]);
    expect(
      draftProblems(BUG, { ...draftOf(BUG), status: 'RESOLVED', resolution: 'DUPLICATE', comment: 'x' }, STATUSES),
    ).toEqual(['Give the number of the bug this one duplicates.']);
    expect(draftProblems(BUG, { ...draftOf(BUG), summary: ' ' }, STATUSES)).toEqual(['The summary cannot be empty.']);
  });

  it('changes custom fields, multiple selections as the whole new list', () => {
    const bug = { ...BUG, cf_build: 'b1', cf_os_list: ['Linux'], cf_points: 3, cf_empty: null };
    const draft = draftOf(bug);
    expect(draft.custom).toEqual({ cf_build: 'b1', cf_os_list: ['Linux'], cf_points: '3', cf_empty: '' });
    expect(draftChanges(bug, draft, STATUSES)).toEqual({});
    draft.custom = { ...draft.custom, cf_os_list: ['Linux', 'BSD'], cf_points: '5', cf_build: 'b1' };
    expect(draftChanges(bug, draft, STATUSES)).toEqual({ cf_os_list: ['Linux', 'BSD'], cf_points: 5 });
  });

  it('changes, clears and adds flags', () => {
    const draft = draftOf(BUG);
    draft.flags = [
      { id: 7, type_id: 2, name: 'review', status: '+', requestee: 'dev@example.com' },
      { type_id: 3, name: 'qa', status: '?', requestee: 'qa@example.com' },
      { type_id: 4, name: 'approval', status: '', requestee: '' },
    ];
    expect(draftChanges(BUG, draft, STATUSES).flags).toEqual([
      { id: 7, status: '+' },
      { type_id: 3, status: '?', new: true, requestee: 'qa@example.com' },
    ]);
    draft.flags = [{ id: 7, type_id: 2, name: 'review', status: '', requestee: '' }];
    expect(draftChanges(BUG, draft, STATUSES).flags).toEqual([{ id: 7, status: 'X' }]);
  });
});

describe('the search form', () => {
  it('makes a buglist address and reads it back', () => {
    const form = {
      ...emptySearchForm(),
      summary: 'knob',
      product: ['Widgets'],
      status: ['CONFIRMED', 'IN_PROGRESS'],
      email: 'dev@example.com',
      emailRoles: ['assigned_to'],
      flag: 'review?',
      rows: [{ field: 'keywords', operator: 'anywords', value: 'crash' }],
    };
    const q = searchFormToQuery(form);
    expect(q.get('short_desc')).toBe('knob');
    expect(q.getAll('bug_status')).toEqual(['CONFIRMED', 'IN_PROGRESS']);
    expect(q.get('emailassigned_to1')).toBe('1');
    expect([q.get('f1'), q.get('o1'), q.get('v1')]).toEqual(['flagtypes.name', 'substring', 'review?']);
    expect([q.get('f2'), q.get('o2'), q.get('v2')]).toEqual(['keywords', 'anywords', 'crash']);
    const back = queryToSearchForm(q);
    expect(back).toMatchObject({ summary: 'knob', product: ['Widgets'], email: 'dev@example.com', flag: 'review?' });
    expect(back.emailRoles).toEqual(['assigned_to']);
    expect(back.rows).toEqual(form.rows);
  });
});

describe('comment links', () => {
  it('links bugs, attachments, comments and web addresses, and nothing else', () => {
    expect(linkify('see bug 12 and attachment 3, comment #4: https://example.com/x.')).toEqual([
      { text: 'see ' },
      { text: 'bug 12', href: '/show_bug.cgi?id=12' },
      { text: ' and ' },
      { text: 'attachment 3', href: '/attachment.cgi?id=3&action=edit' },
      { text: ', ' },
      { text: 'comment #4', href: '#c4' },
      { text: ': ' },
      { text: 'https://example.com/x', href: 'https://example.com/x' },
      { text: '.' },
    ]);
    expect(linkify('javascript:alert(1) <b>x</b>')).toEqual([{ text: 'javascript:alert(1) <b>x</b>' }]);
  });
});

describe('authentication delegation', () => {
  it('accepts https callbacks and http only to this machine', () => {
    expect(checkDelegation('https://app.example/cb?x=1', 'My app').ok).toBe(true);
    expect(checkDelegation('http://localhost:3000/cb', 'My app').ok).toBe(true);
    expect(checkDelegation('http://app.example/cb', 'My app').ok).toBe(false);
    expect(checkDelegation('javascript:alert(1)', 'My app').ok).toBe(false);
    expect(checkDelegation('https://u:p@app.example/', 'My app').ok).toBe(false);
    expect(checkDelegation('', 'My app').ok).toBe(false);
    expect(checkDelegation('https://app.example/', '').ok).toBe(false);
  });

  it('sends the key and login to the callback as Bugzilla does', () => {
    const check = checkDelegation('https://app.example/cb?state=s', 'My app');
    if (!check.ok) throw new Error('refused');
    expect(check.callbackBase).toBe('https://app.example/cb');
    const url = new URL(delegationRedirect(check.callback, 'me@example.com', 'KEY'));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      state: 's',
      client_api_key: 'KEY',
      client_api_login: 'me@example.com',
    });
  });
});

describe('attachments shown in the page', () => {
  it('shows text and raster images, downloads everything else', () => {
    expect(inlineKind({ content_type: 'text/plain; charset=utf-8', is_patch: false })).toBe('text');
    expect(inlineKind({ content_type: 'application/octet-stream', is_patch: true })).toBe('text');
    expect(inlineKind({ content_type: 'image/png', is_patch: false })).toBe('image');
    expect(inlineKind({ content_type: 'image/svg+xml', is_patch: false })).toBeNull();
    expect(inlineKind({ content_type: 'text/html', is_patch: false })).toBe('text');
    expect(inlineKind({ content_type: 'application/pdf', is_patch: false })).toBeNull();
  });
});

describe('replies and requests', () => {
  it('quotes a comment as Bugzilla does', () => {
    expect(replyText({ creator: 'a@example.com', count: 2, text: 'one\ntwo' })).toBe(
      '(In reply to a@example.com from comment #2)\n> one\n> two\n\n',
    );
    expect(replyText({ creator: 'a@example.com', count: 0, text: 'x' })).toBe(
      '(In reply to a@example.com from description)\n> x\n\n',
    );
  });

  it('finds the flags asked of someone and by someone', () => {
    const bugs = [
      {
        id: 1,
        flags: [
          { id: 1, name: 'review', status: '?', setter: 'a@x', requestee: 'me@x' },
          { id: 2, name: 'qa', status: '+', setter: 'a@x', requestee: 'me@x' },
          { id: 3, name: 'needinfo', status: '?', setter: 'me@x', requestee: 'b@x' },
        ],
      },
    ];
    expect(pendingRequests(bugs, 'me@x', 'requestee').map((r) => r.flag.id)).toEqual([1]);
    expect(pendingRequests(bugs, 'me@x', 'setter').map((r) => r.flag.id)).toEqual([3]);
  });
});
