import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_VALUES, defaultValues, FieldValues } from '../../shared/domain/catalog/fieldValues.ts';
import { parseQuicksearch, type QuicksearchContext } from '../../shared/domain/search/query/quicksearch.ts';
import { lookUpQuicksearchField, quicksearchFieldMap } from '../../shared/domain/search/query/quicksearchFields.ts';
import { splitQuicksearch } from '../../shared/domain/search/query/quicksearchWords.ts';
import { and, leaf, or, type SearchNode } from '../../shared/domain/search/query/searchQuery.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';

/**
 * Quicksearch's parser against Bugzilla 5.2's Quicksearch.pm, form by form: the criteria each
 * form becomes. test/integration/quicksearchLanguage.test.ts checks the bugs they find.
 */
const OPEN = leaf('bug_status', 'anyexact', 'UNCONFIRMED,CONFIRMED,IN_PROGRESS');
const parse = (text: string, context: QuicksearchContext = { keywords: [] }) =>
  parseQuicksearch(text, DEFAULT_FIELD_VALUES, context).node;
const refusal = (text: string, context: QuicksearchContext = {}) => {
  const error = trackerErrorOf(() => parseQuicksearch(text, DEFAULT_FIELD_VALUES, context));
  return { code: error.code, message: error.message };
};
/** The criteria of a plain word, in Bugzilla's order, without keywords (none is named so). */
const word = (text: string, negate = false): SearchNode[] => [
  ...(text.length > 2
    ? [leaf('product', 'substring', text, negate), leaf('component', 'substring', text, negate)]
    : []),
  // Negated, the alias is `notsubstring` per alias: a bug must have an alias without the word.
  negate ? leaf('alias', 'notsubstring', text) : leaf('alias', 'substring', text),
  leaf('short_desc', 'substring', text, negate),
  leaf('status_whiteboard', 'substring', text, negate),
  leaf('content', 'matches', text, negate),
];

describe('cutting the text (Text::ParseWords as Quicksearch.pm uses it)', () => {
  it('keeps quoted runs whole, with their quotes when asked to', () => {
    expect(splitQuicksearch(/\s+/, true, `summary:"That's a \\"unusual\\" issue" don't 'a b'`)).toEqual([
      `summary:"That's a \\"unusual\\" issue"`,
      "don't",
      "'a b'",
    ]);
    expect(splitQuicksearch(/,/, false, `"a, b",c,d\\,e`)).toEqual(['a, b', 'c', 'd,e']);
    expect(splitQuicksearch(/:/, true, 'url:"http://x.test/a"')).toEqual(['url', '"http://x.test/a"']);
  });

  it('leaves an undefined piece after a delimiter that ends the text, and refuses open quotes', () => {
    expect(splitQuicksearch(/:/, true, 'prod:')).toEqual(['prod', undefined]);
    expect(splitQuicksearch(/:/, true, 'a::b')).toEqual(['a', '', 'b']);
    expect(splitQuicksearch(/\s+/, true, 'a "b c')).toBeNull();
    expect(splitQuicksearch(/\s+/, true, "it's fine 'really")).toBeNull();
  });
});

describe('field names', () => {
  const map = quicksearchFieldMap();
  const field = (name: string) => lookUpQuicksearchField(map, name);

  it("are Bugzilla's short names, field names, and beginnings of exactly one of them", () => {
    for (const [typed, meant] of [
      ['pri', 'priority'],
      ['sev', 'bug_severity'],
      ['kw', 'keywords'],
      ['status', 'bug_status'],
      ['STAT', 'bug_status'],
      ['prod', 'product'],
      ['comp', 'component'],
      ['os', 'op_sys'],
      ['plat', 'rep_platform'],
      ['assignee', 'assigned_to'],
      ['reporter', 'reporter'],
      ['cc', 'cc'],
      ['url', 'bug_file_loc'],
      ['sw', 'status_whiteboard'],
      ['wh', 'status_whiteboard'],
      ['milestone', 'target_milestone'],
      ['version', 'version'],
      ['alias', 'alias'],
      ['flag', 'flagtypes.name'],
      ['desc', 'longdesc'],
      ['sum', 'short_desc'],
      ['type', 'bug_type'],
      ['bug', 'bug_id'],
      ['creation_ts', 'creation_ts'],
    ])
      expect(field(typed), typed).toEqual({ kind: 'field', field: meant });
  });

  it('take a login field for a beginning shared only with its _realname twin', () => {
    expect(field('qa')).toEqual({ kind: 'field', field: 'qa_contact' });
    expect(field('rep')).toEqual({ kind: 'field', field: 'reporter' });
    expect(field('assign')).toEqual({ kind: 'field', field: 'assigned_to' });
    expect(field('assigned_to_r')).toEqual({ kind: 'field', field: 'assigned_to_realname' });
  });

  it('are ambiguous or unknown otherwise; names Bugzilla hides are unknown', () => {
    expect(field('co')).toEqual({
      kind: 'ambiguous',
      names: ['comment', 'comment_tag', 'commenter', 'component', 'content'],
    });
    expect(field('own')).toEqual({ kind: 'ambiguous', names: ['owner', 'owner_idle_time'] });
    for (const name of ['blocks', 'flags', 'bug_status', 'status_whiteboard', 'id', 'constructor'])
      expect(field(name), name).toEqual({ kind: 'unknown' });
  });

  it('include custom fields, with or without cf_; any cf_ name when they are not known', () => {
    const custom = quicksearchFieldMap(['cf_build', 'cf_browser']);
    expect(lookUpQuicksearchField(custom, 'build')).toEqual({ kind: 'field', field: 'cf_build' });
    expect(lookUpQuicksearchField(custom, 'brow')).toEqual({ kind: 'field', field: 'cf_browser' });
    expect(lookUpQuicksearchField(custom, 'cf_bu')).toEqual({ kind: 'field', field: 'cf_build' });
    expect(lookUpQuicksearchField(custom, 'cf_other')).toEqual({ kind: 'unknown' });
    expect(lookUpQuicksearchField(map, 'cf_other', true)).toEqual({ kind: 'field', field: 'cf_other' });
  });
});

describe('parsing', () => {
  it('reads bug numbers alone as those bugs, whatever their status', () => {
    expect(parse(' 12, 15 16,')).toEqual(leaf('bug_id', 'anyexact', '12,15,16'));
    expect(parse('#12')).toEqual(
      and([OPEN, or([leaf('short_desc', 'substring', '12'), leaf('content', 'matches', '12')])]),
    );
  });

  it('reads a first word of status and resolution beginnings, OPEN and ALL', () => {
    expect(parse('UNCO,VERI')).toEqual(and([leaf('bug_status', 'anyexact', 'UNCONFIRMED,VERIFIED')]));
    expect(parse('FIX')).toEqual(
      and([leaf('bug_status', 'anyexact', 'RESOLVED,VERIFIED'), leaf('resolution', 'anyexact', 'FIXED')]),
    );
    expect(parse('ALL x')).toEqual(and([or(word('x'))]));
    expect(parse('OPEN x')).toEqual(and([OPEN, or(word('x'))]));
    // Bugzilla 5.2's statuses have no NEW: the word is text.
    expect(parse('NEW')).toEqual(
      and([OPEN, or(word('NEW').filter((node) => node.kind === 'leaf' && node.field !== 'product'))]),
    );
  });

  it("reads the installation's own statuses", () => {
    const values = new FieldValues({
      lists: {
        bug_status: [...defaultValues('bug_status'), { name: 'IN_REVIEW', sortKey: 350, isActive: true, isOpen: true }],
      },
    });
    expect(parseQuicksearch('IN_R', values).node).toEqual(and([leaf('bug_status', 'anyexact', 'IN_REVIEW')]));
    expect(parseQuicksearch('x', values).node).toEqual(
      and([leaf('bug_status', 'anyexact', 'UNCONFIRMED,CONFIRMED,IN_PROGRESS,IN_REVIEW'), expect.anything()]),
    );
  });

  it('reads field:value with every operator, any of several fields and values, quotes kept whole', () => {
    expect(parse('pri:High')).toEqual(and([OPEN, or([leaf('priority', 'substring', 'High')])]));
    expect(parse('prod,comp=a,"b, c"')).toEqual(
      and([
        OPEN,
        or([
          leaf('product', 'equals', 'a'),
          leaf('product', 'equals', 'b, c'),
          leaf('component', 'equals', 'a'),
          leaf('component', 'equals', 'b, c'),
        ]),
      ]),
    );
    expect(parse('summary:"That\'s a \\"unusual\\" issue"')).toEqual(
      and([OPEN, or([leaf('short_desc', 'substring', 'That\'s a "unusual" issue')])]),
    );
    for (const [text, op] of [
      ['bug_id<5', 'lessthan'],
      ['bug_id<=5', 'lessthaneq'],
      ['bug_id>5', 'greaterthan'],
      ['bug_id>=5', 'greaterthaneq'],
    ])
      expect(parse(`ALL ${text}`), text).toEqual(and([or([leaf('bug_id', op, '5')])]));
    expect(parse('pri!=High')).toEqual(and([OPEN, or([leaf('priority', 'equals', 'High', true)])]));
    // Bugzilla would ask for "notnotequals"; two negations cancel out.
    expect(parse('-pri!=High')).toEqual(and([OPEN, or([leaf('priority', 'equals', 'High')])]));
    expect(parse('content=word owner_idle_time:2')).toEqual(
      and([OPEN, or([leaf('content', 'matches', 'word')]), or([leaf('owner_idle_time', 'greaterthan', '2')])]),
    );
    expect(parse('prod: =x')).toEqual(and([OPEN]));
  });

  it('lets status: and resolution: replace the open-bugs default, as does the request naming statuses', () => {
    expect(parse('-status:NEW')).toEqual(and([or([leaf('bug_status', 'substring', 'NEW', true)])]));
    expect(parse('resolution:FIXED')).toEqual(and([or([leaf('resolution', 'substring', 'FIXED')])]));
    expect(parse('x', { keywords: [], statusGiven: true })).toEqual(and([or(word('x'))]));
  });

  it('reads the flag forms, the requestee as a chart of its own', () => {
    const review = leaf('flagtypes.name', 'substring', 'review?');
    expect(parse('flag:review?')).toEqual(and([OPEN, or([review])]));
    expect(parse('review?')).toEqual(and([OPEN, or([review])]));
    expect(parse('review?dana')).toEqual(
      and([OPEN, or([review]), or([leaf('requestees.login_name', 'substring', 'dana')])]),
    );
    expect(parse('flag:review?dana')).toEqual(parse('review?dana'));
    expect(parse('"what?"')).toEqual(and([OPEN, or(word('what?'))]));
  });

  it('reads the special first characters', () => {
    expect(parse(':a,bc')).toEqual(
      and([
        OPEN,
        or([
          leaf('product', 'substring', 'a'),
          leaf('component', 'substring', 'a'),
          leaf('product', 'substring', 'bc'),
          leaf('component', 'substring', 'bc'),
        ]),
      ]),
    );
    expect(parse('@dana')).toEqual(and([OPEN, or([leaf('assigned_to', 'substring', 'dana')])]));
    expect(parse('[ux]')).toEqual(
      and([OPEN, or([leaf('short_desc', 'substring', 'ux]'), leaf('status_whiteboard', 'substring', 'ux]')])]),
    );
    expect(parse('-!perf')).toEqual(and([OPEN, or([leaf('keywords', 'anywords', 'perf', true)])]));
  });

  it('reads P1-5 as priorities by name, else by position; P alone and past the end find nothing', () => {
    expect(parse('P2-1')).toEqual(and([OPEN, or([leaf('priority', 'anyexact', 'Highest,High')])]));
    expect(parse('-p5')).toEqual(and([OPEN, or([leaf('priority', 'anyexact', 'Lowest', true)])]));
    expect(parse('P9')).toEqual(and([OPEN, or([leaf('priority', 'anyexact', '')])]));
  });

  it('searches a plain word where Bugzilla does: keywords only when it names one, URLs when it looks like one', () => {
    expect(parse('crash', { keywords: ['Crash', 'perf'] })).toEqual(
      and([
        OPEN,
        or([...word('crash').slice(0, 2), leaf('keywords', 'substring', 'crash'), ...word('crash').slice(2)]),
      ]),
    );
    expect(parse('crash', {})).toEqual(
      and([OPEN, or([...word('crash').slice(0, 2), leaf('keywords', 'equals', 'crash'), ...word('crash').slice(2)])]),
    );
    expect(parse('new')).toEqual(
      and([OPEN, or(word('new').filter((node) => node.kind === 'leaf' && node.field !== 'product'))]),
    );
    expect(parse('hang')).toEqual(
      and([OPEN, or(word('hang').filter((node) => node.kind === 'leaf' && node.field !== 'component'))]),
    );
    expect(parse('+word')).toEqual(and([OPEN, or(word('+word'))]));
    for (const url of ['www.example.org', '10.0.0.1', 'http://a:8/x', 'localhost', 'xmailto'])
      expect(parse(url), url).toEqual(and([OPEN, or([...word(url), leaf('bug_file_loc', 'substring', url)])]));
    expect(parse('a,bc')).toEqual(and([OPEN, or([...word('a'), ...word('bc')])]));
  });

  it("lays out negations as Bugzilla's charts do: a negated criterion closes its row", () => {
    const negated = word('b', true);
    expect(parse('-b')).toEqual(and([OPEN, and(negated.map((node) => or([node])))]));
    // `a|-b`: b's first negated criterion is an alternative to a's, the rest are ANDed.
    expect(parse('a|-b')).toEqual(
      and([OPEN, and([or([...word('a'), negated[0]]), ...negated.slice(1).map((node) => or([node]))])]),
    );
    expect(parse('a OR NOT b')).toEqual(parse('a|-b'));
    expect(parse('NOT NOT a')).toEqual(parse('a'));
    expect(parse('a AND b')).toEqual(parse('a b'));
    expect(parse('a OR b c')).toEqual(and([OPEN, or([...word('a'), ...word('b')]), or(word('c'))]));
  });
});

describe('refusals', () => {
  it('names the unknown and ambiguous fields (32000)', () => {
    expect(refusal('foo:1 co:2 stat:RESOLVED')).toEqual({
      code: 32000,
      message:
        "There is a problem with your quicksearch: 'foo' is not a valid field name. 'co' matches more than one field: comment, comment_tag, commenter, component, content.",
    });
  });

  it('refuses unclosed quotes and misplaced AND, OR, NOT (32000)', () => {
    expect(refusal('"toolbar').code).toBe(32000);
    for (const text of ['AND a', 'OR a', 'a AND', 'a OR', 'a NOT', 'a AND OR b', 'a OR AND b', 'NOT AND b'])
      expect(refusal(text), text).toMatchObject({ code: 32000, message: expect.stringContaining('invalid') });
  });

  it('refuses nothing to search for (1000), as Bugzilla does "0"', () => {
    for (const text of [' , , ', '0']) expect(refusal(text).code, text).toBe(1000);
  });
});
