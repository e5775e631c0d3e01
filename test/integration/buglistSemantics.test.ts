import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSecond, useSteppableClock } from '../support/clock.ts';
import { fileTestBug, ok, userWithKey } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * The buglist and advanced-search meanings of Bugzilla 5.2 that GET /rest/bug keeps where the
 * spec is silent: comment text across and per comment, `chfieldfrom`/`chfieldto` on the last
 * change time, `dup_id` (no search field), `url`, `short_desc`'s every-word default and the `__open__`,
 * `__closed__` and `__all__` statuses. Every bug of the installation is filed here, so each
 * answer is an exact list of ids known from what was filed.
 */
useSteppableClock();

let app: TestApp;
let admin: string;
let insider: string;
let plain: string;

/** Each bug filed, with the status it has now. */
const statuses = new Map<number, string>();
const OPEN = new Set(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS']);

const bugs = {} as Record<
  | 'splitWords'
  | 'bothWords'
  | 'oneWord'
  | 'noWords'
  | 'secretNote'
  | 'target'
  | 'dupeA'
  | 'dupeB'
  | 'otherDupe'
  | 'urlExample'
  | 'urlOther'
  | 'slowWidget'
  | 'widgetSlowly'
  | 'widgetOnly'
  | 'phrase'
  | 'changedTwice'
  | 'createdBetween'
  | 'createdLast',
  number
>;
/** Last change times read back after the clock was stepped: `YYYY-MM-DD HH:MM:SS` (UTC). */
const times = {} as Record<'statusChange' | 'createdBetween' | 'secondChange', string>;

const file = async (overrides: Record<string, unknown>) => {
  const id = await fileTestBug(app, admin, overrides);
  statuses.set(id, 'CONFIRMED');
  return id;
};
const put = (id: number, body: Record<string, unknown>) =>
  ok(call(app, 'PUT', `/rest/bug/${id}`, { apiKey: admin, body }));
const comment = (id: number, text: string, key = admin, isPrivate = false) =>
  ok(call(app, 'POST', `/rest/bug/${id}/comment`, { apiKey: key, body: { comment: text, is_private: isPrivate } }));
const lastChange = async (id: number) =>
  String((await ok(call(app, 'GET', `/rest/bug/${id}`, { apiKey: admin }))).bugs[0].last_change_time)
    .replace('T', ' ')
    .replace('Z', '');

async function found(query: Record<string, string | string[]>, key = admin): Promise<number[]> {
  const response = await call(app, 'GET', '/rest/bug', { apiKey: key, query: { ...query, include_fields: 'id' } });
  expect(response.status, response.text).toBe(200);
  return response.body.bugs.map((bug: { id: number }) => bug.id).sort((a: number, b: number) => a - b);
}
const all = () => [...statuses.keys()].sort((a, b) => a - b);
const except = (...ids: number[]) => all().filter((id) => !ids.includes(id));
const whereStatus = (test: (status: string) => boolean) => all().filter((id) => test(statuses.get(id)!));
const ids = (...list: number[]) => [...list].sort((a, b) => a - b);

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  await ok(call(app, 'POST', '/rest/group', { apiKey: admin, body: { name: 'insiders', description: 'Insiders' } }));
  await ok(call(app, 'PUT', '/rest/parameters', { apiKey: admin, body: { insidergroup: 'insiders' } }));
  insider = await userWithKey(app, 'insider', ['insiders']);
  plain = await userWithKey(app, 'plain');

  // Comment text.
  bugs.splitWords = await file({ summary: 'Split words', description: 'alpha kiwi' });
  await comment(bugs.splitWords, 'beta mango');
  bugs.bothWords = await file({ summary: 'Both words', description: 'alpha and beta together' });
  bugs.oneWord = await file({ summary: 'One word', description: 'alpha only here' });
  bugs.noWords = await file({ summary: 'No words', description: 'nothing relevant' });
  await comment(bugs.noWords, 'gamma');
  bugs.secretNote = await file({ summary: 'Secret note', description: 'alpha in public' });
  await comment(bugs.secretNote, 'zeta hidden', insider, true);

  // Duplicates.
  bugs.target = await file({ summary: 'Duplicated target', description: 'The original.' });
  bugs.dupeA = await file({ summary: 'First copy', description: 'Copy one.' });
  bugs.dupeB = await file({ summary: 'Second copy', description: 'Copy two.' });
  bugs.otherDupe = await file({ summary: 'Copy of another', description: 'Copy three.' });
  for (const [dupe, of] of [
    [bugs.dupeA, bugs.target],
    [bugs.dupeB, bugs.target],
    [bugs.otherDupe, bugs.noWords],
  ]) {
    await put(dupe, { dupe_of: of });
    statuses.set(dupe, 'RESOLVED');
  }

  // URLs.
  bugs.urlExample = await file({ summary: 'Has a URL', url: 'https://Example.COM/path/One' });
  bugs.urlOther = await file({ summary: 'Has another URL', url: 'http://other.org/example' });

  // Summaries, in every status.
  bugs.slowWidget = await file({ summary: 'Widget frobnicates slowly' });
  bugs.widgetSlowly = await file({ summary: 'Slowly the WIDGET turns' });
  bugs.widgetOnly = await file({ summary: 'Widget frobnicates' });
  bugs.phrase = await file({ summary: 'A widget slowly dies' });
  await put(bugs.slowWidget, { status: 'IN_PROGRESS' });
  statuses.set(bugs.slowWidget, 'IN_PROGRESS');
  await put(bugs.widgetSlowly, { status: 'RESOLVED', resolution: 'FIXED' });
  statuses.set(bugs.widgetSlowly, 'RESOLVED');
  await put(bugs.widgetOnly, { status: 'RESOLVED', resolution: 'FIXED' });
  await put(bugs.widgetOnly, { status: 'VERIFIED' });
  statuses.set(bugs.widgetOnly, 'VERIFIED');

  // Times: each step lands in a later second than everything before it.
  nextSecond();
  bugs.changedTwice = await file({ summary: 'Changed twice' });
  nextSecond();
  await put(bugs.changedTwice, { status: 'IN_PROGRESS' });
  statuses.set(bugs.changedTwice, 'IN_PROGRESS');
  times.statusChange = await lastChange(bugs.changedTwice);
  nextSecond();
  bugs.createdBetween = await file({ summary: 'Created between' });
  times.createdBetween = await lastChange(bugs.createdBetween);
  nextSecond();
  await put(bugs.changedTwice, { priority: 'Highest' });
  times.secondChange = await lastChange(bugs.changedTwice);
  nextSecond();
  bugs.createdLast = await file({ summary: 'Created last' });
});

afterAll(() => app?.close());

describe('comment text', () => {
  it('takes longdesc as any of its words in any comment, whatever longdesc_type says (5.2 WebService)', async () => {
    const anyAlphaOrBeta = ids(bugs.splitWords, bugs.bothWords, bugs.oneWord, bugs.secretNote);
    expect(await found({ longdesc: 'alpha beta', longdesc_type: 'allwordssubstr' })).toEqual(anyAlphaOrBeta);
    expect(await found({ longdesc: 'alph bet', longdesc_type: 'allwordssubstr' })).toEqual(anyAlphaOrBeta);
    expect(await found({ longdesc: 'alpha beta' })).toEqual(anyAlphaOrBeta);
    // Repeated values are joined into one list of words.
    expect(await found({ longdesc: ['kiwi', 'mango'] })).toEqual([bugs.splitWords]);
  });

  it('finds every word of allwordssubstr in one comment', async () => {
    // Search.pm joins one comment per criterion: words in two comments are not found together.
    expect(await found({ f1: 'longdesc', o1: 'allwordssubstr', v1: 'alpha beta' })).toEqual([bugs.bothWords]);
    expect(await found({ long_desc: 'beta,alpha', long_desc_type: 'allwordssubstr' })).toEqual([bugs.bothWords]);
    expect(await found({ f1: 'longdesc', o1: 'allwordssubstr', v1: 'alpha mango' })).toEqual([]);
  });

  it('finds any word of anywordssubstr in any comment', async () => {
    const any = ids(bugs.splitWords, bugs.bothWords, bugs.oneWord, bugs.secretNote, bugs.noWords);
    expect(await found({ longdesc: 'alpha gamma', longdesc_type: 'anywordssubstr' })).toEqual(any);
    expect(await found({ longdesc: 'mango gamma', longdesc_type: 'anywordssubstr' })).toEqual(
      ids(bugs.splitWords, bugs.noWords),
    );
  });

  it('applies negated operators to each comment: a bug with one comment without the text', async () => {
    // splitWords has alpha in one comment, not the other; bothWords and oneWord have one comment, with alpha.
    const withoutAlpha = except(bugs.bothWords, bugs.oneWord, bugs.secretNote);
    expect(await found({ f1: 'longdesc', o1: 'notsubstring', v1: 'ALPHA' }, plain)).toEqual(withoutAlpha);
    expect(
      await found({ 'field0-0-0': 'longdesc', 'type0-0-0': 'notsubstring', 'value0-0-0': 'alpha' }, plain),
    ).toEqual(withoutAlpha);
    // A private comment counts for those who may read it.
    expect(await found({ f1: 'longdesc', o1: 'notsubstring', v1: 'alpha' }, insider)).toEqual(
      except(bugs.bothWords, bugs.oneWord),
    );
    // Negating the criterion: every comment has the text.
    expect(await found({ f1: 'longdesc', o1: 'notsubstring', v1: 'alpha', n1: '1' }, plain)).toEqual(
      ids(bugs.bothWords, bugs.oneWord, bugs.secretNote),
    );
    // A comment with neither word: each of splitWords' comments has one of them.
    expect(await found({ f1: 'longdesc', o1: 'nowordssubstr', v1: 'alpha beta' }, plain)).toEqual(
      except(bugs.splitWords, bugs.bothWords, bugs.oneWord, bugs.secretNote),
    );
    expect(
      await found({ f1: 'longdesc', o1: 'nowords', v1: 'kiwi', f2: 'short_desc', o2: 'substring', v2: 'split' }),
    ).toEqual([bugs.splitWords]);
    expect(await found({ f1: 'longdesc', o1: 'notregexp', v1: '^alpha' }, plain)).toEqual(
      except(bugs.bothWords, bugs.oneWord, bugs.secretNote),
    );
  });
});

describe('chfieldfrom and chfieldto', () => {
  it('select on the last change time without chfield, not on the history', async () => {
    // changedTwice changed status inside the range, and changed again after it.
    expect(await found({ chfieldfrom: times.statusChange, chfieldto: times.createdBetween })).toEqual([
      bugs.createdBetween,
    ]);
    expect(await found({ chfieldfrom: times.secondChange })).toEqual(ids(bugs.changedTwice, bugs.createdLast));
    expect(await found({ chfieldto: times.createdBetween })).toEqual(except(bugs.changedTwice, bugs.createdLast));
  });

  it('still select on the history of the fields chfield names', async () => {
    expect(
      await found({ chfield: 'bug_status', chfieldfrom: times.statusChange, chfieldto: times.statusChange }),
    ).toEqual([bugs.changedTwice]);
    // A date alone as the end is the whole of that day.
    expect(
      await found({
        chfield: 'bug_status',
        chfieldfrom: times.statusChange,
        chfieldto: times.statusChange.slice(0, 10),
      }),
    ).toEqual([bugs.changedTwice]);
    expect(await found({ chfield: 'priority', chfieldfrom: times.statusChange })).toEqual([bugs.changedTwice]);
  });

  it('take Now as no bound', async () => {
    expect(await found({ chfieldfrom: 'Now' })).toEqual(all());
    expect(await found({ chfieldfrom: times.secondChange, chfieldto: 'now' })).toEqual(
      ids(bugs.changedTwice, bugs.createdLast),
    );
  });
});

describe('dup_id', () => {
  it('is no search field, as in 5.2: 108 in a chart, and its buglist names are ignored', async () => {
    for (const field of ['dup_id', 'dupe_of']) {
      const response = await call(app, 'GET', '/rest/bug', {
        apiKey: admin,
        query: { f1: field, o1: 'equals', v1: String(bugs.target) },
      });
      expect(response.body.code, response.text).toBe(108);
    }
    expect(await found({ dupe_of: String(bugs.target), summary: 'copy' })).toEqual(
      ids(bugs.dupeA, bugs.dupeB, bugs.otherDupe),
    );
  });
});

describe('url', () => {
  it('is a case-insensitive substring of the URL', async () => {
    expect(await found({ url: 'example.com' })).toEqual([bugs.urlExample]);
    expect(await found({ url: 'EXAMPLE.com/PATH' })).toEqual([bugs.urlExample]);
    expect(await found({ url: 'example' })).toEqual(ids(bugs.urlExample, bugs.urlOther));
    expect(await found({ url: ['other.org', '/one'] })).toEqual(ids(bugs.urlExample, bugs.urlOther));
    expect(await found({ url: 'example.org' })).toEqual([]);
    expect(await found({ bug_file_loc: 'https' })).toEqual([bugs.urlExample]);
  });
});

describe('short_desc', () => {
  it('means every word as a substring without short_desc_type, while summary stays one substring', async () => {
    expect(await found({ short_desc: 'widget slowly' })).toEqual(ids(bugs.slowWidget, bugs.widgetSlowly, bugs.phrase));
    expect(await found({ short_desc: 'SLOW,frob' })).toEqual([bugs.slowWidget]);
    expect(await found({ short_desc: ['widget', 'turns'] })).toEqual([bugs.widgetSlowly]);
    expect(await found({ summary: 'widget slowly' })).toEqual([bugs.phrase]);
    expect(await found({ short_desc: 'widget slowly', short_desc_type: 'substring' })).toEqual([bugs.phrase]);
  });
});

describe('bug_status shortcuts', () => {
  const open = () => whereStatus((status) => OPEN.has(status));
  const closed = () => whereStatus((status) => !OPEN.has(status));

  it('stand for every open, every closed and every status', async () => {
    expect(closed()).toEqual(ids(bugs.dupeA, bugs.dupeB, bugs.otherDupe, bugs.widgetSlowly, bugs.widgetOnly));
    expect(await found({ bug_status: '__open__' })).toEqual(open());
    expect(await found({ bug_status: '__closed__' })).toEqual(closed());
    expect(await found({ bug_status: '__all__' })).toEqual(all());
    expect(await found({ status: '__closed__' })).toEqual(closed());
  });

  it('mix with other statuses and repeat', async () => {
    expect(await found({ bug_status: ['__open__', 'VERIFIED'] })).toEqual(
      whereStatus((status) => OPEN.has(status) || status === 'VERIFIED'),
    );
    expect(await found({ bug_status: ['__closed__', 'IN_PROGRESS'] })).toEqual(
      whereStatus((status) => !OPEN.has(status) || status === 'IN_PROGRESS'),
    );
    expect(await found({ bug_status: ['__open__', '__open__'] })).toEqual(open());
    expect(await found({ bug_status: ['__open__', '__closed__'] })).toEqual(all());
    expect(await found({ bug_status: ['RESOLVED', '__all__'] })).toEqual(all());
    expect(await found({ bug_status: ['__closed__', '__closed__', 'RESOLVED'] })).toEqual(closed());
    expect(await found({ bug_status: '__open__', short_desc: 'widget' })).toEqual(ids(bugs.slowWidget, bugs.phrase));
  });
});
