import type { HistoryChange } from '../bug/bug.ts';
import { findBuiltInField, storedFieldName } from '../bug/bugFields.ts';

/**
 * How bug mail names fields: Bugzilla's stored names in its headers (X-Bugzilla-Changed-Fields:
 * `bug_status`, not the API's `status`), and the labels of its field_descs template in the
 * change table, which differ from the field list's display names ("Assignee", "Hardware").
 */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  alias: 'Alias',
  assigned_to: 'Assignee',
  'attachments.description': 'Attachment description',
  'attachments.filename': 'Attachment filename',
  'attachments.mimetype': 'Attachment mime type',
  'attachments.ispatch': 'Attachment is patch',
  'attachments.isobsolete': 'Attachment is obsolete',
  'attachments.isprivate': 'Attachment is private',
  blocked: 'Blocks',
  bug_file_loc: 'URL',
  bug_group: 'Group',
  bug_id: 'Bug ID',
  bug_severity: 'Severity',
  bug_status: 'Status',
  bug_type: 'Type',
  cc: 'CC',
  cclist_accessible: 'CC list accessible',
  classification: 'Classification',
  component: 'Component',
  deadline: 'Deadline',
  dependson: 'Depends on',
  dup_id: 'Duplicate',
  estimated_time: 'Orig. Est.',
  everconfirmed: 'Ever confirmed',
  'flagtypes.name': 'Flags',
  keywords: 'Keywords',
  'longdescs.isprivate': 'Comment is private',
  op_sys: 'OS',
  priority: 'Priority',
  product: 'Product',
  qa_contact: 'QA Contact',
  regressed_by: 'Regressed by',
  regresses: 'Regressions',
  remaining_time: 'Hours Left',
  rep_platform: 'Hardware',
  reporter: 'Reporter',
  reporter_accessible: 'Reporter accessible',
  resolution: 'Resolution',
  see_also: 'See Also',
  short_desc: 'Summary',
  status_whiteboard: 'Whiteboard',
  target_milestone: 'Target Milestone',
  version: 'Version',
  work_time: 'Hours Worked',
};

/** The name a field has in Bugzilla's mail headers. */
export const mailFieldName = (field: string): string => storedFieldName(field);

/**
 * A field's label: Bugzilla's own, else the field list's display name (custom fields give
 * theirs through `customLabel`), else the name itself.
 */
export function fieldLabel(field: string, customLabel?: (name: string) => string | undefined): string {
  const name = storedFieldName(field);
  return FIELD_LABELS[name] ?? customLabel?.(name) ?? findBuiltInField(name)?.displayName ?? name;
}

/**
 * A change's label in the change table: an attachment's changes name it ("Attachment #5 is
 * obsolete", "Attachment #5 Flags"), a comment's privacy names the comment ("Comment #3 is
 * private"), as bugmail-common.txt.tmpl does.
 */
export function changeLabel(change: HistoryChange, customLabel?: (name: string) => string | undefined): string {
  const label = fieldLabel(change.field_name, customLabel);
  if (change.attachment_id !== undefined && change.attachment_id !== null)
    return label.replace(/^(Attachment )?/, `Attachment #${change.attachment_id} `);
  if (storedFieldName(change.field_name) === 'longdescs.isprivate')
    return label.replace(/^(Comment )?/, `Comment #${change.comment_count ?? ''} `);
  return label;
}
