import * as z from 'zod';

/**
 * The fields of a bug as clients send them to create, change and search bugs: each with its type
 * and meaning, so the OpenAPI document (and the clients generated from it) describe them. The
 * types are as wide as what Bugzilla 5.2 takes (a name or a number, one value or a list, a boolean
 * as true/1/"1"), and none transforms its value: the bug rules (shared/domain/bug/) check each
 * field, in Bugzilla's order and with its error codes, including the fields a new bug requires
 * (the object's `required`, which says so without the schema refusing first with another code).
 */
const text = (description: string) => z.union([z.string(), z.number()]).nullable().optional().meta({ description });
const names = (description: string) =>
  z
    .union([z.string(), z.number(), z.array(z.union([z.string(), z.number(), z.null()]))])
    .nullable()
    .optional()
    .meta({ description });
const hours = (description: string) => z.union([z.number(), z.string()]).nullable().optional().meta({ description });
const bool = (description: string) =>
  z
    .union([z.boolean(), z.number(), z.string()])
    .nullable()
    .optional()
    .meta({ description: `${description} true/false, 1/0 or "1"/"0".` });
const bugIds = (description: string) => names(description);

const flagInput = z.looseObject({
  name: z.string().nullable().optional().meta({ description: 'The flag type, by name.' }),
  type_id: z.union([z.number(), z.string()]).nullable().optional().meta({ description: 'The flag type, by id.' }),
  id: z
    .union([z.number(), z.string()])
    .nullable()
    .optional()
    .meta({ description: 'An existing flag to change (update only).' }),
  // Required by the flag rules, which refuse a flag without one with Bugzilla's code.
  status: z.string().optional().meta({ description: '`?` requests, `+` grants, `-` denies, `X` clears (required).' }),
  requestee: z.string().nullable().optional().meta({ description: 'Whom a `?` asks (a login).' }),
  new: bool('Create a new flag even where one of the type exists (update only).'),
});
const flags = z
  .union([z.array(flagInput), flagInput])
  .optional()
  .meta({ description: 'Flags to set, each by type name or id.' });

/** Fields a new bug takes or requires (bugCreation.ts). */
export const NEW_BUG_FIELDS = {
  product: text('The product, by name (required).'),
  component: text('The component of the product, by name (required).'),
  summary: text('A one-line summary (required).'),
  version: text('The version of the product, by name (required).'),
  description: text('The first comment.'),
  op_sys: text('The operating system (required unless the defaultopsys parameter gives one).'),
  platform: text('The hardware platform (required unless the defaultplatform parameter gives one).'),
  rep_platform: text("Bugzilla's internal name of platform."),
  priority: text('The priority (the default priority when missing; editbugs or letsubmitterchoosepriority).'),
  severity: text('The severity (the default severity when missing).'),
  type: text('The bug type (the default of the component or product when missing).'),
  alias: names('An alias: a unique name for the bug.'),
  assigned_to: text("The assignee's login (editbugs only; the component's default otherwise)."),
  qa_contact: text("The QA contact's login (editbugs only; the component's default otherwise)."),
  cc: names('Logins to add to the CC list.'),
  status: text("The initial status (canconfirm users; else the workflow's first)."),
  target_milestone: text('The target milestone, by name.'),
  keywords: names('Keywords, by name.'),
  groups: names('Groups to restrict the bug to (the DEFAULT groups of the product when missing).'),
  blocks: bugIds('Bugs this bug blocks.'),
  depends_on: bugIds('Bugs this bug depends on.'),
  regressed_by: bugIds('Bugs that caused this one.'),
  regressions: bugIds('Bugs this one caused.'),
  see_also: names('URLs of related bugs.'),
  url: text('A URL about the bug.'),
  whiteboard: text('The status whiteboard.'),
  deadline: text('YYYY-MM-DD (time-tracking group; ignored for others).'),
  estimated_time: hours('Hours (time-tracking group; ignored for others).'),
  remaining_time: hours('Hours (time-tracking group; ignored for others).'),
  comment_is_private: bool('Whether the description is private (insider group only).'),
  is_markdown: bool('Whether the description is markdown.'),
  flags,
  is_cc_accessible: bool('Whether CC list members may see the bug despite its groups (default true).'),
  is_creator_accessible: bool('Whether the reporter may see the bug despite its groups (default true).'),
  comment_tags: names('Tags for the description.'),
  creator: text('Accepted and ignored, as Bugzilla 5.2 does: the reporter is the caller.'),
  reporter: text('Accepted and ignored, as Bugzilla 5.2 does: the reporter is the caller.'),
};

export const NEW_BUG_REQUIRED = ['product', 'component', 'summary', 'version', 'op_sys', 'platform'] as const;

/** `{add, remove}` (or `set`) changes of a list, or the whole new list. */
const listChange = (description: string) => {
  const values = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number(), z.null()]))]).nullable();
  return z
    .union([values, z.looseObject({ add: values.optional(), remove: values.optional(), set: values.optional() })])
    .optional()
    .meta({ description });
};

/** Fields a change takes (bugUpdate.ts); each that is sent is changed on every bug named. */
export const BUG_CHANGE_FIELDS = {
  summary: text('A new summary.'),
  product: text('Move the bugs to this product (with component, version and milestone that exist there).'),
  component: text('A new component.'),
  version: text('A new version.'),
  target_milestone: text('A new target milestone.'),
  op_sys: text('A new operating system.'),
  platform: text('A new platform.'),
  priority: text('A new priority.'),
  severity: text('A new severity.'),
  type: text('A new bug type.'),
  status: text('A new status (the workflow decides which moves are allowed).'),
  resolution: text('The resolution of a closed status.'),
  dupe_of: text('Mark the bugs as duplicates of this bug (id or alias).'),
  assigned_to: text("The new assignee's login."),
  qa_contact: text("The new QA contact's login."),
  reset_assigned_to: bool("Give the bugs their component's default assignee."),
  reset_qa_contact: bool("Give the bugs their component's default QA contact."),
  url: text('A new URL.'),
  whiteboard: text('A new status whiteboard.'),
  deadline: text('YYYY-MM-DD, or empty to clear (time-tracking group).'),
  estimated_time: hours('Hours (time-tracking group).'),
  remaining_time: hours('Hours (time-tracking group).'),
  work_time: hours('Hours worked, added with the comment (time-tracking group).'),
  is_cc_accessible: bool('Whether CC list members may see the bugs despite their groups.'),
  is_creator_accessible: bool('Whether the reporter may see the bugs despite their groups.'),
  comment: z
    .union([
      z.string(),
      z.looseObject({
        body: z.string().optional().meta({ description: 'The text.' }),
        is_private: bool('Private to the insider group.'),
        is_markdown: bool('Markdown.'),
      }),
    ])
    .nullable()
    .optional()
    .meta({ description: 'A comment added with the change.' }),
  comment_is_private: z
    .union([
      z.record(z.string(), z.union([z.boolean(), z.number(), z.string(), z.null()])),
      z.boolean(),
      z.number(),
      z.string(),
    ])
    .nullable()
    .optional()
    .meta({ description: 'Comment id -> whether it becomes private (insider group).' }),
  alias: listChange('Aliases to add or remove.'),
  cc: listChange('Logins to add to or remove from the CC list.'),
  keywords: listChange('Keywords to add, remove or set.'),
  groups: listChange('Groups to add or remove.'),
  blocks: listChange('Bugs to add to or remove from "blocks".'),
  depends_on: listChange('Bugs to add to or remove from "depends on".'),
  regressed_by: listChange('Bugs to add to or remove from "regressed by".'),
  regressions: listChange('Bugs to add to or remove from "regressions".'),
  see_also: listChange('URLs to add or remove.'),
  flags,
};

/**
 * The criteria of a search most clients use (searchQuery.ts takes Bugzilla's others too). Each
 * takes one value or several (a repeated query key), as the search reads them.
 */
export const SEARCH_CRITERIA = {
  id: names('Bug ids.'),
  alias: names('Aliases.'),
  product: names('Products, by name.'),
  component: names('Components, by name.'),
  version: names('Versions.'),
  target_milestone: names('Target milestones.'),
  status: names('Statuses.'),
  resolution: names('Resolutions (empty: the open bugs).'),
  priority: names('Priorities.'),
  severity: names('Severities.'),
  op_sys: names('Operating systems.'),
  platform: names('Platforms.'),
  summary: names('Text in the summary (case-insensitive).'),
  whiteboard: names('Text in the whiteboard.'),
  creator: names("Reporters' logins."),
  assigned_to: names("Assignees' logins."),
  qa_contact: names("QA contacts' logins."),
  keywords: names('Keywords.'),
  quicksearch: names("A quick search, in Bugzilla's quicksearch language."),
  creation_time: names('Bugs filed at or after this time.'),
  last_change_time: names('Bugs changed at or after this time.'),
  limit: names('At most this many bugs.'),
  offset: names('Skip this many bugs (with limit).'),
  order: names('Sort order: columns, each optionally followed by DESC.'),
  count_only: names('1: answer `{bug_count}` only.'),
  savedsearch: text(
    "Run the caller's saved search of this name instead of the other criteria (login required; an unknown name is an error).",
  ),
  sharer_id: text('With savedsearch: the id of the person who shared the search with a group the caller is in.'),
};
