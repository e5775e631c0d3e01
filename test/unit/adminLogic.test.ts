import { describe, expect, it } from 'vitest';
import { panelsFor, parameterChanges } from '../../web/src/admin/parameterCatalog.ts';
import { groupChanges, userChanges } from '../../web/src/admin/peopleLogic.ts';
import {
  cellHref,
  countReport,
  dependencyTree,
  openBugsPerDay,
  reportField,
  timelineOf,
} from '../../web/src/admin/reportLogic.ts';
import { ADMIN_SECTIONS, administersSomething, mayUse } from '../../web/src/admin/sections.ts';

describe('who may use which administration page', () => {
  const section = (cgi: string) => ADMIN_SECTIONS.find((s) => s.cgi === cgi)!;
  it('needs the group the API checks, lets admin use all, and the reports are for everyone', () => {
    expect(mayUse(section('editusers'), ['editusers'])).toBe(true);
    expect(mayUse(section('editusers'), ['editbugs', 'creategroups'])).toBe(false);
    expect(mayUse(section('editparams'), ['admin'])).toBe(true);
    expect(mayUse(section('report'), [])).toBe(true);
    expect(administersSomething(['editbugs', 'canconfirm'])).toBe(false);
    expect(administersSomething(['editkeywords'])).toBe(true);
  });
});

describe('the users page', () => {
  it('sends only what changed', () => {
    const stored = { name: 'a@x.test', real_name: 'A', email_enabled: true, login_denied_text: '' };
    expect(
      userChanges(stored, { login: 'a@x.test', realName: 'A', password: '', mail: true, disabledText: ' ' }),
    ).toEqual({});
    expect(
      userChanges(stored, { login: 'b@x.test', realName: 'B', password: 'p', mail: false, disabledText: 'Gone.' }),
    ).toEqual({ email: 'b@x.test', full_name: 'B', password: 'p', email_enabled: false, login_denied_text: 'Gone.' });
  });

  it('turns the checkboxes into groups and bless_groups changes', () => {
    const s = (...names: string[]) => new Set(names);
    expect(groupChanges(s('a', 'b'), s('b', 'c'), s(), s('c'))).toEqual({
      groups: { add: ['c'], remove: ['a'] },
      bless_groups: { add: ['c'] },
    });
    expect(groupChanges(s('a'), s('a'), s('b'), s('b'))).toEqual({});
  });
});

describe('the parameters page', () => {
  it("groups the parameters as Bugzilla's panels do, unknown ones last, and sends only changes", () => {
    const panels = panelsFor({ urlbase: '', maintainer: 'm@x', brand_new: '1' });
    expect(panels.map((p) => p.id)).toEqual(['core', 'general', 'tracker']);
    expect(panels.at(-1)!.parameters.map((p) => p.name)).toEqual(['brand_new']);
    expect(parameterChanges({ a: '1', b: 'x' }, { a: '1', b: 'y' })).toEqual({ b: 'y' });
  });
});

describe('the tabular report', () => {
  const bugs = [
    { id: 1, product: 'W', status: 'NEW', resolution: '', priority: 'P1' },
    { id: 2, product: 'W', status: 'RESOLVED', resolution: 'FIXED', priority: 'P1' },
    { id: 3, product: 'V', status: 'NEW', resolution: '', priority: 'P2' },
  ];
  it('counts rows by columns, with totals, in one table per value of the third field', () => {
    const [table] = countReport(bugs, reportField('product')!, reportField('bug_status'), undefined);
    expect(table!.rows).toEqual(['V', 'W']);
    expect(table!.columns).toEqual(['NEW', 'RESOLVED']);
    expect(table!.counts).toEqual({ V: { NEW: 1 }, W: { NEW: 1, RESOLVED: 1 } });
    expect(table!.total).toBe(3);
    const tables = countReport(bugs, reportField('product')!, reportField('resolution'), reportField('priority'));
    expect(tables.map((t) => [t.table, t.total])).toEqual([
      ['P1', 2],
      ['P2', 1],
    ]);
    expect(tables[0]!.columns).toEqual(['---', 'FIXED']);
  });

  it("links a count to the bug list of its values, the empty resolution as buglist's resolution=", () => {
    const href = cellHref(new URLSearchParams({ product: 'W' }), [
      [reportField('bug_status'), 'NEW'],
      [reportField('resolution'), '---'],
      [reportField('priority'), undefined],
    ]);
    expect(href).toBe('/buglist.cgi?product=W&bug_status=NEW&resolution=');
  });
});

describe('open bugs over time', () => {
  it('replays each bug from its first status through its history, day by day', () => {
    const history = [
      { when: '2026-01-02T10:00:00Z', changes: [{ field_name: 'status', removed: 'NEW', added: 'RESOLVED' }] },
      { when: '2026-01-04T10:00:00Z', changes: [{ field_name: 'status', removed: 'RESOLVED', added: 'REOPENED' }] },
    ];
    const a = timelineOf({ creation_time: '2026-01-01T09:00:00Z', status: 'REOPENED' }, history);
    expect(a.initialStatus).toBe('NEW');
    const b = timelineOf({ creation_time: '2026-01-03T09:00:00Z', status: 'NEW' }, []);
    const open = (s: string) => s !== 'RESOLVED';
    expect(openBugsPerDay([a, b], open, '2026-01-01T09:00:00Z', '2026-01-04T12:00:00Z')).toEqual([
      { day: '2026-01-01', open: 1 },
      { day: '2026-01-02', open: 0 },
      { day: '2026-01-03', open: 1 },
      { day: '2026-01-04', open: 2 },
    ]);
  });
});

describe('the dependency tree', () => {
  it('expands each bug once and marks the repeats', () => {
    const graph: Record<number, number[]> = { 1: [2, 3], 2: [4], 3: [4], 4: [] };
    const tree = dependencyTree(1, (n) => graph[n] ?? [], 10);
    expect(tree.children!.map((c) => c.id)).toEqual([2, 3]);
    expect(tree.children![0]!.children![0]).toEqual({ id: 4, children: [], repeated: false });
    expect(tree.children![1]!.children![0]).toEqual({ id: 4, children: null, repeated: true });
    const shallow = dependencyTree(1, (n) => graph[n] ?? [], 1);
    expect(shallow.children![0]).toEqual({ id: 2, children: null, repeated: false });
  });
});
