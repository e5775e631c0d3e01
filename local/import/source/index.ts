/**
 * The source side of the importer (issue 17): everything it reads from a live Bugzilla 5.0 or
 * 5.2, Harmony/BMO or Tracker, through the REST API only, as plain records (sourceRecords.ts).
 * A writer uses it in this order:
 *
 *   const client = createBugzillaClient({ baseUrl, apiKey, connections });
 *   const probe = await probeSource(client);            // kind, account, rights, what will be missing
 *   const source = createBugzillaClient({ baseUrl, apiKey, connections, keyTransport: probe.keyTransport });
 *   const fields = await readFields(source);            // legal values, workflowOf(fields), custom fields
 *   const products = await readProducts(source);        // components, versions, milestones
 *   readClassifications(source, fields); readKeywords(source, fields);
 *   readFlagTypes(source, products); readGroups(source);
 *   for await (const batch of readUsers(source)) ...    // users by id, open-ended
 *   const last = await highestBugId(source);
 *   for await (const bundle of readBugBundles(source, { from: 1, to: last })) ...
 *
 * Errors: SourceProbeError (the source is unusable, with a sentence for the operator),
 * BugzillaApiError (the source said no: final), SourceRequestError (network, timeout, HTTP,
 * not JSON: after the client's retries).
 */
export {
  type BugzillaClient,
  type BugzillaClientOptions,
  type ClientStats,
  createBugzillaClient,
  type KeyTransport,
  type Query,
  type RetryEvent,
} from './bugzillaClient.ts';
export { recoverComment } from './commentKinds.ts';
export type { IdRange } from './concurrency.ts';
export { type ReadAttachmentsOptions, readAttachments } from './readers/attachments.ts';
export { type BugBundle, type ReadBugBundlesOptions, readBugBundles, readBundle } from './readers/bugBundles.ts';
export {
  type BugBatch,
  changedBugIds,
  highestBugId,
  probeUnlistedIds,
  type ReadBugsOptions,
  readBugIds,
  readBugs,
  readBugsSplitting,
  taggedBugIds,
  visibleBugIds,
} from './readers/bugs.ts';
export { readClassifications } from './readers/classifications.ts';
export { readComments } from './readers/comments.ts';
export { legalValuesOf, readFields, type StatusRecord, type WorkflowRecord, workflowOf } from './readers/fields.ts';
export { readFlagTypes } from './readers/flagTypes.ts';
export { readGroups } from './readers/groups.ts';
export { readHistory } from './readers/history.ts';
export { readKeywords } from './readers/keywords.ts';
export { readProducts } from './readers/products.ts';
export { type ReadUsersOptions, readUsers, type UserBatch } from './readers/users.ts';
export {
  BugzillaApiError,
  ImportStopped,
  SourceDataError,
  SourceProbeError,
  type SourceProbeFailure,
  SourceRequestError,
  type SourceRequestFailure,
} from './sourceErrors.ts';
export {
  probeSource,
  type SourceAccount,
  type SourceCapabilities,
  type SourceKind,
  type SourceProbe,
} from './sourceProbe.ts';
export * from './sourceRecords.ts';
