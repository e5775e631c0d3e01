/**
 * The one registry of the errors Tracker answers with: every Bugzilla error code it uses, by name.
 * Code that fails calls a constructor here (`errors.bugNotFound(7)`, `errors.invalidParameter(why)`),
 * so no throw site carries a bare number, and the catalogue below is what the error documentation
 * is generated from. Codes and titles are Bugzilla's (the API description's error table); the HTTP
 * status of each code comes from `httpStatusForCode` in trackerError.ts.
 *
 * Most constructors take the message, because the same code covers many situations (51 is any
 * object that does not exist); a constructor builds its own message where one situation owns the
 * code, so every site says it the same way.
 */
import { GENERIC_USER_ERROR, INTERNAL_ERROR, NO_SUCH_METHOD, QUERY_TOO_LONG, TrackerError } from './trackerError.ts';

interface ErrorEntry {
  readonly code: number;
  /** Bugzilla's title for the code. */
  readonly title: string;
}

/** Each named error: its code and Bugzilla's title. Keys are the constructor names below. */
export const ERROR_CATALOG = {
  internalError: { code: INTERNAL_ERROR, title: 'Unknown fatal error (not the caller’s fault)' },
  invalidParameter: { code: GENERIC_USER_ERROR, title: 'Invalid input (generic user error)' },
  noSuchMethod: { code: NO_SUCH_METHOD, title: 'No such resource or method' },
  queryTooLong: { code: QUERY_TOO_LONG, title: 'Query string too long' },
  missingParameter: { code: 50, title: 'Param Required' },
  notFound: { code: 51, title: 'Object does not exist' },
  invalidValue: { code: 52, title: 'Invalid Parameter' },
  unknownField: { code: 53, title: 'Invalid Field Name' },
  numberTooLarge: { code: 54, title: 'Number Too Large' },
  numberTooSmall: { code: 55, title: 'Number Too Small' },
  invalidDate: { code: 56, title: 'Illegal Date' },
  requestTooLarge: { code: 58, title: 'Request Too Large' },
  invalidBugReference: { code: 100, title: 'Invalid Bug Alias' },
  bugNotFound: { code: 101, title: 'Invalid Bug ID' },
  bugAccessDenied: { code: 102, title: 'Access Denied' },
  invalidAlias: { code: 103, title: 'Invalid Alias' },
  fieldTooLong: { code: 104, title: 'Field Too Long' },
  invalidComponent: { code: 105, title: 'Invalid Component' },
  invalidProduct: { code: 106, title: 'Invalid Product' },
  summaryRequired: { code: 107, title: 'Summary Required' },
  invalidFieldName: { code: 108, title: 'Invalid Field Name' },
  bugEditDenied: { code: 109, title: 'Bug Edit Denied' },
  commentIsPrivate: { code: 110, title: 'Comment Is Private' },
  invalidCommentId: { code: 111, title: 'Invalid Comment ID' },
  invalidSeeAlso: { code: 112, title: 'Invalid See Also URL' },
  notInsider: { code: 113, title: "Can't Make Private Comments" },
  commentTooLong: { code: 114, title: 'Comment Too Long' },
  fieldChangeDenied: { code: 115, title: 'Field Change Denied' },
  dependencyLoop: { code: 116, title: 'Dependency Loop' },
  duplicateOfItself: { code: 118, title: 'Cannot Duplicate Itself' },
  duplicateTargetRequired: { code: 119, title: 'Duplicate ID Required' },
  invalidBugGroup: { code: 120, title: 'Group Restriction Denied' },
  resolutionRequired: { code: 121, title: 'Resolution Required' },
  resolutionNotAllowed: { code: 122, title: 'Resolution On Open Status' },
  illegalStatusTransition: { code: 123, title: 'Invalid Status Transition' },
  commentTaggingDisabled: { code: 125, title: 'Comment Tagging Disabled' },
  invalidCommentTag: { code: 126, title: 'Invalid Comment Tag' },
  commentTagTooShort: { code: 127, title: 'Comment Tag Too Short' },
  commentTagTooLong: { code: 128, title: 'Comment Tag Too Long' },
  invalidFlagStatus: { code: 129, title: 'Flag Status Invalid' },
  flagChangeDenied: { code: 130, title: 'Flag Modification Denied' },
  flagNotRequestableFromPerson: { code: 131, title: 'Flag not Requestable from Specific Person' },
  flagNotUnique: { code: 132, title: 'Flag not Unique' },
  flagTypeNotUnique: { code: 133, title: 'Flag Type not Unique' },
  inactiveFlagType: { code: 134, title: 'Inactive Flag Type' },
  markdownDisabled: { code: 140, title: 'Markdown Disabled' },
  invalidLogin: { code: 300, title: 'Invalid Username or Password' },
  accountDisabled: { code: 301, title: 'Login Disabled' },
  invalidAuthEmail: { code: 302, title: 'Invalid E-mail Address' },
  authorizationRequired: { code: 304, title: 'Authorization Required' },
  passwordChangeRequired: { code: 305, title: 'New Password Required' },
  invalidApiKey: { code: 306, title: 'API Key Invalid' },
  invalidAuthToken: { code: 307, title: 'Invalid Token' },
  loginRequired: { code: 410, title: 'Login Required' },
  accountExists: { code: 500, title: 'Account Already Exists' },
  invalidEmail: { code: 501, title: 'Illegal E-mail Address' },
  passwordTooShort: { code: 502, title: 'Password Too Short' },
  passwordTooLong: { code: 503, title: 'Password Too Long' },
  invalidUser: { code: 504, title: 'Invalid User' },
  userAccessDenied: { code: 505, title: 'User Access By Id or User-Matching Denied' },
  attachmentTooLarge: { code: 600, title: 'Attachment Too Large' },
  invalidContentType: { code: 601, title: 'Invalid MIME Type' },
  fileNameRequired: { code: 603, title: 'File Name Not Specified' },
  attachmentSummaryRequired: { code: 604, title: 'Summary Required' },
  emptyAttachment: { code: 606, title: 'Empty Data' },
  productNameRequired: { code: 700, title: 'Product blank name' },
  productNameTooLong: { code: 701, title: 'Product name too long' },
  productExists: { code: 702, title: 'Product name already exists' },
  productDescriptionRequired: { code: 703, title: 'Product must have description' },
  productVersionRequired: { code: 704, title: 'Product must have version' },
  invalidDefaultMilestone: { code: 705, title: 'Product must define a default milestone' },
  groupNameRequired: { code: 800, title: 'Empty Group Name' },
  groupExists: { code: 801, title: 'Group Exists' },
  groupDescriptionRequired: { code: 802, title: 'Group Missing Description' },
  invalidGroupRegexp: { code: 803, title: 'Group Regexp Invalid' },
  invalidGroupName: { code: 804, title: 'Invalid Group Name' },
  groupViewDenied: { code: 805, title: 'Cannot view groups' },
  classificationNotEnabled: { code: 900, title: 'Classification Not Enabled' },
  searchCriteriaRequired: { code: 1000, title: 'Parameters Required' },
  invalidFlagTypeName: { code: 1101, title: 'Flag Type Name Invalid' },
  flagTypeDescriptionRequired: { code: 1102, title: 'Flag Type Description Required' },
  flagTypeCcListTooLong: { code: 1103, title: 'Flag Type CC List Invalid' },
  invalidSortKey: { code: 1104, title: 'Flag Type Sort Key Invalid' },
  componentExists: { code: 1200, title: 'Component Already Exists' },
  lastComponent: { code: 1201, title: 'Component Is Last' },
  componentHasBugs: { code: 1202, title: 'Component Has Bugs' },
  userNotInvolved: { code: 1300, title: 'User Not Involved with Bug' },
  invalidOperator: { code: 68000, title: 'Invalid Search Operator' },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorName = keyof typeof ERROR_CATALOG;

const make = (name: ErrorName) => (message: string) => new TrackerError(ERROR_CATALOG[name].code, message);

/** Every constructor that takes its message, one per entry of the catalogue. */
const byMessage = Object.fromEntries((Object.keys(ERROR_CATALOG) as ErrorName[]).map((name) => [name, make(name)])) as {
  [Name in ErrorName]: (message: string) => TrackerError;
};

export const errors = {
  ...byMessage,
  /** Where one situation owns a code, the constructor says it, the same way everywhere. */
  bugNotFound: (id: number | string) => byMessage.bugNotFound(`Bug #${id} does not exist.`),
  bugAccessDenied: (id: number | string) => byMessage.bugAccessDenied(`You are not authorized to access bug #${id}.`),
  /** Bugzilla's auth_classification_not_enabled (900). */
  classificationsDisabled: () => byMessage.classificationNotEnabled('Sorry, classification is not enabled.'),
  /** Bugzilla's improper_bug_id_field_value without a value (100). */
  bugNumberRequired: () => byMessage.invalidBugReference('You must enter a valid bug number!'),
  invalidBugReference: (text: string) =>
    byMessage.invalidBugReference(`'${text}' is not a valid bug number nor an alias to a bug.`),
  loginRequired: () => byMessage.loginRequired('You must log in before using this part of Tracker.'),
  invalidApiKey: () =>
    byMessage.invalidApiKey('The API key you specified is invalid. Please check that you typed it correctly.'),
  invalidToken: () =>
    byMessage.invalidParameter(
      'The token you specified is invalid or has expired. Please log in again to get a new token.',
    ),
  markdownDisabled: () => byMessage.markdownDisabled('Markdown is disabled on this installation.'),
  searchCriteriaRequired: () => byMessage.searchCriteriaRequired('You must enter at least one search criterion.'),
  summaryRequired: () => byMessage.summaryRequired('You must enter a summary for this bug.'),
  duplicateOfItself: () => byMessage.duplicateOfItself('A bug cannot be marked as a duplicate of itself.'),
  duplicateTargetRequired: () =>
    byMessage.duplicateTargetRequired('To mark a bug as a duplicate, give the bug it duplicates in dupe_of.'),
  emptyAttachment: () => byMessage.emptyAttachment('The attachment data is empty: there is nothing to attach.'),
  invalidOperator: (op: string) => byMessage.invalidOperator(`Invalid operator '${op}' for this field.`),
  // Bugs, comments and attachments:
  relatedBugNotFound: (id: number, field: string) => byMessage.bugNotFound(`Bug #${id} (in ${field}) does not exist.`),
  relatedBugAccessDenied: (id: number, field: string) =>
    byMessage.bugAccessDenied(`You are not authorized to access bug #${id} (in ${field}).`),
  invalidRelatedBugId: (text: string, field: string) =>
    byMessage.invalidBugReference(`'${text}' in ${field} is not a valid bug id.`),
  notFoundInProduct: (kind: string, name: string, product: string) =>
    byMessage.notFound(`There is no ${kind} named '${name}' in the product '${product}'.`),
  privateCommentsDenied: () => byMessage.notInsider('You are not allowed to make comments private.'),
  statusChangeDenied: (from: string, to: string) =>
    byMessage.illegalStatusTransition(`A bug cannot move from ${from} to ${to}.`),
  dependsOnAndBlocks: () =>
    byMessage.dependencyLoop('A bug cannot both depend on and block the same bug: that would be a dependency loop.'),
  regressedByAndRegressions: () =>
    byMessage.invalidParameter('A bug cannot both be regressed by and cause the same bug.'),
  /** Bugzilla's group_restriction_not_allowed (120); bug 0 is a bug not yet filed. */
  bugGroupNotAllowed: (group: string, product: string, bugId = 0) =>
    byMessage.invalidBugGroup(
      `You tried to restrict ${bugId > 0 ? `bug ${bugId}` : 'a bug'} to the '${group}' group, but either this group does not exist, or you are not allowed to restrict bugs to this group in the '${product}' product.`,
    ),
  /** Bugzilla's group_invalid_removal (120); `why` is Tracker's addition. */
  bugGroupRemovalNotAllowed: (group: string, product: string, bugId: number, why: string) =>
    byMessage.invalidBugGroup(
      `You tried to remove bug ${bugId} from the '${group}' group, but either this group does not exist, or you are not allowed to remove bugs from this group in the '${product}' product. ${why}`,
    ),
  invalidDateTime: (text: string, field: string) =>
    byMessage.invalidDate(`'${text}' is not a valid date and time for ${field}.`),
  bugAccessDeniedLoggedOut: (id: number | string) =>
    byMessage.bugAccessDenied(
      `You are not authorized to access bug #${id}. To see this bug, you must first log in to an account with the appropriate permissions.`,
    ),
  duplicateLoop: (bugId: number, dupeOf: number) =>
    byMessage.duplicateOfItself(
      `Marking bug ${bugId} as a duplicate of bug ${dupeOf} would create a loop of duplicates.`,
    ),
  commentNotText: () => byMessage.invalidParameter('The comment must be text.'),
  commentOverLength: (max: number) => byMessage.commentTooLong(`The comment is too long: at most ${max} characters.`),
  commentNotFound: (id: number | string) => byMessage.invalidCommentId(`There is no comment with the id ${id}.`),
  privateComment: (id: number) => byMessage.commentIsPrivate(`Comment ${id} is private.`),
  attachmentNotFound: (id: number) => byMessage.invalidParameter(`There is no attachment with the id ${id}.`),
  privateAttachment: (id: number) =>
    byMessage.authorizationRequired(`Sorry, you are not authorized to access attachment ${id}: it is private.`),
  /** Bugzilla's flag_requestee_unauthorized (no code of its own: 32000). Bug 0 is a bug not yet filed. */
  flagRequesteeUnauthorized: (requestee: string, flag: string, bugId: number, attachmentId?: number) =>
    byMessage.invalidParameter(
      `You asked ${requestee} for '${flag}' on ${bugId > 0 ? `bug ${bugId}` : 'the new bug'}${attachmentId ? `, attachment ${attachmentId}` : ''}, but that bug is restricted to groups ${requestee} is not in, so they cannot see it. Ask someone else, or let them see the bug (for example by adding them to its CC list, if the bug is open to its CC list).`,
    ),
  /** Bugzilla's flag_requestee_unauthorized_attachment (32000). */
  flagRequesteeUnauthorizedAttachment: (requestee: string, flag: string, bugId: number, attachmentId: number) =>
    byMessage.invalidParameter(
      `You asked ${requestee} for '${flag}' on bug ${bugId}, attachment ${attachmentId}, but that attachment is private to the insider group and ${requestee} is not in it. Ask someone else, or ask an administrator to add them to that group.`,
    ),
  /** Bugzilla's flag_requestee_disabled (32000): a disabled account cannot answer the request. */
  flagRequesteeDisabled: (requestee: string, flag: string) =>
    byMessage.invalidParameter(
      `You can't ask ${requestee} for '${flag}' because that account is disabled. Ask someone else.`,
    ),
  /** Bugzilla's flag_requestee_needs_privs (32000): the requestee could not grant or deny the flag. */
  flagRequesteeNeedsPrivileges: (requestee: string, flag: string, grantGroup: string) =>
    byMessage.invalidParameter(
      `${requestee} does not have permission to set the '${flag}' flag. Ask someone who is a member of the group '${grantGroup}'.`,
    ),
  /** An answer over Lambda's 6 MB (shared/http/lambdaResponse.ts): Bugzilla has no such limit, so no code of its own (32000). */
  responseTooLarge: (kilobytes: number, compressed: boolean) =>
    byMessage.invalidParameter(
      `This answer holds ${kilobytes} KB of JSON, more than one response can carry${compressed ? ' even compressed' : ''} (Tracker answers at most 6 MB). Ask for fewer bugs with limit and offset, or for fewer fields with include_fields${compressed ? '' : ', or accept gzip (Accept-Encoding: gzip), which carries about eight times as much'}.`,
    ),
  /**
   * A stored item that does not have the shape Tracker writes (storage/itemParsing.ts). Not the
   * caller's doing, but the house answers no 500: 32000 with the item named, and a log line.
   */
  unreadableItem: (kind: string, key: string) =>
    byMessage.invalidParameter(
      `Tracker cannot read the stored ${kind} ${key}: it does not have the shape Tracker writes. Nothing was changed; please report this to the administrator.`,
    ),
  // Search:
  notWholeNumber: (name: string) => byMessage.invalidParameter(`${name} must be a whole number of zero or more.`),
  unusableSearchField: (field: string) => byMessage.invalidFieldName(`Can't use ${field} as a field name.`),
  /** The search parser's word for an operator it does not know at all (invalidOperator: one the field refuses). */
  unknownSearchOperator: (op: string) => byMessage.invalidOperator(`Invalid operator '${op}'.`),
  /** possible_duplicates' `id`, which takes a number only (invalidBugReference also allows an alias). */
  invalidBugNumber: (text: string) => byMessage.invalidBugReference(`'${text}' is not a valid bug number.`),
  // Saved searches: Bugzilla's user errors, none with a code of its own (32000) but
  // buglist_parameters_required (1000). One message for a search that does not exist and one
  // that is not shared with the caller, when another person's is asked for: none says which.
  savedSearchNotFound: (name: string, ofAnotherPerson: boolean) =>
    byMessage.invalidParameter(
      ofAnotherPerson
        ? `The search named ${name} has not been made visible to you.`
        : `The search named ${name} does not exist.`,
    ),
  savedSearchNameRequired: () => byMessage.invalidParameter('You must enter a name for your search.'),
  illegalSavedSearchName: () =>
    byMessage.invalidParameter('The name of your search cannot contain any of the following characters: <, >, &.'),
  savedSearchNameTooLong: () =>
    byMessage.invalidParameter('The name of the query must be less than 64 characters long.'),
  savedSearchCriteriaRequired: () =>
    byMessage.searchCriteriaRequired('You may not search, or create saved searches, without any search terms.'),
  savedSearchShareGroupDenied: (group: string) =>
    byMessage.invalidParameter(`You can share a saved search only with a group you are in, and not with ${group}.`),
  // Catalogue (products, components, fields, keywords, flag types, classifications):
  notFoundByName: (kind: string, name: string) => byMessage.notFound(`There is no ${kind} named '${name}'.`),
  notFoundByNameOrNumber: (kind: string, reference: string | number) =>
    byMessage.notFound(`There is no ${kind} named or numbered '${reference}'.`),
  notFoundById: (kind: string, id: string | number) => byMessage.notFound(`There is no ${kind} with the id ${id}.`),
  notFoundByIdOrName: (kind: string, reference: string | number) =>
    byMessage.notFound(`There is no ${kind} with the id or name '${reference}'.`),
  idsOrNamesRequired: () =>
    byMessage.missingParameter('The function requires that you set one of the following parameters: ids, names'),
  nameRequired: (kind: string) => byMessage.invalidParameter(`You must enter a name for the ${kind}.`),
  nameTooLong: (kind: string, max: number) =>
    byMessage.invalidParameter(`The name of a ${kind} is limited to ${max} characters.`),
  nameTaken: (kind: string, name: string) => byMessage.invalidParameter(`A ${kind} named ${name} already exists.`),
  productExists: (name: string) => byMessage.productExists(`A product named ${name} already exists.`),
  componentNameTaken: (product: string, name: string) =>
    byMessage.componentExists(`The ${product} product already has a component named ${name}.`),
  productValueTaken: (kind: string, name: string, product: string) =>
    byMessage.invalidParameter(`The ${kind} '${name}' already exists for ${product}.`),
  /** Tracker's own wording, for a product named in a path or an `ids`/`names` list. */
  productNotFound: (reference: string | number) =>
    byMessage.invalidProduct(`Product '${reference}' does not exist or you don't have access to it.`),
  /** Bugzilla's wording (product_access_denied), for a product named inside a value. */
  productAccessDenied: (name: string | number) =>
    byMessage.invalidProduct(`Either the product '${name}' does not exist or you don't have access to it.`),
  onlyGroupMembersMay: (action: string, group: string) =>
    byMessage.authorizationRequired(
      `Sorry, you are not authorized to ${action}: only members of the ${group} group may.`,
    ),
  onlyDropDownsHaveValueField: () => byMessage.invalidParameter('Only drop-down fields can have a value_field.'),
  onlyDropDownsHaveValues: () => byMessage.invalidParameter('Only drop-down fields (types 2 and 3) have legal values.'),
  // Identity (users, groups, sessions, API keys) and the instance:
  /** One answer for a wrong password, an unknown login and a locked account, so none reveals a login. */
  invalidLogin: () =>
    byMessage.invalidLogin(
      'The username or password you entered is not valid. After too many failed attempts from one address an account accepts no password from there for 30 minutes; an API key still works.',
    ),
  /** Changing one's own password (PUT /rest/preferences/account): 300 too, counted like a failed login. */
  wrongCurrentPassword: () =>
    byMessage.invalidLogin(
      'The current password you entered is not correct. After too many failed attempts from one address your account accepts no password from there for 30 minutes.',
    ),
  accountDisabled: (reason: string) =>
    byMessage.accountDisabled(`Your account has been disabled by an administrator.${reason ? ` ${reason}` : ''}`),
  passwordChangeRequired: () =>
    byMessage.passwordChangeRequired(
      'Your password is correct, but you must change it before you can log in. Ask an administrator to set a new one.',
    ),
  accountExists: (login: string) =>
    byMessage.accountExists(`There is already an account with the login name ${login}.`),
  groupExists: (name: string) => byMessage.groupExists(`The group ${name} already exists.`),
  argumentNotSet: (parameter: string) =>
    byMessage.missingParameter(`The function requires a ${parameter} argument, and that argument was not set.`),
  // Single sign-on (shared/domain/identity/singleSignOn.ts), with Bugzilla's codes for the same failures:
  signInNotConfigured: () =>
    byMessage.invalidParameter(
      'Single sign-on is not set up on this installation: log in with a password or an API key.',
    ),
  /** Bugzilla's auth_invalid_token (307): one answer for an unknown, expired, finished or foreign sign-in. */
  signInStateInvalid: () =>
    byMessage.invalidAuthToken(
      'This sign-in is not valid: it expired, was already used, or was started in another browser. Start it again from the login form.',
    ),
  signInRefused: (why: string) =>
    byMessage.invalidAuthToken(
      `The identity provider's answer could not be accepted (${why}). Start the sign-in again.`,
    ),
  signInIssuerUnreachable: () =>
    byMessage.invalidParameter('The identity provider could not be reached. Try again in a moment.'),
  /** Bugzilla's auth_invalid_email (302). */
  signInWithoutEmail: () =>
    byMessage.invalidAuthEmail('The identity provider did not give an e-mail address, so no account can be matched.'),
  signInEmailUnverified: (email: string) =>
    byMessage.invalidAuthEmail(
      `The identity provider has not verified the e-mail address ${email}, so it cannot sign you in to the account with that address. Verify it there first, or log in with a password.`,
    ),
  /** Bugzilla's account_creation_restricted (501). */
  signInAccountCreationRestricted: (email: string) =>
    byMessage.invalidEmail(
      `There is no account for ${email}, and this installation does not create accounts for that address. Ask an administrator for one.`,
    ),
};
