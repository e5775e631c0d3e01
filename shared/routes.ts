/**
 * The route table: the single source of truth for the CDK stack (one Lambda per handler module,
 * one API Gateway route per row), the local server and the tests.
 * Adding an endpoint = one handler module under functions/ + one row here.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * API Gateway refuses two different variable names at one level of the path tree (a 409
 * ConflictException at deploy time), so sibling routes share their variable names.
 */
export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway HTTP API syntax: `/rest/bug/{id_or_alias}`. */
  path: string;
  /** Module under functions/, without extension; it exports `handler`. */
  handler: string;
  /** Read-only routes get read-only grants on the table (and on the bucket, where they use it). */
  readOnly: boolean;
  /** Whether the route reads or writes attachment bodies: only such functions get the bucket. */
  attachments?: boolean;
  /**
   * Whether the route mails a person (account mail: sign-up, password reset, e-mail change,
   * invitations): only such functions may send through SES and keep Test mail in the bucket.
   */
  mail?: boolean;
}

const route = (
  method: HttpMethod,
  path: string,
  handler: string,
  readOnly = method === 'GET',
  options: { attachments?: boolean; mail?: boolean } = {},
): RouteDefinition => ({
  method,
  path,
  handler,
  readOnly,
  attachments: options.attachments ?? false,
  mail: options.mail ?? false,
});

/** Account mail leaves from the request that asks for it (the mail holds a token the table never does). */
const MAILS = { mail: true } as const;

export const routes: readonly RouteDefinition[] = [
  // Instance information
  route('GET', '/rest/version', 'instance/version'),
  route('GET', '/rest/extensions', 'instance/extensions'),
  route('GET', '/rest/openapi.json', 'instance/openapi'),
  route('GET', '/rest/timezone', 'instance/timezone'),
  route('GET', '/rest/time', 'instance/time'),
  route('GET', '/rest/parameters', 'instance/getParameters'),
  route('PUT', '/rest/parameters', 'instance/updateParameters'),
  route('GET', '/rest/last_audit_time', 'instance/lastAuditTime'),
  route('GET', '/rest/jobqueue_status', 'instance/jobqueueStatus'),

  // Users and sessions
  route('GET', '/rest/login', 'user/login', false),
  route('POST', '/rest/login', 'user/login'),
  route('GET', '/rest/logout', 'user/logout', false),
  route('GET', '/rest/valid_login', 'user/validLogin'),
  route('GET', '/rest/whoami', 'user/whoami'),
  route('POST', '/rest/user', 'user/createUser'),
  route('GET', '/rest/user', 'user/getUsers'),
  route('GET', '/rest/user/{id_or_name}', 'user/getUsers'),
  route('PUT', '/rest/user/{id_or_name}', 'user/updateUser'),
  route('PUT', '/rest/user', 'user/updateUser'),
  route('POST', '/rest/user/{id_or_name}/api_key', 'user/addApiKey'),
  route('GET', '/rest/user/{id_or_name}/api_key', 'user/getApiKeys'),
  route('GET', '/rest/user/{id_or_name}/activity', 'user/getUserActivity'),
  route('PUT', '/rest/user/{id_or_name}/api_key/{key_id}', 'user/updateApiKey'),
  // The caller's own account (Tracker addition): not under /rest/user/{id_or_name}, whose variable
  // would take any word (`me`) for a login.
  route('PUT', '/rest/preferences/account', 'user/updateOwnAccount', false, MAILS),
  route('GET', '/rest/preferences/mail', 'user/getMailPreferences'),
  route('PUT', '/rest/preferences/mail', 'user/updateMailPreferences'),
  // Accounts by mail (Tracker's REST forms of Bugzilla's createaccount.cgi and token.cgi; the
  // token travels in the body, never in the address). docs/api.md "Accounts by mail".
  route('POST', '/rest/account/offer_account_by_email', 'account/offerAccountByEmail', false, MAILS),
  route('POST', '/rest/account/create', 'account/createAccount'),
  route('POST', '/rest/account/password_reset', 'account/requestPasswordReset', false, MAILS),
  route('POST', '/rest/account/password', 'account/setPassword'),
  route('POST', '/rest/account/email', 'account/confirmEmailChange'),
  route('POST', '/rest/account/token', 'account/describeToken', true),
  route('POST', '/rest/account/token/cancel', 'account/cancelToken'),
  route('POST', '/rest/account/invitations', 'account/inviteAccounts', false, MAILS),
  // Single sign-on through an OpenID Connect issuer (Tracker addition, docs/operations.md).
  route('GET', '/rest/oidc', 'oidc/signInOptions'),
  route('POST', '/rest/oidc/login', 'oidc/startSignIn'),
  route('POST', '/rest/oidc/callback', 'oidc/finishSignIn'),

  // Groups
  route('POST', '/rest/group', 'group/createGroup'),
  route('GET', '/rest/group', 'group/getGroups'),
  route('GET', '/rest/group/{id_or_name}', 'group/getGroups'),
  route('PUT', '/rest/group/{id_or_name}', 'group/updateGroup'),
  route('PUT', '/rest/group', 'group/updateGroup'),

  // Products, classifications, components, versions, milestones
  route('GET', '/rest/product_selectable', 'product/selectableProducts'),
  route('GET', '/rest/product_enterable', 'product/enterableProducts'),
  route('GET', '/rest/product_accessible', 'product/accessibleProducts'),
  route('GET', '/rest/product', 'product/getProducts'),
  route('GET', '/rest/product/{id_or_name}', 'product/getProducts'),
  route('POST', '/rest/product', 'product/createProduct'),
  route('PUT', '/rest/product/{id_or_name}', 'product/updateProduct'),
  route('PUT', '/rest/product', 'product/updateProduct'),
  route('DELETE', '/rest/product/{id_or_name}', 'product/deleteProduct'),
  route('POST', '/rest/product/{id_or_name}/version', 'product/createVersion'),
  route('PUT', '/rest/product/{id_or_name}/version/{value}', 'product/updateVersion'),
  route('DELETE', '/rest/product/{id_or_name}/version/{value}', 'product/deleteVersion'),
  route('POST', '/rest/product/{id_or_name}/milestone', 'product/createMilestone'),
  route('PUT', '/rest/product/{id_or_name}/milestone/{value}', 'product/updateMilestone'),
  route('DELETE', '/rest/product/{id_or_name}/milestone/{value}', 'product/deleteMilestone'),
  route('GET', '/rest/classification/{id_or_name}', 'classification/getClassification'),
  route('POST', '/rest/classification', 'classification/createClassification'),
  route('PUT', '/rest/classification/{id_or_name}', 'classification/updateClassification'),
  route('POST', '/rest/component', 'component/createComponent'),
  route('PUT', '/rest/component/{id_or_product}', 'component/updateComponent'),
  route('PUT', '/rest/component/{id_or_product}/{component}', 'component/updateComponent'),
  route('DELETE', '/rest/component/{id_or_product}', 'component/deleteComponent'),
  route('DELETE', '/rest/component/{id_or_product}/{component}', 'component/deleteComponent'),

  // Bug fields and keywords
  route('GET', '/rest/field/bug', 'field/getFields'),
  route('GET', '/rest/field/bug/{id_or_name}', 'field/getFields'),
  route('GET', '/rest/field/bug/{id_or_name}/values', 'field/legalValues'),
  route('GET', '/rest/field/bug/{id_or_name}/{product_id}/values', 'field/legalValues'),
  route('POST', '/rest/field/bug', 'field/createField'),
  route('PUT', '/rest/field/bug/{id_or_name}', 'field/updateField'),
  route('PUT', '/rest/field/bug', 'field/updateField'),
  // The built-in fields' legal values and the workflow (Tracker's FieldValues extension; admin group).
  route('POST', '/rest/field/bug/{id_or_name}/values', 'field/createFieldValue'),
  route('PUT', '/rest/field/bug/{id_or_name}/values/{value}', 'field/updateFieldValue'),
  route('PUT', '/rest/field/bug/{id_or_name}/workflow', 'field/updateWorkflow'),
  route('GET', '/rest/keyword', 'keyword/getKeywords'),
  route('GET', '/rest/keyword/{id_or_name}', 'keyword/getKeywords'),
  route('POST', '/rest/keyword', 'keyword/createKeyword'),
  route('PUT', '/rest/keyword/{id_or_name}', 'keyword/updateKeyword'),
  route('PUT', '/rest/keyword', 'keyword/updateKeyword'),
  route('DELETE', '/rest/keyword/{id_or_name}', 'keyword/deleteKeyword'),

  // Flag types
  // One path-variable name per level ({id_or_name}: a product name for GET, a flag type for PUT).
  route('POST', '/rest/flag_type', 'flagType/createFlagType'),
  route('GET', '/rest/flag_type', 'flagType/listFlagTypes'),
  route('GET', '/rest/flag_type/{id_or_name}', 'flagType/getFlagTypes'),
  route('GET', '/rest/flag_type/{id_or_name}/{component}', 'flagType/getFlagTypes'),
  route('PUT', '/rest/flag_type/{id_or_name}', 'flagType/updateFlagType'),
  route('DELETE', '/rest/flag_type/{id_or_name}', 'flagType/deleteFlagType'),

  // Bugs
  route('POST', '/rest/bug', 'bug/createBug'),
  route('GET', '/rest/bug', 'bug/searchBugs'),
  route('GET', '/rest/bug/possible_duplicates', 'bug/possibleDuplicates'),
  route('GET', '/rest/bug/{id_or_alias}', 'bug/getBug'),
  route('PUT', '/rest/bug/{id_or_alias}', 'bug/updateBug'),
  route('PUT', '/rest/bug', 'bug/updateBug'),
  route('GET', '/rest/bug/{id_or_alias}/history', 'bug/bugHistory'),
  route('PUT', '/rest/bug/{id_or_alias}/tags', 'bug/updateTags'),

  // Comments and comment tags (one variable name per level: {comment_id} under /rest/bug/comment/)
  route('GET', '/rest/bug/{id_or_alias}/comment', 'comment/getComments'),
  route('POST', '/rest/bug/{id_or_alias}/comment', 'comment/addComment'),
  route('GET', '/rest/bug/comment/{comment_id}', 'comment/getComments'),
  route('PUT', '/rest/bug/comment/{comment_id}/tags', 'comment/updateCommentTags'),
  route('GET', '/rest/bug/comment/tags/{query}', 'comment/searchCommentTags'),
  // A POST that only reads: it gets the read-only role.
  route('POST', '/rest/bug/comment/render', 'comment/renderComment', true),

  // Attachments (metadata in the table, bodies in the bucket: the routes that move bodies get the bucket)
  route('GET', '/rest/bug/{id_or_alias}/attachment', 'attachment/getAttachments', true, { attachments: true }),
  route('POST', '/rest/bug/{id_or_alias}/attachment', 'attachment/createAttachment', false, { attachments: true }),
  route('GET', '/rest/bug/attachment/{attachment_id}', 'attachment/getAttachments', true, { attachments: true }),
  // Changing an attachment's metadata never touches its body: no bucket access.
  route('PUT', '/rest/bug/attachment/{attachment_id}', 'attachment/updateAttachment'),
  // A presigned URL works only if the signing role may read the object.
  route('GET', '/rest/bug/attachment/{attachment_id}/download', 'attachment/downloadAttachment', true, {
    attachments: true,
  }),

  route('POST', '/rest/bug_user_last_visit', 'bug/recordLastVisit'),
  route('POST', '/rest/bug_user_last_visit/{id}', 'bug/recordLastVisit'),
  route('GET', '/rest/bug_user_last_visit', 'bug/getLastVisits'),
  route('GET', '/rest/bug_user_last_visit/{id}', 'bug/getLastVisits'),

  // Saved searches (Tracker addition: Bugzilla's namedqueries, which it manages in buglist.cgi
  // and userprefs.cgi); GET /rest/bug runs one by name (`savedsearch`, `sharer_id`).
  route('GET', '/rest/saved_search', 'savedSearch/getSavedSearches'),
  route('POST', '/rest/saved_search', 'savedSearch/saveSearch'),
  route('PUT', '/rest/saved_search/{id_or_name}', 'savedSearch/updateSavedSearch'),
  route('DELETE', '/rest/saved_search/{id_or_name}', 'savedSearch/deleteSavedSearch'),

  // Bugzilla's XML-RPC and JSON-RPC WebService (shared/http/rpc/): one function runs each method's
  // REST handler in-process, so it may do what any of them does (write the table, move bodies).
  // A JSON-RPC GET calls only methods that read (Bugzilla's READ_ONLY lists).
  // User.offer_account_by_email mails.
  route('POST', '/xmlrpc.cgi', 'rpc/rpcEndpoint', false, { attachments: true, mail: true }),
  route('POST', '/jsonrpc.cgi', 'rpc/rpcEndpoint', false, { attachments: true, mail: true }),
  route('GET', '/jsonrpc.cgi', 'rpc/rpcEndpoint', true, { attachments: true }),
  // python-bugzilla given `https://host/` and bugz given the bare base URL post XML-RPC to it.
  route('POST', '/', 'rpc/rpcEndpoint', false, { attachments: true, mail: true }),
];

/**
 * Handlers that serve what no row names: CORS/`OPTIONS` on any path and the catch-all that
 * answers Bugzilla's 32614 for an unknown route or method.
 */
export const platformHandlers = {
  options: 'platform/options',
  notFound: 'platform/notFound',
} as const;
