import { describe, expect, it } from 'vitest';
import { compileSearch } from '../../shared/domain/search/evaluation/criterionCompiler.ts';
import { FALSE, MAYBE, type SearchEnvironment, TRUE } from '../../shared/domain/search/evaluation/searchEnvironment.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import { parseSearchParameters, type SearchNode } from '../../shared/domain/search/query/searchQuery.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * Bugzilla 5.2's buglist meanings as criteria (searchQuery.ts) and as tests of comment text
 * (commentCriteria.ts): what a request parses into, and how each comment of a bug counts.
 */
type Group = Extract<SearchNode, { children: SearchNode[] }>;
const criteria = (params: Record<string, unknown>) => parseSearchParameters(params).criteria;

describe('buglist parameters', () => {
  it('give short_desc, status_whiteboard and url every word as a substring by default, longdesc any word', () => {
    expect(criteria({ short_desc: ['a b', 'c'] })).toEqual([
      { kind: 'leaf', field: 'short_desc', op: 'allwordssubstr', value: 'a b c', negate: false },
    ]);
    // 5.2's Bug.search reads a plain longdesc as any of its words, whatever longdesc_type says.
    expect(criteria({ longdesc: 'x y' })).toEqual([
      { kind: 'leaf', field: 'longdesc', op: 'anywordssubstr', value: 'x y', negate: false },
    ]);
    expect(criteria({ status_whiteboard: 'p1 ux' })).toEqual([
      { kind: 'leaf', field: 'status_whiteboard', op: 'allwordssubstr', value: 'p1 ux', negate: false },
    ]);
    // The spec's own names: summary and whiteboard are one substring, url's values any of them.
    const [summary] = criteria({ summary: 'a b' }) as Group[];
    expect(summary.children).toEqual([
      { kind: 'leaf', field: 'short_desc', op: 'substring', value: 'a b', negate: false },
    ]);
    const [url] = criteria({ url: ['x.org', 'y.org'] }) as Group[];
    expect(url.children.map((child) => child.kind === 'leaf' && [child.field, child.op, child.value])).toEqual([
      ['bug_file_loc', 'allwordssubstr', 'x.org'],
      ['bug_file_loc', 'allwordssubstr', 'y.org'],
    ]);
  });

  it('keep a negated operator over comment text per comment, and negate the others', () => {
    expect(criteria({ f1: 'longdesc', o1: 'notsubstring', v1: 'x' })).toEqual([
      { kind: 'and', children: [{ kind: 'leaf', field: 'longdesc', op: 'notsubstring', value: 'x', negate: false }] },
    ]);
    expect(criteria({ f1: 'short_desc', o1: 'notsubstring', v1: 'x' })).toEqual([
      { kind: 'and', children: [{ kind: 'leaf', field: 'short_desc', op: 'substring', value: 'x', negate: true }] },
    ]);
  });

  it('read chfieldfrom and chfieldto as the last change time unless chfield names fields', () => {
    const delta = (op: string, value: string) => ({ kind: 'leaf', field: 'delta_ts', op, value, negate: false });
    expect(criteria({ chfieldfrom: '2024-01-01', chfieldto: '2024-02-01' })).toEqual([
      {
        kind: 'and',
        children: [delta('greaterthaneq', '2024-01-01'), delta('lessthaneq', '2024-02-01')],
        negate: false,
      },
    ]);
    // With a value, the end bounds no last change time (5.2 neither).
    expect(criteria({ chfieldto: '2024-02-01', chfieldvalue: 'FIXED' })).toEqual([{ kind: 'const', value: true }]);
    const [withField] = criteria({ chfield: 'bug_status', chfieldfrom: '-1d', chfieldto: 'Now' }) as Group[];
    expect(withField.children[0]).toEqual(delta('greaterthaneq', '-1d'));
    expect(withField.children[1]).toMatchObject({
      kind: 'or',
      children: [{ field: 'bug_status', op: 'changedrange', value: '-1d||' }],
    });
    expect(criteria({ chfieldfrom: 'now' })).toEqual([{ kind: 'const', value: true }]);
  });
});

describe('comment text', () => {
  const index = new SearchIndex();
  index.apply({ bug: plainBug(1, { commentCount: 2 }), rev: 1 });
  index.apply({ bug: plainBug(2, { commentCount: 1 }), rev: 1 });
  const comments = new Map([
    [
      1,
      [
        { text: 'alpha kiwi', creatorId: 1, count: 0 },
        { text: 'beta mango', creatorId: 1, count: 1 },
      ],
    ],
    [2, [{ text: 'alpha beta', creatorId: 1, count: 0 }]],
  ]);
  const env = (withComments: boolean) =>
    ({
      index,
      callerId: 1,
      callerLogin: '',
      products: [],
      classifications: [],
      groups: [],
      keywords: [],
      flagTypes: [],
      loginIds: new Map(),
      now: 0,
      insider: false,
      comments: withComments ? comments : undefined,
    }) as unknown as SearchEnvironment;
  const truths = (op: string, value: string, withComments = true) => {
    const test = compileSearch(env(withComments), { kind: 'leaf', field: 'longdesc', op, value });
    return [test(0), test(1)];
  };

  it('finds all the words of allwordssubstr in one comment, as 5.2 does, and nothing to find in every bug', () => {
    expect(truths('allwordssubstr', 'alpha beta')).toEqual([FALSE, TRUE]);
    expect(truths('allwordssubstr', 'alpha kiwi')).toEqual([TRUE, FALSE]);
    expect(truths('allwordssubstr', 'kiwi beta')).toEqual([FALSE, FALSE]);
    expect(truths('allwordssubstr', 'alpha beta', false)).toEqual([MAYBE, MAYBE]);
    expect(truths('allwordssubstr', ' , ', false)).toEqual([TRUE, TRUE]);
  });

  it('tests a negated operator on each comment', () => {
    expect(truths('notsubstring', 'alpha')).toEqual([TRUE, FALSE]);
    expect(truths('nowordssubstr', 'alpha beta')).toEqual([FALSE, FALSE]);
    expect(truths('nowords', 'mango')).toEqual([TRUE, TRUE]);
    expect(truths('notequals', 'alpha beta')).toEqual([TRUE, FALSE]);
    expect(truths('notregexp', '^alpha', false)).toEqual([MAYBE, MAYBE]);
  });
});
