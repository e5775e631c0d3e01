import { createHash } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { extractCredentials } from '../../domain/identity/authentication.ts';
import { errors } from '../../errors.ts';
import { invocationObservers } from '../../observability/invocationObservers.ts';
import { logger } from '../../observability/logger.ts';
import { recordRequest } from '../../observability/metrics.ts';
import { routineOutputOff } from '../../observability/routineOutput.ts';
import { GENERIC_USER_ERROR, TrackerError } from '../../trackerError.ts';
import type { LambdaHandler } from '../endpointChain.ts';
import { fittedForLambda, unencodedTag } from '../lambdaResponse.ts';
import { COMMON_HEADERS } from '../middleware/formatResponse.ts';
import { MAX_QUERY_BYTES } from '../middleware/queryLimit.ts';
import { type HttpResult, header } from '../requestState.ts';
import {
  callParams,
  type JsonRpcEnvelope,
  type JsonRpcReading,
  jsonpOf,
  readJsonRpcGet,
  readJsonRpcPost,
  writeJsonRpcError,
  writeJsonRpcResult,
} from './jsonRpcCodec.ts';
import type { RpcCall, RpcFault } from './rpcCall.ts';
import { dispatchRpcCall, type RestHandlers } from './rpcDispatcher.ts';
import { faultFor, rpcFaults } from './rpcFaults.ts';
import { isBugzillaMethod, rpcMethod } from './rpcMethods.ts';
import { decodeXmlRpcCall, encodeXmlRpcFault, encodeXmlRpcResponse } from './xmlRpcCodec.ts';

/**
 * One handler for Bugzilla's two older protocols: `POST /xmlrpc.cgi`, `POST /jsonrpc.cgi` and
 * `GET /jsonrpc.cgi`. Each request is read in its protocol, its call dispatched as the REST
 * request it is (rpcDispatcher.ts), and the result or fault written back in the protocol, always
 * with HTTP 200 as Bugzilla answers: a fault is an answer, not a failed request. Nothing escapes
 * as a 500: what fails unexpectedly is logged and answered as Bugzilla's -32000 fault.
 *
 * The checks come in Bugzilla's order, so a request wrong in several ways gets the fault 5.2
 * gives it: XML-RPC's content type before its XML (Server/XMLRPC.pm deserialize), then the method
 * (handle_login); JSON-RPC's JSON, method name, method, params, then the content type of a POST
 * or the read-only rule of a GET, then whether the method is served (Server/JSONRPC.pm
 * _argument_type_check).
 */
export const XML_RPC_PATH = '/xmlrpc.cgi';
export const JSON_RPC_PATH = '/jsonrpc.cgi';

const XML_TYPES = ['text/xml', 'application/xml'];
const JSON_RPC_TYPE = /^application\/json(-rpc)?(;.*)?$/i;
const XML_CONTENT_TYPE = 'text/xml; charset=UTF-8';
const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';
const JSONP_CONTENT_TYPE = 'text/javascript; charset=UTF-8';

interface Exchange {
  event: APIGatewayProxyEventV2;
  context: Context;
  handlers: RestHandlers;
  /** What the request log line says about the call. */
  rpcMethod?: string;
  faultCode?: number;
  /** The answer is the caller's alone: no shared cache may keep it. */
  personal: boolean;
}

const requestIdOf = (exchange: Exchange) => exchange.context.awsRequestId ?? exchange.event.requestContext?.requestId;

function faultOf(exchange: Exchange, error: unknown): RpcFault {
  const fault = faultFor(error, requestIdOf(exchange), exchange.event.routeKey);
  exchange.faultCode = fault.code;
  return fault;
}

async function dispatch(exchange: Exchange, call: RpcCall): Promise<unknown> {
  if (extractCredentials({}, call.params) !== null) exchange.personal = true;
  const answer = await dispatchRpcCall(call, exchange.handlers, exchange);
  if (answer.personal) exchange.personal = true;
  return answer.result;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const notUtf8 = () => errors.invalidParameter('The request body is not valid UTF-8: Tracker accepts only UTF-8 text.');

/**
 * The body as UTF-8 text, refused otherwise as a REST body is (decodeInput.ts): API Gateway hands
 * a body it takes for binary over as base64, and one it took for text already decoded, with
 * U+FFFD for bytes that were not UTF-8 (then its length is not the length sent).
 */
function bodyText(event: APIGatewayProxyEventV2): string {
  const body = event.body ?? '';
  if (event.isBase64Encoded) {
    try {
      return strictUtf8.decode(Buffer.from(body, 'base64'));
    } catch {
      throw notUtf8();
    }
  }
  const sentLength = Number(header(event, 'content-length'));
  if (body.includes('\uFFFD') && sentLength > 0 && Buffer.byteLength(body, 'utf8') !== sentLength) throw notUtf8();
  return body;
}

/** Percent escapes must decode to UTF-8, as a REST query string's must (decodeInput.ts). */
function checkQueryString(rawQuery: string): void {
  if (Buffer.byteLength(rawQuery, 'utf8') > MAX_QUERY_BYTES)
    throw errors.queryTooLong(
      `The query string is longer than ${MAX_QUERY_BYTES} bytes. Split the request into several smaller ones.`,
    );
  try {
    decodeURIComponent(rawQuery.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    throw errors.invalidParameter('The query string is not valid UTF-8: Tracker accepts only UTF-8 text.');
  }
}

async function answerXmlRpc(exchange: Exchange): Promise<HttpResult> {
  const reply = (body: string): HttpResult => ({
    statusCode: 200,
    headers: headersFor(exchange, XML_CONTENT_TYPE),
    body,
  });
  let body: string;
  try {
    checkQueryString(exchange.event.rawQueryString ?? '');
    const contentType = header(exchange.event, 'content-type') ?? '';
    const bare = contentType.toLowerCase().replace(/;.*$/s, '').trim();
    if (!XML_TYPES.includes(bare)) throw rpcFaults.illegalXmlRpcContentType(contentType);
    const call = decodeXmlRpcCall(bodyText(exchange.event));
    exchange.rpcMethod = call.method;
    if (!rpcMethod(call.method)) throw rpcFaults.unknownMethod(call.method);
    body = encodeXmlRpcResponse(await dispatch(exchange, call));
  } catch (error) {
    return reply(encodeXmlRpcFault(faultOf(exchange, error)));
  }
  return fitted(exchange, reply(body), (error) => reply(encodeXmlRpcFault(faultOf(exchange, error))));
}

/**
 * The answer as Lambda can return it: gzipped for a client that accepts it, or the protocol's
 * fault for an answer over the 6 MB an invocation returns even so (lambdaResponse.ts).
 */
async function fitted(
  exchange: Exchange,
  answer: HttpResult,
  fault: (error: TrackerError) => HttpResult,
): Promise<HttpResult> {
  const result = await fittedForLambda(answer, header(exchange.event, 'accept-encoding'));
  return result instanceof TrackerError ? fault(result) : result;
}

/** Bugzilla answers a GET without an id under its urlbase; this is the URL the request came to. */
function requestOrigin(event: APIGatewayProxyEventV2): string {
  const protocol = header(event, 'x-forwarded-proto') ?? 'https';
  return `${protocol}://${event.requestContext?.domainName ?? header(event, 'host') ?? 'localhost'}/`;
}

function readJsonRpc(exchange: Exchange, get: boolean): JsonRpcReading | 'no data' {
  const { event } = exchange;
  try {
    checkQueryString(event.rawQueryString ?? '');
    if (get) return readJsonRpcGet(new URLSearchParams(event.rawQueryString ?? ''), requestOrigin(event));
    const text = bodyText(event);
    return text.trim() === '' ? 'no data' : readJsonRpcPost(text);
  } catch (error) {
    return { envelope: { version: '1.1', id: undefined }, fault: faultOf(exchange, error) };
  }
}

async function callJsonRpc(exchange: Exchange, reading: JsonRpcReading, get: boolean): Promise<string> {
  if ('fault' in reading) return writeJsonRpcError(reading.envelope, faultOf(exchange, reading.fault));
  const { envelope, method } = reading.message;
  exchange.rpcMethod = method;
  try {
    if (!isBugzillaMethod(method)) throw rpcFaults.noSuchMethod(method);
    const params = callParams(reading.message);
    const served = rpcMethod(method);
    if (get) {
      if (!served?.readOnly) throw rpcFaults.postOnly(method);
    } else {
      const contentType = header(exchange.event, 'content-type') ?? '';
      if (!JSON_RPC_TYPE.test(contentType)) throw rpcFaults.illegalJsonRpcContentType(contentType);
    }
    if (!served) throw rpcFaults.unknownMethod(method);
    return writeJsonRpcResult(envelope, await dispatch(exchange, { method, params }));
  } catch (error) {
    return writeJsonRpcError(envelope, faultOf(exchange, error));
  }
}

async function answerJsonRpc(exchange: Exchange, get: boolean): Promise<HttpResult> {
  const reading = readJsonRpc(exchange, get);
  // JSON::RPC answers a POST without a body 403 "No data." (as text it calls JSON); here the text
  // comes in the envelope every 4xx of Tracker's carries.
  if (reading === 'no data') {
    exchange.faultCode = GENERIC_USER_ERROR;
    return {
      statusCode: 403,
      headers: headersFor(exchange, JSON_CONTENT_TYPE),
      body: JSON.stringify({ error: true, code: GENERIC_USER_ERROR, message: 'No data.' }),
    };
  }
  const json = await callJsonRpc(exchange, reading, get);
  const envelope: JsonRpcEnvelope = 'fault' in reading ? reading.envelope : reading.message.envelope;
  const callback = envelope.callback;
  const reply = (text: string): HttpResult => ({
    statusCode: 200,
    headers: headersFor(exchange, callback ? JSONP_CONTENT_TYPE : JSON_CONTENT_TYPE),
    body: callback ? jsonpOf(callback, text) : text,
  });
  const answer = reply(json);
  const fault = (error: TrackerError) => reply(writeJsonRpcError(envelope, faultOf(exchange, error)));
  if (!get) return fitted(exchange, answer, fault);
  // A GET answer carries an ETag, and a client that has it gets a 304, as from REST (and Bugzilla).
  const headers = answer.headers as Record<string, string>;
  headers.ETag = `"${createHash('sha1')
    .update(answer.body ?? '')
    .digest('base64url')}"`;
  const ifNoneMatch = header(exchange.event, 'if-none-match') ?? '';
  const held = ifNoneMatch.split(',').map((tag) => unencodedTag(tag.trim().replace(/^W\//, '')));
  if (held.some((tag) => tag === headers.ETag || tag === '*')) return { statusCode: 304, headers, body: '' };
  if (exchange.event.requestContext?.http?.method === 'HEAD') return { statusCode: 200, headers, body: '' };
  return fitted(exchange, answer, fault);
}

function headersFor(exchange: Exchange, contentType: string): Record<string, string> {
  return {
    ...COMMON_HEADERS,
    'Content-Type': contentType,
    ...(exchange.personal ? { 'Cache-Control': 'private' } : {}),
  };
}

async function answer(exchange: Exchange): Promise<HttpResult> {
  const path = exchange.event.routeKey?.split(' ')[1] ?? exchange.event.rawPath;
  // The root takes XML-RPC too: the clients that post to whatever URL they were given speak it.
  if (path === XML_RPC_PATH || path === '/') return answerXmlRpc(exchange);
  const method = exchange.event.requestContext?.http?.method;
  return answerJsonRpc(exchange, method === 'GET' || method === 'HEAD');
}

/**
 * The request's log line and metrics, as requestTelemetry.ts writes them for a REST route, with
 * the RPC method and the fault code. The REST route the call ran logs and counts itself too,
 * under its own route, with the caller and its DynamoDB calls; the RPC layer makes none.
 */
function recordAnswer(exchange: Exchange, status: number, startedAt: number): void {
  if (routineOutputOff()) return;
  const outcome = { route: exchange.event.routeKey, status, durationMs: Date.now() - startedAt, dynamodbCalls: 0 };
  recordRequest({ ...outcome, errorCode: exchange.faultCode });
  logger.info('request', {
    requestId: requestIdOf(exchange),
    method: exchange.event.requestContext?.http?.method,
    route: outcome.route,
    status,
    rpcMethod: exchange.rpcMethod,
    faultCode: exchange.faultCode,
    durationMs: outcome.durationMs,
  });
}

/** The Lambda handler of the RPC routes, calling REST handlers that `handlers` provides. */
export function rpcEndpoint(handlers: RestHandlers): LambdaHandler {
  const serve = async (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
    const startedAt = Date.now();
    const exchange: Exchange = { event, context, handlers, personal: false };
    let result: HttpResult;
    try {
      result = await answer(exchange);
    } catch (error) {
      // Every path above answers its own faults; this is the last guard against a 500.
      const fault = faultOf(exchange, error);
      result = {
        statusCode: 200,
        headers: headersFor(exchange, JSON_CONTENT_TYPE),
        body: writeJsonRpcError({ version: '1.1', id: undefined }, fault),
      };
    }
    recordAnswer(exchange, result.statusCode ?? 200, startedAt);
    return result;
  };
  return middy(serve).use(invocationObservers()) as unknown as LambdaHandler;
}
