/**
 * The bug page's edit form: a draft of the bug's editable fields as text, and the PUT /rest/bug
 * changes that turn the bug into the draft (only what differs is sent).
 */
import type { StatusValue } from './workflow.ts';
import { commentRequired, isOpenStatus } from './workflow.ts';

export interface FlagDraft {
  /** An existing flag's id, or undefined for a new one. */
  id?: number;
  type_id: number;
  name: string;
  /** '' means no flag (a new row left empty) or clearing an existing one. */
  status: string;
  requestee: string;
}

export interface BugLike {
  summary: string;
  status: string;
  resolution: string;
  dupe_of: number | null;
  product: string;
  component: string;
  version: string;
  target_milestone: string;
  priority: string;
  severity: string;
  platform: string;
  op_sys: string;
  assigned_to: string;
  qa_contact: string;
  cc: string[];
  keywords: string[];
  blocks: number[];
  depends_on: number[];
  see_also: string[];
  url: string;
  whiteboard: string;
  groups: string[];
  estimated_time?: number;
  remaining_time?: number;
  deadline?: string | null;
  flags: { id: number; type_id: number; name: string; status: string; requestee?: string }[];
  [custom: string]: unknown;
}

export interface Draft {
  summary: string;
  product: string;
  status: string;
  resolution: string;
  dupe_of: string;
  component: string;
  version: string;
  target_milestone: string;
  priority: string;
  severity: string;
  platform: string;
  op_sys: string;
  assigned_to: string;
  qa_contact: string;
  cc_add: string;
  cc_remove: string[];
  keywords: string;
  blocks: string;
  depends_on: string;
  see_also_add: string;
  see_also_remove: string[];
  url: string;
  whiteboard: string;
  groups: string[];
  estimated_time: string;
  remaining_time: string;
  deadline: string;
  work_time: string;
  comment: string;
  comment_private: boolean;
  flags: FlagDraft[];
  /** Custom fields (cf_*): text, or the values of a multiple-selection field. */
  custom: Record<string, string | string[]>;
}

function customOf(bug: BugLike): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(bug)) {
    if (!name.startsWith('cf_')) continue;
    out[name] = Array.isArray(value) ? value.map(String) : value === null || value === undefined ? '' : String(value);
  }
  return out;
}

export function draftOf(bug: BugLike): Draft {
  return {
    summary: bug.summary,
    product: bug.product,
    status: bug.status,
    resolution: bug.resolution,
    dupe_of: bug.dupe_of ? String(bug.dupe_of) : '',
    component: bug.component,
    version: bug.version,
    target_milestone: bug.target_milestone,
    priority: bug.priority,
    severity: bug.severity,
    platform: bug.platform,
    op_sys: bug.op_sys,
    assigned_to: bug.assigned_to,
    qa_contact: bug.qa_contact ?? '',
    cc_add: '',
    cc_remove: [],
    keywords: bug.keywords.join(', '),
    blocks: bug.blocks.join(', '),
    depends_on: bug.depends_on.join(', '),
    see_also_add: '',
    see_also_remove: [],
    url: bug.url ?? '',
    whiteboard: bug.whiteboard ?? '',
    groups: [...bug.groups],
    estimated_time: bug.estimated_time === undefined ? '' : String(bug.estimated_time),
    remaining_time: bug.remaining_time === undefined ? '' : String(bug.remaining_time),
    deadline: bug.deadline ?? '',
    work_time: '',
    comment: '',
    comment_private: false,
    flags: bug.flags.map((f) => ({
      id: f.id,
      type_id: f.type_id,
      name: f.name,
      status: f.status,
      requestee: f.requestee ?? '',
    })),
    custom: customOf(bug),
  };
}

export function splitWords(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

function listChange(before: readonly (string | number)[], after: readonly string[]) {
  const b = new Set(before.map(String));
  const a = new Set(after);
  const add = [...a].filter((x) => !b.has(x));
  const remove = [...b].filter((x) => !a.has(x));
  return add.length || remove.length ? { add, remove } : undefined;
}

/** The changes that make `bug` into `draft`, as PUT /rest/bug takes them. */
export function draftChanges(bug: BugLike, draft: Draft, statuses: readonly StatusValue[]): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  const scalar = (name: keyof Draft & keyof BugLike, before: unknown) => {
    const value = (draft[name] as string).trim();
    if (value !== String(before ?? '')) c[name] = value;
  };
  scalar('summary', bug.summary);
  for (const name of [
    'component',
    'version',
    'target_milestone',
    'priority',
    'severity',
    'platform',
    'op_sys',
  ] as const) {
    scalar(name, bug[name]);
  }
  scalar('assigned_to', bug.assigned_to);
  scalar('qa_contact', bug.qa_contact);
  scalar('url', bug.url);
  scalar('whiteboard', bug.whiteboard);

  const dupe = draft.dupe_of.trim();
  if (draft.resolution === 'DUPLICATE' && dupe && dupe !== String(bug.dupe_of ?? '')) {
    c.dupe_of = Number(dupe);
  } else if (draft.status !== bug.status) {
    c.status = draft.status;
    if (!isOpenStatus(statuses, draft.status)) c.resolution = draft.resolution;
  } else if (!isOpenStatus(statuses, draft.status) && draft.resolution !== bug.resolution) {
    c.resolution = draft.resolution;
  }

  const cc: { add?: string[]; remove?: string[] } = {};
  if (splitWords(draft.cc_add).length) cc.add = splitWords(draft.cc_add);
  if (draft.cc_remove.length) cc.remove = draft.cc_remove;
  if (cc.add || cc.remove) c.cc = cc;

  const keywords = listChange(bug.keywords, splitWords(draft.keywords));
  if (keywords) c.keywords = keywords;
  const blocks = listChange(bug.blocks, splitWords(draft.blocks));
  if (blocks) c.blocks = blocks;
  const depends = listChange(bug.depends_on, splitWords(draft.depends_on));
  if (depends) c.depends_on = depends;
  const seeAdd = splitWords(draft.see_also_add);
  if (seeAdd.length || draft.see_also_remove.length) c.see_also = { add: seeAdd, remove: draft.see_also_remove };
  const groups = listChange(bug.groups, draft.groups);
  if (groups) c.groups = groups;

  if (bug.estimated_time !== undefined) {
    if (draft.estimated_time.trim() !== String(bug.estimated_time)) c.estimated_time = Number(draft.estimated_time);
    if (draft.remaining_time.trim() !== String(bug.remaining_time ?? ''))
      c.remaining_time = Number(draft.remaining_time);
    if (draft.deadline.trim() !== (bug.deadline ?? '')) c.deadline = draft.deadline.trim();
    if (draft.work_time.trim()) c.work_time = Number(draft.work_time);
  }

  for (const [name, value] of Object.entries(draft.custom)) {
    const before = bug[name];
    if (Array.isArray(value)) {
      const old = Array.isArray(before) ? before.map(String) : [];
      if ([...value].sort().join('\n') !== [...old].sort().join('\n')) c[name] = value;
    } else if (value.trim() !== (before === null || before === undefined ? '' : String(before))) {
      c[name] = typeof before === 'number' && value.trim() !== '' ? Number(value) : value.trim();
    }
  }

  const flags = flagChanges(bug, draft.flags);
  if (flags.length) c.flags = flags;

  if (draft.comment.trim()) c.comment = { body: draft.comment, is_private: draft.comment_private };
  return c;
}

export function flagChanges(bug: Pick<BugLike, 'flags'>, flags: readonly FlagDraft[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const f of flags) {
    if (f.id !== undefined) {
      const before = bug.flags.find((x) => x.id === f.id);
      if (!before) continue;
      const status = f.status || 'X';
      const requestee = f.status === '?' ? f.requestee.trim() : '';
      if (status !== before.status || (status === '?' && requestee !== (before.requestee ?? ''))) {
        out.push({ id: f.id, status, ...(requestee ? { requestee } : {}) });
      }
    } else if (f.status) {
      const requestee = f.status === '?' ? f.requestee.trim() : '';
      out.push({ type_id: f.type_id, status: f.status, new: true, ...(requestee ? { requestee } : {}) });
    }
  }
  return out;
}

/** What must be fixed before saving, in words; empty when the draft may be sent. */
export function draftProblems(bug: BugLike, draft: Draft, statuses: readonly StatusValue[]): string[] {
  const problems: string[] = [];
  if (!draft.summary.trim()) problems.push('The summary cannot be empty.');
  const closing = !isOpenStatus(statuses, draft.status);
  if (draft.status !== bug.status && closing && !draft.resolution) problems.push('Choose a resolution.');
  if (draft.resolution === 'DUPLICATE' && !/^\d+$/.test(draft.dupe_of.trim())) {
    problems.push('Give the number of the bug this one duplicates.');
  }
  if (commentRequired(statuses, bug.status, draft.status) && !draft.comment.trim()) {
    problems.push(`A comment is required to change the status to ${draft.status}.`);
  }
  return problems;
}
