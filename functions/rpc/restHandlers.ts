import type { LambdaHandler } from '../../shared/http/endpointChain.ts';

/**
 * The REST handler modules the RPC methods run (shared/http/rpc/rpcMethods.ts), each imported by
 * a literal path so that esbuild bundles it into the RPC function. The imports are dynamic: the
 * bundle holds every module, and a call evaluates only the one its method needs (and only once),
 * which keeps the function's start as short as a single route's. A unit test checks that this
 * list and the method table name the same modules.
 */
export const REST_HANDLER_MODULES: Readonly<Record<string, () => Promise<{ handler: LambdaHandler }>>> = {
  'instance/version': () => import('../instance/version.ts'),
  'instance/extensions': () => import('../instance/extensions.ts'),
  'instance/timezone': () => import('../instance/timezone.ts'),
  'instance/time': () => import('../instance/time.ts'),
  'instance/getParameters': () => import('../instance/getParameters.ts'),
  'instance/lastAuditTime': () => import('../instance/lastAuditTime.ts'),
  'field/getFields': () => import('../field/getFields.ts'),
  'field/legalValues': () => import('../field/legalValues.ts'),
  'bug/getBug': () => import('../bug/getBug.ts'),
  'bug/bugHistory': () => import('../bug/bugHistory.ts'),
  'bug/searchBugs': () => import('../bug/searchBugs.ts'),
  'bug/possibleDuplicates': () => import('../bug/possibleDuplicates.ts'),
  'bug/createBug': () => import('../bug/createBug.ts'),
  'bug/updateBug': () => import('../bug/updateBug.ts'),
  'bug/updateTags': () => import('../bug/updateTags.ts'),
  'bug/getLastVisits': () => import('../bug/getLastVisits.ts'),
  'bug/recordLastVisit': () => import('../bug/recordLastVisit.ts'),
  'comment/getComments': () => import('../comment/getComments.ts'),
  'comment/addComment': () => import('../comment/addComment.ts'),
  'comment/renderComment': () => import('../comment/renderComment.ts'),
  'comment/searchCommentTags': () => import('../comment/searchCommentTags.ts'),
  'comment/updateCommentTags': () => import('../comment/updateCommentTags.ts'),
  'attachment/getAttachments': () => import('../attachment/getAttachments.ts'),
  'attachment/createAttachment': () => import('../attachment/createAttachment.ts'),
  'attachment/updateAttachment': () => import('../attachment/updateAttachment.ts'),
  'user/login': () => import('../user/login.ts'),
  'user/logout': () => import('../user/logout.ts'),
  'user/validLogin': () => import('../user/validLogin.ts'),
  'user/getUsers': () => import('../user/getUsers.ts'),
  'user/createUser': () => import('../user/createUser.ts'),
  'account/offerAccountByEmail': () => import('../account/offerAccountByEmail.ts'),
  'user/updateUser': () => import('../user/updateUser.ts'),
  'product/getProducts': () => import('../product/getProducts.ts'),
  'product/selectableProducts': () => import('../product/selectableProducts.ts'),
  'product/enterableProducts': () => import('../product/enterableProducts.ts'),
  'product/accessibleProducts': () => import('../product/accessibleProducts.ts'),
  'product/createProduct': () => import('../product/createProduct.ts'),
  'product/updateProduct': () => import('../product/updateProduct.ts'),
  'component/createComponent': () => import('../component/createComponent.ts'),
  'group/createGroup': () => import('../group/createGroup.ts'),
  'group/getGroups': () => import('../group/getGroups.ts'),
  'group/updateGroup': () => import('../group/updateGroup.ts'),
  'flagType/createFlagType': () => import('../flagType/createFlagType.ts'),
  'flagType/getFlagTypes': () => import('../flagType/getFlagTypes.ts'),
  'flagType/updateFlagType': () => import('../flagType/updateFlagType.ts'),
  'classification/getClassification': () => import('../classification/getClassification.ts'),
};

export async function restHandler(module: string): Promise<LambdaHandler> {
  const load = Object.hasOwn(REST_HANDLER_MODULES, module) ? REST_HANDLER_MODULES[module] : undefined;
  if (!load) throw new Error(`functions/rpc/restHandlers.ts does not list the handler module '${module}'`);
  return (await load()).handler;
}
