import { checkJsonTextLimits } from '../../domain/inputLimits.ts';
import { TrackerError } from '../../trackerError.ts';
import { RpcFault } from './rpcCall.ts';
import { rpcFaults } from './rpcFaults.ts';

/**
 * JSON-RPC as Bugzilla 5.2's jsonrpc.cgi speaks it (WebService/Server/JSONRPC.pm over the
 * JSON::RPC::Legacy server): versions 1.0 and 1.1, by POST or by GET.
 *
 * A call with a true `version` member is answered in 1.1's format, `{version: "1.1", result}` or
 * `{version: "1.1", error: {name: "JSONRPCError", code, message}, id}`; any other in 1.0's,
 * `{result, error: null, id}` or `{result: null, error: {code, message}, id}`. A 1.0 call without
 * an id is a notification: it runs, and is answered with an empty body. 1.0's params must be a
 * list; Bugzilla's methods take its first entry, one object of named parameters.
 */
export type JsonRpcVersion = '1.0' | '1.1';

export interface JsonRpcEnvelope {
  version: JsonRpcVersion;
  /** The call's id, echoed in the answer; undefined or null when it has none. */
  id: unknown;
  /** GET: the function the answer is wrapped in (JSONP). */
  callback?: string;
}

export interface JsonRpcMessage {
  envelope: JsonRpcEnvelope;
  method: string;
  /** As the call sent them: checked by callParams once the method is known to exist. */
  params: unknown;
}

export type JsonRpcReading = { message: JsonRpcMessage } | { envelope: JsonRpcEnvelope; fault: RpcFault };

/**
 * A request that fails before its JSON is read (JSON::RPC's raise_error without a version) is
 * answered in the 1.1 format, without an id.
 */
const UNREAD: JsonRpcEnvelope = { version: '1.1', id: undefined };

/** Perl's truth: what JSON::RPC's `$obj->{version} ? 1.1 : 0` makes of a value. */
const perlTrue = (value: unknown): boolean =>
  !(value === undefined || value === null || value === false || value === 0 || value === '' || value === '0');

const METHOD_CHARACTERS = /^[-._a-zA-Z0-9]*$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function faultOf(error: unknown): RpcFault {
  if (error instanceof RpcFault) return error;
  if (error instanceof TrackerError) return new RpcFault(error.code, error.message);
  throw error;
}

/** The JSON text within the limits of a REST body (the call's struct is two levels inside it). */
function parseBounded(text: string, parseFailure: (why: string) => RpcFault): unknown {
  try {
    checkJsonTextLimits(text);
  } catch (error) {
    throw faultOf(error);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw parseFailure((error as Error).message);
  }
}

function readCall(call: Record<string, unknown>, envelope: JsonRpcEnvelope): JsonRpcReading {
  const method = call.method;
  if (method === undefined || method === null) return { envelope, fault: rpcFaults.noMethod() };
  const name = typeof method === 'number' ? String(method) : method;
  if (typeof name !== 'string' || !METHOD_CHARACTERS.test(name))
    return { envelope, fault: rpcFaults.invalidMethodName() };
  return { message: { envelope, method: name, params: call.params } };
}

/** A POST body. Its content type is judged later, once the method is known, as Bugzilla does. */
export function readJsonRpcPost(text: string): JsonRpcReading {
  let call: unknown;
  try {
    call = parseBounded(text, () => rpcFaults.jsonNotParsed());
  } catch (error) {
    return { envelope: UNREAD, fault: faultOf(error) };
  }
  if (!isObject(call)) return { envelope: UNREAD, fault: rpcFaults.notACall() };
  return readCall(call, { version: perlTrue(call.version) ? '1.1' : '1.0', id: call.id });
}

/** Bugzilla's rule for a JSONP callback (JSONRPC.pm `_bz_callback`): letters, digits, `_`, `.`, `[`, `]`. */
const CALLBACK = /^[A-Za-z0-9_.[\]]+$/;

/**
 * `GET /jsonrpc.cgi?method=…&params=[{…}]&id=…&version=…&callback=…` (JSON-RPC 2.0's "over HTTP"
 * form, params not base64, as Bugzilla reads it). Without an `id` the answer's is `defaultId`
 * (Bugzilla uses its urlbase); without `params` the call has none.
 */
export function readJsonRpcGet(query: URLSearchParams, defaultId: string): JsonRpcReading {
  const version = query.get('version');
  const envelope: JsonRpcEnvelope = {
    version: perlTrue(version) ? '1.1' : '1.0',
    id: query.has('id') ? query.get('id') : defaultId,
  };
  const callback = query.get('callback');
  if (callback !== null) {
    const name = callback.trim();
    if (!CALLBACK.test(name)) return { envelope, fault: rpcFaults.invalidCallback(name) };
    envelope.callback = name;
  }
  const method = query.get('method');
  if (!method) return { envelope, fault: rpcFaults.getMethodRequired() };
  const paramsText = query.get('params');
  let params: unknown = envelope.version === '1.1' ? {} : [];
  if (paramsText !== null) {
    try {
      params = parseBounded(paramsText, (why) => rpcFaults.invalidGetParams(why, paramsText));
    } catch (error) {
      return { envelope, fault: faultOf(error) };
    }
  }
  return readCall({ method, params }, envelope);
}

/** The call's one object of named parameters: 1.0's params are a list of it, 1.1's may be it. */
export function callParams(message: JsonRpcMessage): Record<string, unknown> {
  const { params, envelope } = message;
  if (envelope.version === '1.0' && !Array.isArray(params)) throw rpcFaults.invalidJsonRpc10Params();
  const struct = Array.isArray(params) ? params[0] : params;
  if (struct === undefined || struct === null) return {};
  if (!isObject(struct)) throw rpcFaults.paramsNotStruct();
  return struct;
}

const hasId = (envelope: JsonRpcEnvelope) => envelope.id !== undefined && envelope.id !== null;

/** The answer to a call that succeeded: empty for a 1.0 notification. */
export function writeJsonRpcResult(envelope: JsonRpcEnvelope, result: unknown): string {
  if (envelope.version === '1.1') return JSON.stringify({ version: '1.1', result: result ?? null });
  if (!hasId(envelope)) return '';
  return JSON.stringify({ result: result ?? null, error: null, id: envelope.id });
}

export function writeJsonRpcError(envelope: JsonRpcEnvelope, fault: RpcFault): string {
  if (envelope.version === '1.1')
    return JSON.stringify({
      version: '1.1',
      error: { name: 'JSONRPCError', code: fault.code, message: fault.message },
      ...(hasId(envelope) ? { id: envelope.id } : {}),
    });
  if (!hasId(envelope)) return '';
  return JSON.stringify({ result: null, error: { code: fault.code, message: fault.message }, id: envelope.id });
}

/** JSONP as Bugzilla writes it: `/**` + `/` first, against content-sniffing attacks. */
export const jsonpOf = (callback: string, json: string): string => `/**/${callback}(${json})`;
