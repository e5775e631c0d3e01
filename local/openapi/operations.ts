import {
  arrayOf,
  boolean,
  bugzillaTime,
  byId,
  envelope,
  integer,
  type JsonSchema,
  nullable,
  ref,
  string,
} from './jsonSchema.ts';

/**
 * What the route table and the zod schemas cannot say: each handler module's summary, the shape
 * of its answer (checked against real answers by test/integration/openapiResponses.test.ts) and,
 * where its input is open, what it takes. A handler missing here is still described, with an
 * unknown answer; test/unit/openapi.test.ts fails until it is added.
 */
export interface OperationNotes {
  summary: string;
  response: JsonSchema;
  description?: string;
  /** The handler applies include_fields / exclude_fields itself (no `responseFields` in its definition). */
  selectsFields?: boolean;
}

const created = ref('CreatedId');
const updated = (collection: string) => envelope({ [collection]: arrayOf(ref('UpdateResult')) });
const list = (collection: string, item: string) => envelope({ [collection]: arrayOf(ref(item)) });
const strings = arrayOf(string);
const flagTypeLists = envelope({ bug: arrayOf(ref('FlagType')), attachment: arrayOf(ref('FlagType')) });
const productIds = envelope({ ids: { ...strings, description: 'Product ids, as text.' } });
const lastVisits = arrayOf(ref('LastVisit'));
/** A JSON-RPC error object: Bugzilla's code and message (1.1 adds `name`). */
const rpcError = envelope({ name: { const: 'JSONRPCError' }, code: integer, message: string }, ['code', 'message']);
/** JSON-RPC's answers as jsonrpc.cgi writes them (shared/http/rpc/jsonRpcCodec.ts). */
const jsonRpcAnswer: JsonSchema = {
  oneOf: [
    envelope({ result: {}, error: { type: 'null' }, id: {} }, ['result', 'error', 'id']),
    envelope({ result: { type: 'null' }, error: rpcError, id: {} }, ['result', 'error', 'id']),
    envelope({ version: { const: '1.1' }, result: {} }, ['version', 'result']),
    envelope({ version: { const: '1.1' }, error: rpcError, id: {} }, ['version', 'error']),
  ],
  description:
    'JSON-RPC 1.0 `{result, error, id}` or 1.1 `{version, result}` / `{version, error, id}`, always with HTTP 200 (an error is an answer). A 1.0 call without an id gets an empty body; a GET with `callback` gets JSONP (`text/javascript`). XML-RPC answers a `methodResponse` document (`text/xml`) instead.',
};

export const OPERATIONS: Readonly<Record<string, OperationNotes>> = {
  'instance/version': { summary: 'Bugzilla API version', response: envelope({ version: string }) },
  'instance/extensions': {
    summary: 'Installed extensions',
    description:
      'Tracker lists itself, FieldValues (the legal-value and workflow administration routes) and OpenAPI (this document at GET /rest/openapi.json).',
    response: envelope({
      extensions: { type: 'object', additionalProperties: envelope({ version: string }) },
    }),
  },
  'instance/openapi': {
    summary: 'This OpenAPI description',
    description:
      'The OpenAPI 3.1 document of the API, generated from the route table and the handlers (docs/openapi.json).',
    response: { type: 'object', required: ['openapi', 'info', 'paths'], description: 'An OpenAPI 3.1 document.' },
  },
  'instance/timezone': { summary: 'Server time zone', response: envelope({ timezone: string }) },
  'instance/time': {
    summary: 'Server time',
    response: envelope({
      db_time: bugzillaTime,
      web_time: bugzillaTime,
      web_time_utc: bugzillaTime,
      tz_name: string,
      tz_short_name: string,
      tz_offset: string,
    }),
  },
  'instance/getParameters': { summary: 'Parameters', response: envelope({ parameters: ref('Parameters') }) },
  'instance/updateParameters': {
    summary: 'Change parameters',
    description: 'Tracker addition: `{"name": value, …}`, all or nothing.',
    response: envelope({ changes: ref('Changes') }),
  },
  'instance/lastAuditTime': {
    summary: 'Last audit time',
    response: envelope({ last_audit_time: nullable(bugzillaTime) }),
  },
  'instance/jobqueueStatus': { summary: 'Job queue status', response: envelope({ total: integer, errors: integer }) },

  'user/login': { summary: 'Log in', response: envelope({ id: integer, token: string }) },
  'user/logout': { summary: 'Log out', response: envelope({ result: { type: 'null' } }) },
  'user/validLogin': { summary: 'Check a login', response: envelope({ result: boolean }) },
  'user/whoami': {
    summary: 'Who am I',
    description:
      "Bugzilla's `id`, `name`, `real_name` and `nick`, then Tracker additions about the caller: `email_enabled` (bug mail on), `is_insider` (may see and write private comments and attachments: the `insidergroup` parameter), `is_timetracker` (sees and sets the time fields: `timetrackinggroup`) and `can_tag_comments` (`comment_taggers_group`); `groups`, every group the caller is in (directly, by regexp, implied, or through admin), and `administered_products`, the products whose components, versions and milestones the caller may manage (all of them for editcomponents; else those where one of the caller's groups has the editcomponents control). Each flag comes from the check the API enforces, so it never disagrees with what the API then allows.",
    response: envelope({
      id: integer,
      name: string,
      real_name: string,
      nick: string,
      email_enabled: boolean,
      is_insider: boolean,
      is_timetracker: boolean,
      can_tag_comments: boolean,
      groups: strings,
      administered_products: strings,
    }),
  },
  'user/createUser': { summary: 'Create a user', response: created },
  'user/getUsers': { summary: 'Get users', response: list('users', 'User') },
  'user/updateUser': { summary: 'Update users', response: updated('users') },
  'user/updateOwnAccount': {
    summary: 'Change your own account',
    description:
      "Tracker addition (Bugzilla's web preferences, userprefs.cgi tab=account): any logged-in caller changes their own `full_name`, `email_enabled` (bug mail on or off) and password (`new_password` with `current_password`; a wrong current password answers 300 and counts as a failed login from the caller's address, under the same lockout). With `email` (with `current_password` too, and the allowemailchange parameter on) the login is not changed yet: the new address is mailed a confirmation link and the old one a cancel link, and the answer names the pending address as `email_change_pending`; off, it answers 304. Never the groups (Update User, editusers group). A new password ends every login token of the account; when the request came with a login token, the answer carries a new `token` that replaces it. `changes` is reported as Update User reports it.",
    response: envelope({ id: integer, changes: ref('Changes'), token: string, email_change_pending: string }, [
      'id',
      'changes',
    ]),
  },
  'account/offerAccountByEmail': {
    summary: 'Offer an account by e-mail (sign-up)',
    description:
      "User.offer_account_by_email (5.2 has it over XML-RPC and JSON-RPC only; this REST form is Tracker's). Mails the address a link (`token.cgi?t=...&a=request_new_account` under urlbase) whose token creates the account with the password and real name the person chooses. Refused with 501 when `createemailregexp` is empty or does not match the address. Unlike 5.2, an address that already has an account gets the same answer (and a notice by mail): no answer says which addresses have an account. One request per address every ten minutes (32000, as 5.2), and a budget per client address. Nothing is mailed while `mail_delivery_method` is None.",
    response: envelope({}),
  },
  'account/createAccount': {
    summary: 'Create the account a sign-up token names',
    description:
      'Creates the account with `password` and `full_name`, and spends the token in the same write: it works once. A wrong, used, cancelled or lapsed token answers 32000 ("The token you submitted does not exist, has expired, or has been canceled.").',
    response: envelope({ id: integer, login: string }, ['id', 'login']),
  },
  'account/requestPasswordReset': {
    summary: 'Forgot my password',
    description:
      'Mails the account whose login is `email` a single-use link that sets a new password (lapses after three days). The answer is the same whether or not such an account exists; one request per address every ten minutes and a budget per client address (32000), counted for every address alike.',
    response: envelope({}),
  },
  'account/setPassword': {
    summary: 'Set a password with a mailed token',
    description:
      "Sets the password of the account a password or invitation token names, spends the token and ends every login token of the account (API keys stay). Clears 'must change password'.",
    response: envelope({ id: integer, login: string }, ['id', 'login']),
  },
  'account/confirmEmailChange': {
    summary: 'Confirm a change of e-mail address',
    description:
      'The token mailed to the new address (PUT /rest/preferences/account with `email`, allowemailchange on) makes it the login. The old address keeps a link that undoes the change until its token lapses.',
    response: envelope({ id: integer, login: string }, ['id', 'login']),
  },
  'account/describeToken': {
    summary: 'What a mailed token is for',
    description:
      'For the page a mailed link opens: the kind (`account`, `password`, `invitation`, `emailnew`, `emailold`), the address and when it lapses. Changes nothing.',
    response: envelope({ kind: string, login: string, expires: string }, ['kind', 'login', 'expires']),
  },
  'account/cancelToken': {
    summary: 'Cancel what a mailed token asks for',
    description:
      "Bugzilla's cancel_new_account, cxlpw and cxlem: the token (and the other half of an e-mail change) is deleted. The old address cancelling an e-mail change that was already confirmed puts the old login back.",
    response: envelope({ kind: string }, ['kind']),
  },
  'account/inviteAccounts': {
    summary: 'Invite accounts without a password',
    description:
      'After an import (editusers group): mails every enabled account that has no password a link to set one (valid fourteen days). Accounts invited by an earlier run whose link has not lapsed are skipped, so a run can be repeated; `dry_run` lists who would be mailed and mails nobody. `npm run invite` does the same from a shell.',
    response: envelope(
      {
        candidates: integer,
        invited: integer,
        skipped: integer,
        dry_run: { type: 'boolean' },
        remaining: integer,
        logins: strings,
      },
      ['candidates', 'invited', 'skipped', 'dry_run', 'remaining', 'logins'],
    ),
  },
  'user/getMailPreferences': {
    summary: 'Your mail preferences',
    description:
      "Tracker addition (Bugzilla's web preferences, userprefs.cgi tab=email): the caller's own bug mail settings. `email_enabled` (bug mail at all), `flag_requested_of_me` and `flag_i_requested` (Bugzilla's global flag mails), then `relationships`: for `assignee`, `reporter`, `qa_contact` and `cc`, a box per event (`added_removed`, `bug_created`, `opened_closed`, `component`, `project_management`, `comment`, `attachment`, `attachment_data`, `keywords`, `cc`, `dependencies`, `other`: true sends mail when a change is made of it) and the two \"but not when\" overrides (`not_if_unconfirmed`, `not_if_changed_by_me`: true sends no mail then). `ignored_bugs` never send mail; `watched_users` are the people whose bug mail the caller gets too (Bugzilla's user watching), `watchers` those who get the caller's. Someone who never changed anything has Bugzilla 5.2's defaults: every box but `cc` outside `reporter`, mail about UNCONFIRMED bugs, none about their own changes.",
    response: ref('MailPreferences'),
  },
  'user/updateMailPreferences': {
    summary: 'Change your mail preferences',
    description:
      "Tracker addition: changes only what the body names, all of it or nothing, and answers as GET /rest/preferences/mail. `relationships` takes any boxes of any column by the same names (an unknown name is refused); `ignored_bugs` and `watched_users` take `{add, remove}` lists. A bug to ignore is named by id or alias and must be one the caller may see (100, 101, 102 as Get Bug answers); a person to watch must exist (51) and not be the caller. At most 1,000 ignored bugs and 50 watched people. `email_enabled` is the account's own setting, the one PUT /rest/preferences/account changes, and is recorded in the user's audit log the same way.",
    response: ref('MailPreferences'),
  },
  'oidc/signInOptions': {
    summary: 'Single sign-on: is it on?',
    description:
      'Tracker addition (docs/operations.md, "Single sign-on"): whether the installation signs people in through an OpenID Connect issuer, and the name its login form shows ("Sign in with <provider>"); `provider` is null when it is off.',
    response: envelope({ enabled: boolean, provider: nullable(string) }),
  },
  'oidc/startSignIn': {
    summary: 'Single sign-on: start',
    description:
      "Tracker addition. The caller (the web app) makes a PKCE code verifier, keeps it, and sends its S256 `code_challenge`; the answer is the issuer's `authorization_url` to send the browser to, with the `state` and `nonce` it carries. Keep the nonce beside the verifier: finishing needs both. A started sign-in lasts 10 minutes. Answers 32000 when single sign-on is off.",
    response: envelope({ authorization_url: string, state: string, nonce: string }),
  },
  'oidc/finishSignIn': {
    summary: 'Single sign-on: finish',
    description:
      "Tracker addition. Send the `state`, `code` and `iss` of the issuer's callback address with the `code_verifier` and `nonce` kept since the start. The code is exchanged at the issuer, the ID token verified (signature, issuer, audience, expiry, nonce), and the person signed in to the account whose login is their verified e-mail address, or to a new one when the address matches `createemailregexp`. The answer is what Login gives: an `id` and a login `token`. A state is good for one try. Errors: 307 (an unknown, expired, used or foreign sign-in, or the issuer refused the code), 302 (no verified e-mail address), 301 (the account is disabled), 501 (no account, and none may be made for that address).",
    response: envelope({ id: integer, token: string }),
  },
  'user/addApiKey': {
    summary: 'Create an API key',
    description: 'Tracker addition. The key is shown only in this answer.',
    response: envelope({ id: integer, api_key: string }),
  },
  'user/getApiKeys': { summary: "List a user's API keys", response: list('api_keys', 'ApiKey') },
  'user/getUserActivity': {
    summary: "A user's account history",
    response: list('activity', 'AccountActivity'),
    description:
      'Tracker addition (Bugzilla\'s editusers "View Account History"), editusers only: the audit entries about the account, newest first; `limit` (1–1000, default 100) and `offset` page them. Entries written before Tracker kept a per-account index are not listed.',
  },
  'user/updateApiKey': { summary: 'Revoke or describe an API key', response: updated('api_keys') },

  'group/createGroup': { summary: 'Create a group', response: created },
  'group/getGroups': { summary: 'Get groups', response: list('groups', 'Group') },
  'group/updateGroup': { summary: 'Update groups', response: updated('groups') },

  'product/selectableProducts': { summary: 'Products the caller can search', response: productIds },
  'product/enterableProducts': { summary: 'Products the caller can file bugs in', response: productIds },
  'product/accessibleProducts': { summary: 'Products the caller can search or file bugs in', response: productIds },
  'product/getProducts': { summary: 'Get products', response: list('products', 'Product') },
  'product/createProduct': { summary: 'Create a product', response: created },
  'product/updateProduct': { summary: 'Update products', response: updated('products') },
  'product/deleteProduct': {
    summary: 'Delete a product',
    description:
      "Tracker addition (Bugzilla's editproducts.cgi delete): editcomponents only (a product's own editcomponents control is not enough). The product goes with its components, versions, milestones and group controls, and flag types stop naming it. Refused (32000) while the product has bugs, with their number, as Bugzilla with allowbugdeletion off.",
    response: envelope({ products: arrayOf(envelope({ id: integer })) }),
  },
  'product/createVersion': { summary: 'Add a version to a product', response: created },
  'product/updateVersion': { summary: 'Rename, reorder or disable a version', response: updated('versions') },
  'product/deleteVersion': {
    summary: 'Delete a version',
    description:
      "Tracker addition (Bugzilla's editversions.cgi delete): editcomponents, or the product's editcomponents control. Refused (32000) for the product's last version and while bugs have the version, with their number.",
    response: envelope({ versions: arrayOf(envelope({ id: integer })) }),
  },
  'product/createMilestone': { summary: 'Add a milestone to a product', response: created },
  'product/updateMilestone': { summary: 'Rename, reorder or disable a milestone', response: updated('milestones') },
  'product/deleteMilestone': {
    summary: 'Delete a milestone',
    description:
      "Tracker addition (Bugzilla's editmilestones.cgi delete): editcomponents, or the product's editcomponents control. Refused (32000) for the default milestone and while bugs are targeted at it, with their number (Bugzilla moves them to the default milestone; Tracker leaves that to a bug change).",
    response: envelope({ milestones: arrayOf(envelope({ id: integer })) }),
  },
  'classification/getClassification': {
    summary: 'Get classifications',
    response: list('classifications', 'Classification'),
  },
  'classification/createClassification': { summary: 'Create a classification', response: created },
  'classification/updateClassification': { summary: 'Update a classification', response: updated('classifications') },
  'component/createComponent': { summary: 'Create a component', response: created },
  'component/updateComponent': { summary: 'Update components', response: updated('components') },
  'component/deleteComponent': {
    summary: 'Delete a component',
    response: envelope({
      components: arrayOf(envelope({ id: integer })),
    }),
  },

  'field/getFields': { summary: 'Get field definitions', response: list('fields', 'Field') },
  'field/legalValues': { summary: "A field's legal values (deprecated)", response: envelope({ values: strings }) },
  'field/createField': { summary: 'Create a custom field', response: created },
  'field/updateField': { summary: 'Update custom fields', response: updated('fields') },
  'field/createFieldValue': {
    summary: 'Add a legal value to a built-in field',
    response: envelope({ field: string, name: string }),
  },
  'field/updateFieldValue': {
    summary: 'Rename, reorder or disable a legal value',
    response: envelope({
      values: arrayOf(envelope({ field: string, name: string, changes: ref('Changes') })),
    }),
  },
  'field/updateWorkflow': {
    summary: 'Change the status workflow',
    response: envelope({
      transitions: arrayOf(ref('WorkflowTransition')),
      changes: envelope({ added: arrayOf(ref('WorkflowTransition')), removed: arrayOf(ref('WorkflowTransition')) }),
    }),
  },
  'keyword/getKeywords': { summary: 'Get keywords', response: list('keywords', 'Keyword') },
  'keyword/createKeyword': { summary: 'Create a keyword', response: created },
  'keyword/updateKeyword': { summary: 'Update keywords', response: updated('keywords') },
  'keyword/deleteKeyword': {
    summary: 'Delete a keyword',
    description:
      "Tracker addition (Bugzilla's editkeywords.cgi delete): editkeywords only. Refused (32000) while bugs have the keyword, with their number (Bugzilla removes it from them; Tracker asks to remove it or deactivate the keyword instead).",
    response: envelope({ keywords: arrayOf(envelope({ id: integer })) }),
  },

  'flagType/createFlagType': { summary: 'Create a flag type', response: created },
  'flagType/getFlagTypes': {
    summary: 'Flag types of a product (and component), or one flag type by id',
    response: { oneOf: [flagTypeLists, list('flag_types', 'FlagType')] },
  },
  'flagType/listFlagTypes': {
    summary: 'Every flag type (editcomponents)',
    description:
      'Tracker addition (Bugzilla\'s editflagtypes.cgi list): every flag type, inactive ones too, bug types first, then by sort key and name; each with `target_type`, `values`, `inclusions` and `exclusions` as one type by id shows them, plus `grant_group_name` and `request_group_name` ("" for none). Members of editcomponents only (304 for others, 410 anonymous).',
    response: list('flag_types', 'FlagType'),
  },
  'flagType/updateFlagType': { summary: 'Update flag types', response: updated('flagtypes') },
  'flagType/deleteFlagType': {
    summary: 'Delete a flag type',
    description:
      "Tracker addition (Bugzilla's editflagtypes.cgi delete): editcomponents only; by id, or by a name no other type has (133 otherwise). Refused (32000) while flags of the type are set on bugs or attachments, with their number (Bugzilla deletes them; Tracker asks to clear them or deactivate the type instead).",
    response: envelope({ flagtypes: arrayOf(envelope({ id: integer })) }),
  },

  'bug/createBug': {
    summary: 'File a bug',
    description:
      "The bug's fields (product, component, version, summary, description, op_sys, platform, priority, severity, …, custom fields `cf_…`, flags); each is checked by the bug rules with Bugzilla's error codes.",
    response: created,
  },
  'bug/searchBugs': {
    summary: 'Search bugs',
    description:
      "Bugzilla's search parameters: any bug field by name (`product`, `status`, `assigned_to`, …), advanced search (`f1`/`o1`/`v1`, `j_top`), `quicksearch`, `limit`, `offset`, `order`, `count_only` (then the answer is `{bug_count}`). `savedsearch` runs a saved search by name instead (with `sharer_id` for one another person shared with the caller's group): its criteria replace the request's, its saved `order` wins, the request's `limit`, `offset`, `count_only` and fields apply.",
    response: { oneOf: [list('bugs', 'Bug'), envelope({ bug_count: integer })] },
  },
  'bug/possibleDuplicates': {
    summary: 'Possible duplicates',
    description: '`id` (of a bug) or `summary`, optionally `product` (repeatable) and `limit`: best matches first.',
    response: list('bugs', 'Bug'),
  },
  'bug/getBug': {
    summary: 'Get bugs',
    response: envelope({ bugs: arrayOf(ref('Bug')), faults: arrayOf(ref('BugFault')) }),
  },
  'bug/updateBug': {
    summary: 'Update bugs',
    description:
      "The fields to change, as Bugzilla takes them (lists as `{add, remove, set}`, `comment`, `flags`, custom fields); each is checked by the bug rules with Bugzilla's error codes.",
    response: envelope({ bugs: arrayOf(ref('BugUpdate')) }),
  },
  'bug/bugHistory': { summary: 'Bug history', response: list('bugs', 'BugHistory') },
  'bug/updateTags': {
    summary: "Change the caller's personal tags of bugs",
    response: envelope({
      changes: byId(envelope({ added: strings, removed: strings })),
    }),
  },
  'bug/recordLastVisit': { summary: 'Record a visit of bugs', response: lastVisits },
  'bug/getLastVisits': { summary: "The caller's last visits of bugs", response: lastVisits },

  'savedSearch/getSavedSearches': {
    summary: 'List saved searches',
    description:
      "Tracker addition (Bugzilla's namedqueries): the caller's own saved searches by name, then those others shared with a group the caller is in (run one with GET /rest/bug's `savedsearch` and `sharer_id` = its `owner_id`). A search just shared may take a moment to show in other people's lists.",
    response: list('saved_searches', 'SavedSearch'),
  },
  'savedSearch/saveSearch': {
    summary: 'Save a search',
    description:
      "Tracker addition (buglist.cgi's Remember search): saves `query` under `name` for the caller; a name the caller already uses, whatever its case, gets the new query (it keeps its id and sharing). `shared_with_group` shares it: only members of the `querysharegroup` parameter's group may share, and only with a group they are in. Errors as Bugzilla's: no name, `<>&` in it or over 64 characters 32000; no search terms 1000; not logged in 410.",
    response: ref('SavedSearch'),
  },
  'savedSearch/updateSavedSearch': {
    summary: 'Change or share a saved search',
    description:
      'Tracker addition (userprefs.cgi\'s saved searches): changes the `query` of one of the caller\'s searches, by id or name, or shares it with a group (`shared_with_group`; null or "" stops sharing).',
    response: ref('SavedSearch'),
  },
  'savedSearch/deleteSavedSearch': {
    summary: 'Forget a saved search',
    description:
      "Tracker addition (buglist.cgi's remaction=forget): deletes one of the caller's searches, by id or name; nobody can run it after.",
    response: envelope({ id: integer, name: string }),
  },

  'comment/getComments': {
    summary: 'Get comments',
    selectsFields: true,
    response: envelope({
      bugs: byId(envelope({ comments: arrayOf(ref('Comment')) })),
      comments: byId(ref('Comment')),
    }),
  },
  'comment/addComment': { summary: 'Add a comment', response: created },
  'comment/updateCommentTags': {
    summary: "Change a comment's tags",
    description: "Answers the comment's tags.",
    response: strings,
  },
  'comment/searchCommentTags': { summary: 'Comment tags in use', response: strings },
  'comment/renderComment': { summary: 'Render comment text as HTML', response: envelope({ html: string }) },

  'rpc/rpcEndpoint': {
    summary: "Bugzilla's XML-RPC and JSON-RPC",
    description: [
      "Bugzilla 5.2's older WebService protocols, for the clients that speak them (python-bugzilla given a URL without `/rest`, pybugz, Mylyn): `POST /xmlrpc.cgi` takes an XML-RPC `methodCall` (`Content-Type: text/xml`), `POST /jsonrpc.cgi` a JSON-RPC 1.0 or 1.1 call, `GET /jsonrpc.cgi` `method`, `params` (JSON text), `id`, `version` and `callback` (JSONP) for the methods Bugzilla lets a GET call.",
      'Each method (`Bug.get`, `User.login`, …) is its REST route called in-process, with the same parameters, credentials (`Bugzilla_api_key`, `Bugzilla_login` and `Bugzilla_password`, or `Bugzilla_token` among them), answer and error codes; errors come back as faults or error objects with HTTP 200. The methods and their routes: `shared/http/rpc/rpcMethods.ts`.',
    ].join('\n\n'),
    response: jsonRpcAnswer,
  },

  'attachment/getAttachments': {
    summary: 'Get attachments',
    response: envelope({
      bugs: byId(arrayOf(ref('Attachment'))),
      attachments: byId(ref('Attachment')),
    }),
  },
  'attachment/createAttachment': { summary: 'Attach a file', response: envelope({ ids: arrayOf(integer) }) },
  'attachment/updateAttachment': {
    summary: 'Update attachments',
    response: envelope({ attachments: arrayOf(ref('AttachmentUpdate')) }),
  },
  'attachment/downloadAttachment': {
    summary: "An attachment's download address",
    description: 'Tracker addition: a presigned address, so large files download without passing through the API.',
    response: envelope({ attachments: byId(ref('AttachmentDownload')) }),
  },
};
