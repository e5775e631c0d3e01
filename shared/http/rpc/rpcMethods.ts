import { CREDENTIAL_PARAMS } from '../../domain/identity/authentication.ts';
import { errors } from '../../errors.ts';
import type { HttpMethod } from '../../routes.ts';

/**
 * Bugzilla 5.2's WebService methods by their RPC name, each with the REST route of
 * shared/routes.ts that serves it: an RPC call is that REST request, made in-process
 * (rpcDispatcher.ts), so both protocols answer from one implementation.
 *
 * The route of each method is the one Bugzilla 5.2 itself gives it in
 * Bugzilla/WebService/Server/REST/Resources/*.pm (where 5.2 has one: see `routes` below for the
 * few it has not), its parameters those of Bugzilla/WebService/*.pm, which become the route's
 * path variables (`path`), and its query string (GET) or JSON body (POST, PUT) otherwise.
 * `readOnly` is the class's READ_ONLY list, the methods JSON-RPC lets a GET call.
 *
 * Where 5.2's REST updates one object by path (`PUT /bug/{id}`, `/user/{id}`, ...), the method
 * goes to Tracker's route without a path variable (`PUT /rest/bug`), which takes the method's
 * `ids` and `names` as they come.
 */

/** A row of shared/routes.ts as `METHOD path`. */
export type RouteKey = `${HttpMethod} /rest/${string}`;

export interface RouteChoice {
  route: RouteKey;
  /**
   * Each path variable and the parameter that fills it, as Bugzilla's REST resource reads it back
   * (`/bug/{id}` is `ids => [$id]`): a list gives its first value and keeps the rest, which the
   * route's handler merges with the path's; a single value moves into the path.
   */
  path?: Readonly<Record<string, string>>;
}

export type RpcParams = Record<string, unknown>;

export interface RpcMethod {
  /** The routes that serve it: the first whose path variables the call can fill. */
  routes: readonly [RouteChoice, ...RouteChoice[]];
  /** In the class's READ_ONLY list: JSON-RPC may call it by GET (`json_rpc_post_only` otherwise). */
  readOnly: boolean;
  /** Parameters the method requires (Bugzilla's param_required) where its route would not say so itself. */
  required?: readonly string[];
  /** 5.2's parameter name -> the REST route's, where they differ. */
  renamed?: Readonly<Record<string, string>>;
  /** The REST route's parameters, where they are not the method's. */
  request?: (params: RpcParams, method: string) => RpcParams;
  /** The method's result, where it is not the REST answer itself. */
  result?: (answer: unknown) => unknown;
  /**
   * A read of several bugs by id (Bugzilla 5.2's Bug.get, comments, attachments, history): the
   * parameters that list ids, and what the method answers when they are given but all empty (5.2
   * reads no bug and answers empty). A null among them is 100, as 5.2's Bug->check says.
   */
  idLists?: { parameters: readonly string[]; whenEmpty: () => unknown };
}

/**
 * REST wraps a result that is not an object or a list (WebService/Server/REST.pm:
 * `$result = {result => $result}`); RPC returns it bare, as 5.2's User.valid_login and User.logout do.
 */
const unwrapScalar = (answer: unknown): unknown =>
  answer !== null && typeof answer === 'object' && 'result' in answer ? (answer as { result: unknown }).result : answer;

const get = (route: RouteKey, path?: Record<string, string>): RouteChoice => ({ route, path });

/**
 * Bug.update_see_also (5.2 has no REST route for it) is Bug.update of `see_also` alone, which
 * is what 5.2's method does (add_see_also / remove_see_also on each bug, then update), answered
 * as that method answers: `{changes: {<bug id>: {see_also: {added: [...], removed: [...]}}}}`,
 * with an entry for a bug that did not change too ("for API consistency").
 */
function seeAlsoUpdate(params: RpcParams, method: string): RpcParams {
  if (params.add === undefined && params.remove === undefined)
    throw errors.missingParameter(
      `The function ${method} requires that you set one of the following parameters: add, remove`,
    );
  const credentials = Object.fromEntries(Object.entries(params).filter(([name]) => CREDENTIAL_PARAMS.includes(name)));
  const seeAlso = Object.fromEntries(
    Object.entries({ add: params.add, remove: params.remove }).filter(([, value]) => value !== undefined),
  );
  return { ...credentials, ids: params.ids, see_also: seeAlso };
}

const urlsOf = (list: unknown): string[] => (typeof list === 'string' && list !== '' ? list.split(', ') : []);

function seeAlsoChanges(answer: unknown): unknown {
  const bugs = (
    answer as { bugs?: Array<{ id: number; changes?: Record<string, { added?: string; removed?: string }> }> }
  ).bugs;
  const changes: Record<string, unknown> = {};
  for (const bug of bugs ?? []) {
    const seeAlso = bug.changes?.see_also;
    changes[String(bug.id)] = { see_also: { added: urlsOf(seeAlso?.added), removed: urlsOf(seeAlso?.removed) } };
  }
  return { changes };
}

export const RPC_METHODS: Readonly<Record<string, RpcMethod>> = {
  // Bugzilla/WebService/Bugzilla.pm; READ_ONLY: extensions parameters timezone time version.
  'Bugzilla.version': { routes: [get('GET /rest/version')], readOnly: true },
  'Bugzilla.extensions': { routes: [get('GET /rest/extensions')], readOnly: true },
  'Bugzilla.timezone': { routes: [get('GET /rest/timezone')], readOnly: true },
  'Bugzilla.time': { routes: [get('GET /rest/time')], readOnly: true },
  'Bugzilla.parameters': { routes: [get('GET /rest/parameters')], readOnly: true },
  'Bugzilla.last_audit_time': { routes: [get('GET /rest/last_audit_time')], readOnly: false },

  // Bugzilla/WebService/Bug.pm; READ_ONLY: attachments comments fields get history legal_values search.
  'Bug.fields': { routes: [get('GET /rest/field/bug')], readOnly: true },
  'Bug.legal_values': {
    routes: [
      get('GET /rest/field/bug/{id_or_name}/{product_id}/values', { id_or_name: 'field', product_id: 'product_id' }),
      get('GET /rest/field/bug/{id_or_name}/values', { id_or_name: 'field' }),
    ],
    readOnly: true,
  },
  'Bug.get': {
    routes: [get('GET /rest/bug/{id_or_alias}', { id_or_alias: 'ids' })],
    readOnly: true,
    idLists: { parameters: ['ids'], whenEmpty: () => ({ bugs: [], faults: [] }) },
  },
  'Bug.history': {
    routes: [get('GET /rest/bug/{id_or_alias}/history', { id_or_alias: 'ids' })],
    readOnly: true,
    idLists: { parameters: ['ids'], whenEmpty: () => ({ bugs: [] }) },
  },
  'Bug.comments': {
    routes: [
      get('GET /rest/bug/{id_or_alias}/comment', { id_or_alias: 'ids' }),
      get('GET /rest/bug/comment/{comment_id}', { comment_id: 'comment_ids' }),
    ],
    readOnly: true,
    idLists: { parameters: ['ids', 'comment_ids'], whenEmpty: () => ({ bugs: {}, comments: {} }) },
  },
  'Bug.search': { routes: [get('GET /rest/bug')], readOnly: true },
  // 5.2's REST has no route for it; Tracker's (Harmony's) takes `product` where 5.2's method takes `products`.
  'Bug.possible_duplicates': {
    routes: [get('GET /rest/bug/possible_duplicates')],
    readOnly: false,
    renamed: { products: 'product' },
  },
  'Bug.create': { routes: [get('POST /rest/bug')], readOnly: false },
  'Bug.update': { routes: [get('PUT /rest/bug')], readOnly: false },
  'Bug.add_comment': {
    routes: [get('POST /rest/bug/{id_or_alias}/comment', { id_or_alias: 'id' })],
    readOnly: false,
  },
  'Bug.attachments': {
    routes: [
      get('GET /rest/bug/{id_or_alias}/attachment', { id_or_alias: 'ids' }),
      get('GET /rest/bug/attachment/{attachment_id}', { attachment_id: 'attachment_ids' }),
    ],
    readOnly: true,
    idLists: { parameters: ['ids', 'attachment_ids'], whenEmpty: () => ({ bugs: {}, attachments: {} }) },
  },
  // The path's bug would replace the `ids` (the REST route's rule); the method attaches to every one of them.
  'Bug.add_attachment': {
    routes: [get('POST /rest/bug/{id_or_alias}/attachment')],
    readOnly: false,
    required: ['ids'],
  },
  'Bug.update_attachment': {
    routes: [get('PUT /rest/bug/attachment/{attachment_id}', { attachment_id: 'ids' })],
    readOnly: false,
  },
  // 5.2's REST has no route for render_comment and update_tags; Tracker's are Harmony's.
  'Bug.render_comment': { routes: [get('POST /rest/bug/comment/render')], readOnly: false },
  'Bug.search_comment_tags': {
    routes: [get('GET /rest/bug/comment/tags/{query}', { query: 'query' })],
    readOnly: false,
  },
  'Bug.update_comment_tags': {
    routes: [get('PUT /rest/bug/comment/{comment_id}/tags', { comment_id: 'comment_id' })],
    readOnly: false,
  },
  'Bug.update_tags': {
    routes: [get('PUT /rest/bug/{id_or_alias}/tags', { id_or_alias: 'ids' })],
    readOnly: false,
  },
  'Bug.update_see_also': {
    routes: [get('PUT /rest/bug')],
    readOnly: false,
    required: ['ids'],
    request: seeAlsoUpdate,
    result: seeAlsoChanges,
  },

  // Bugzilla/WebService/User.pm; READ_ONLY: get.
  'User.login': { routes: [get('GET /rest/login')], readOnly: false },
  'User.logout': { routes: [get('GET /rest/logout')], readOnly: false, result: unwrapScalar },
  'User.valid_login': { routes: [get('GET /rest/valid_login')], readOnly: false, result: unwrapScalar },
  'User.get': { routes: [get('GET /rest/user')], readOnly: true },
  'User.create': { routes: [get('POST /rest/user')], readOnly: false },
  'User.update': { routes: [get('PUT /rest/user')], readOnly: false },
  // 5.2 answers undef (XML-RPC `<value/>`, JSON-RPC null).
  'User.offer_account_by_email': {
    routes: [get('POST /rest/account/offer_account_by_email')],
    readOnly: false,
    result: () => null,
  },

  // Bugzilla/WebService/Product.pm; READ_ONLY: get and the three get_*_products.
  'Product.get': { routes: [get('GET /rest/product')], readOnly: true },
  'Product.get_selectable_products': { routes: [get('GET /rest/product_selectable')], readOnly: true },
  'Product.get_enterable_products': { routes: [get('GET /rest/product_enterable')], readOnly: true },
  'Product.get_accessible_products': { routes: [get('GET /rest/product_accessible')], readOnly: true },
  'Product.create': { routes: [get('POST /rest/product')], readOnly: false },
  'Product.update': { routes: [get('PUT /rest/product')], readOnly: false },

  // Bugzilla/WebService/Component.pm: 5.2's only public method.
  'Component.create': { routes: [get('POST /rest/component')], readOnly: false },

  // Bugzilla/WebService/Group.pm; READ_ONLY: get.
  'Group.create': { routes: [get('POST /rest/group')], readOnly: false },
  'Group.get': { routes: [get('GET /rest/group')], readOnly: true },
  'Group.update': { routes: [get('PUT /rest/group')], readOnly: false },

  // Bugzilla/WebService/FlagType.pm; no READ_ONLY list.
  'FlagType.create': { routes: [get('POST /rest/flag_type')], readOnly: false },
  'FlagType.get': {
    routes: [
      get('GET /rest/flag_type/{id_or_name}/{component}', { id_or_name: 'product', component: 'component' }),
      get('GET /rest/flag_type/{id_or_name}', { id_or_name: 'product' }),
    ],
    readOnly: false,
  },
  // The handler merges `ids` and `names` itself; a name in the path would be read as an id if all digits.
  'FlagType.update': { routes: [get('PUT /rest/flag_type/{id_or_name}')], readOnly: false },

  // Bugzilla/WebService/Classification.pm; READ_ONLY: get.
  'Classification.get': {
    routes: [
      get('GET /rest/classification/{id_or_name}', { id_or_name: 'ids' }),
      get('GET /rest/classification/{id_or_name}', { id_or_name: 'names' }),
    ],
    readOnly: true,
  },

  // Bugzilla/WebService/BugUserLastVisit.pm; no READ_ONLY list.
  'BugUserLastVisit.get': { routes: [get('GET /rest/bug_user_last_visit')], readOnly: false },
  'BugUserLastVisit.update': { routes: [get('POST /rest/bug_user_last_visit')], readOnly: false, required: ['ids'] },
};

/**
 * Public methods of 5.2 that no route here serves (none since User.offer_account_by_email came).
 * They would be Bugzilla's: a call is `unknown_method`, where a name 5.2 never had is JSON::RPC's
 * "No such a method".
 */
export const UNSERVED_BUGZILLA_METHODS: readonly string[] = [];

export function rpcMethod(name: string): RpcMethod | undefined {
  return Object.hasOwn(RPC_METHODS, name) ? RPC_METHODS[name] : undefined;
}

/** Whether Bugzilla 5.2 has a public method of this name, served here or not. */
export const isBugzillaMethod = (name: string): boolean =>
  rpcMethod(name) !== undefined || UNSERVED_BUGZILLA_METHODS.includes(name);
