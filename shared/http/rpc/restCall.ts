import { checkTextCharacters } from '../../domain/inputLimits.ts';
import { errors } from '../../errors.ts';
import { type RouteDefinition, routes } from '../../routes.ts';
import type { RouteChoice, RouteKey, RpcMethod, RpcParams } from './rpcMethods.ts';

/**
 * The REST request an RPC call is: the route of its method, the path variables filled from its
 * parameters, and the other parameters as the route takes them, in the query string (GET) or
 * as a JSON body (POST, PUT). Credentials stay among the parameters (`Bugzilla_api_key`,
 * `Bugzilla_login`/`Bugzilla_password`, `Bugzilla_token`, and Bugzilla's `api_key`, `token`,
 * `login`/`password` conveniences): the REST API reads those very names there, in the same order
 * of precedence, so a call authenticates exactly as the same parameters would over REST.
 */
export interface RestCall {
  route: RouteDefinition;
  pathParameters: Record<string, string>;
  rawPath: string;
  rawQueryString: string;
  /** POST and PUT: the parameters as JSON. */
  body?: string;
}

const routeByKey = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));

export function routeOf(key: RouteKey): RouteDefinition {
  const route = routeByKey.get(key);
  if (!route) throw new Error(`No route '${key}' in shared/routes.ts`);
  return route;
}

const present = (value: unknown) => value !== undefined && value !== null;

/** What a path variable can be made of: the value itself, or a list's first value. */
function pathValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number' && Number.isFinite(first)) return String(first);
  return typeof first === 'string' && first !== '' ? first : undefined;
}

const missingFrom = (choice: RouteChoice, params: RpcParams) =>
  Object.values(choice.path ?? {}).filter((source) => pathValue(params[source]) === undefined);

/** Bugzilla's param_required / params_required, naming the method. */
function missing(method: string, names: string[]): Error {
  return errors.missingParameter(
    names.length === 1
      ? `The function ${method} requires a ${names[0]} argument, and that argument was not set.`
      : `The function ${method} requires that you set one of the following parameters: ${names.join(', ')}`,
  );
}

/** The first route whose path variables the call fills; else what it lacks, as Bugzilla says it. */
function chooseRoute(name: string, method: RpcMethod, params: RpcParams): RouteChoice {
  const lacking = method.routes.map((choice) => missingFrom(choice, params));
  const fitting = lacking.findIndex((names) => names.length === 0);
  if (fitting >= 0) return method.routes[fitting]!;
  const everywhere = lacking[0]!.filter((source) => lacking.every((names) => names.includes(source)));
  throw missing(name, everywhere.length > 0 ? everywhere : [...new Set(lacking.flat())]);
}

/** A list gives the path its first value and keeps the rest; a single value moves into the path. */
function takePathValue(params: RpcParams, source: string): string {
  const value = params[source];
  const taken = pathValue(value)!;
  // A path is percent-encoded UTF-8: an unpaired surrogate has no encoding (URIError), so it is
  // refused here with the error the same value gets anywhere else in a request.
  checkTextCharacters(Array.isArray(value) ? `${source}.0` : source, taken);
  const rest = Array.isArray(value) ? value.slice(1) : [];
  if (rest.length > 0) params[source] = rest;
  else delete params[source];
  return taken;
}

function queryValue(method: string, name: string, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    // URLSearchParams would silently turn an unpaired surrogate into U+FFFD: another value.
    checkTextCharacters(name, value);
    return value;
  }
  throw errors.invalidParameter(
    `The parameter '${name}' of ${method} takes a value or a list of values: the REST route it calls reads it from a query string.`,
  );
}

/** The query string a GET route reads: lists as repeated keys, booleans as 1 and 0. */
function queryStringOf(method: string, params: RpcParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = queryValue(method, name, item);
      if (text !== undefined) query.append(name, text);
    }
  }
  return query.toString();
}

/**
 * A multi-id read whose id lists are all given empty answers at once, as 5.2 does (no route reads
 * no bug); a null id is 5.2's improper_bug_id_field_value (100). Undefined when the call goes on.
 */
function answerWithoutIds(method: RpcMethod, params: RpcParams): { answer: unknown } | undefined {
  if (!method.idLists) return undefined;
  const lists = method.idLists.parameters.filter((name) => params[name] !== undefined);
  for (const name of lists) {
    const values = Array.isArray(params[name]) ? (params[name] as unknown[]) : [params[name]];
    if (name === 'ids' && values.some((value) => value === null)) throw errors.bugNumberRequired();
  }
  const empty = (name: string) => Array.isArray(params[name]) && (params[name] as unknown[]).length === 0;
  return lists.length > 0 && lists.every(empty) ? { answer: method.idLists.whenEmpty() } : undefined;
}

export function restCallFor(name: string, method: RpcMethod, callParams: RpcParams): RestCall | { answer: unknown } {
  let params: RpcParams = { ...callParams };
  for (const [from, to] of Object.entries(method.renamed ?? {})) {
    if (from in params && !(to in params)) params[to] = params[from];
    delete params[from];
  }
  const withoutIds = answerWithoutIds(method, params);
  if (withoutIds) return withoutIds;
  const absent = (method.required ?? []).filter((parameter) => !present(params[parameter]));
  if (absent.length > 0) throw missing(name, absent);
  if (method.request) params = method.request(params, name);

  const choice = chooseRoute(name, method, params);
  const route = routeOf(choice.route);
  const pathParameters: Record<string, string> = {};
  for (const [variable, source] of Object.entries(choice.path ?? {}))
    pathParameters[variable] = takePathValue(params, source);
  const rawPath = route.path.replace(/\{(\w+)\}/g, (_, variable: string) =>
    encodeURIComponent(pathParameters[variable] ?? ''),
  );
  if (route.method === 'GET' || route.method === 'DELETE')
    return { route, pathParameters, rawPath, rawQueryString: queryStringOf(name, params) };
  return { route, pathParameters, rawPath, rawQueryString: '', body: JSON.stringify(params) };
}
