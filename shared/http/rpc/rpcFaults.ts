import { logger } from '../../observability/logger.ts';
import { GENERIC_USER_ERROR, INTERNAL_ERROR, TrackerError } from '../../trackerError.ts';
import { sourceMappedStack } from '../sourceMappedStack.ts';
import { RpcFault } from './rpcCall.ts';
import { shown } from './xmlRpcFaults.ts';

/**
 * The faults of the RPC protocols themselves, with Bugzilla 5.2's codes and the wording of its
 * error templates (global/user-error.html.tmpl, global/code-error.html.tmpl, as its `txt` filter
 * gives them to WebService clients: tags dropped, spaces collapsed). The application's own errors
 * keep the code and message their REST route answers (shared/errors.ts).
 *
 * Codes from WebService/Constants.pm's WS_ERROR_CODE: `unknown_method` -32601 and the
 * `json_rpc_*` / `xmlrpc_*` 3261x family. JSON::RPC (the library behind jsonrpc.cgi) numbers its
 * own errors below 1000, and Bugzilla's JSONRPC.pm `_error` moves them up by 100000: a body that
 * is not JSON is 100201, a call without a method 100300, a method name with other characters
 * 100301, a method Bugzilla does not have 100302, JSON-RPC 1.0 params that are not a list 100400.
 */
export const RPC_FAULT_CODE = {
  unknownMethod: -32601,
  postOnly: 32610,
  invalidCallback: 32611,
  xmlRpcContentType: 32612,
  jsonRpcContentType: 32613,
  jsonNotParsed: 100_201,
  noMethod: 100_300,
  invalidMethodName: 100_301,
  noSuchMethod: 100_302,
  invalidJsonRpc10Params: 100_400,
} as const;

export const rpcFaults = {
  /** Bugzilla's `unknown_method` (a method it has, or Tracker serves, that cannot be called this way). */
  unknownMethod: (method: string) =>
    new RpcFault(RPC_FAULT_CODE.unknownMethod, `The requested method '${method}' was not found.`),
  /** JSON::RPC's answer to a name no Bugzilla class has (which a POST body may make megabytes long). */
  noSuchMethod: (method: string) => new RpcFault(RPC_FAULT_CODE.noSuchMethod, `No such a method : '${shown(method)}'.`),
  noMethod: () => new RpcFault(RPC_FAULT_CODE.noMethod, 'method is nothing.'),
  invalidMethodName: () => new RpcFault(RPC_FAULT_CODE.invalidMethodName, 'method is invalid.'),
  jsonNotParsed: () => new RpcFault(RPC_FAULT_CODE.jsonNotParsed, "Can't parse JSON data."),
  invalidJsonRpc10Params: () => new RpcFault(RPC_FAULT_CODE.invalidJsonRpc10Params, 'Invalid params for JSONRPC 1.0.'),
  postOnly: (method: string) =>
    new RpcFault(
      RPC_FAULT_CODE.postOnly,
      `For security reasons, you must use HTTP POST to call the '${method}' method.`,
    ),
  invalidCallback: (callback: string) =>
    new RpcFault(
      RPC_FAULT_CODE.invalidCallback,
      `You cannot use '${callback}' as your 'callback' parameter. For security reasons, only letters, numbers, and the following characters are allowed in the 'callback' parameter: []._`,
    ),
  illegalXmlRpcContentType: (contentType: string) =>
    new RpcFault(
      RPC_FAULT_CODE.xmlRpcContentType,
      `When using XML-RPC, you cannot send data as ${contentType}. Allowed content types are text/xml, application/xml.`,
    ),
  illegalJsonRpcContentType: (contentType: string) =>
    new RpcFault(
      RPC_FAULT_CODE.jsonRpcContentType,
      `When using JSON-RPC over POST, you cannot send data as ${contentType}. Only application/json and application/json-rpc are allowed.`,
    ),
  /** `json_rpc_get_method_required`, which has no code of its own. */
  getMethodRequired: () =>
    new RpcFault(
      GENERIC_USER_ERROR,
      "When using JSON-RPC over GET, you must specify a 'method' parameter. See the documentation at https://bugzilla.readthedocs.io/en/5.2/api/index.html",
    ),
  /** `json_rpc_invalid_params`, which has no code of its own. */
  invalidGetParams: (why: string, value: string) =>
    new RpcFault(
      GENERIC_USER_ERROR,
      `Could not parse the 'params' argument as valid JSON. Error: ${why} Value: ${value}`,
    ),
  /** A JSON-RPC body that parses but is no call at all (a list, a number): Bugzilla dies on it. */
  notACall: () =>
    new RpcFault(GENERIC_USER_ERROR, 'A JSON-RPC call is a JSON object with a method, its params and an id.'),
  /** Params that are not one object of named parameters (Bugzilla's methods take nothing else). */
  paramsNotStruct: () =>
    new RpcFault(
      GENERIC_USER_ERROR,
      "Bugzilla's methods take one object of named parameters: the call's params must be that object, or a list holding it.",
    ),
};

/**
 * Any failure as the fault a client gets. A TrackerError keeps the code and message its REST
 * route would answer. Anything else is ours, not the caller's: it is logged with its stack under
 * the request id, and the caller gets Bugzilla's ERROR_UNKNOWN_FATAL quoting that id, never the
 * stack (errorEnvelope.ts does the same for REST).
 */
export function faultFor(error: unknown, requestId: string | undefined, route: string | undefined): RpcFault {
  if (error instanceof RpcFault) return error;
  if (error instanceof TrackerError) return new RpcFault(error.code, error.message);
  const failure = error as Error | undefined;
  logger.error(failure?.message ?? 'unexpected error', {
    requestId,
    route,
    error: failure?.name,
    stack: sourceMappedStack(failure?.stack),
  });
  return internalFault(requestId);
}

export const internalFault = (requestId: string | undefined) =>
  new RpcFault(
    INTERNAL_ERROR,
    `Tracker hit an unexpected error. Please report request id ${requestId} to the administrator.`,
  );
