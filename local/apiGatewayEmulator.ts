import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { fitsLambdaResponse, LAMBDA_RESPONSE_LIMIT } from '../shared/http/lambdaResponse.ts';
import { MAX_QUERY_BYTES } from '../shared/http/middleware/queryLimit.ts';
import { RouteMatcher } from '../shared/http/routeMatcher.ts';
import { type HttpMethod, platformHandlers, routes } from '../shared/routes.ts';
import { QUERY_TOO_LONG } from '../shared/trackerError.ts';
import { isApiPath } from '../shared/web/webHeaders.ts';
import { webFileServer } from './webFiles.ts';

/**
 * A small API Gateway (HTTP API, payload format 2.0) for local use and tests: it routes with the
 * same table and precedence as the deployed API and invokes the same handler modules with the
 * same event shape.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | string>;

const FUNCTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'functions');
const TEXT_TYPES = /^(text\/|application\/(json|javascript|xml|x-www-form-urlencoded)|[^;]*\+json)/i;
const BINARY_BODY_LIMIT = 10 * 1024 * 1024;

const handlerCache = new Map<string, Promise<Handler>>();

function loadHandler(module: string): Promise<Handler> {
  let loaded = handlerCache.get(module);
  if (!loaded) {
    loaded = import(pathToFileURL(join(FUNCTIONS_DIR, `${module}.ts`)).href).then(
      (imported) => imported.handler as Handler,
    );
    handlerCache.set(module, loaded);
  }
  return loaded;
}

/**
 * Loads every route's handler module now, as Lambda's init phase loads a function's module before
 * its first request. A benchmark that times a first request then times the request, not loading
 * and transpiling the handler's source (module loads are measured apart: bench/coldStart.ts).
 */
export async function preloadHandlers(): Promise<void> {
  await Promise.all([...new Set(routes.map((route) => route.handler))].map(loadHandler));
}

/**
 * Reads the body, refusing one over API Gateway's 10 MB payload limit. The rest of an oversized
 * body is still read (and dropped) so the client, which is still sending, gets the 413 answer
 * instead of a reset connection.
 */
function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BINARY_BODY_LIMIT) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > BINARY_BODY_LIMIT) reject(Object.assign(new Error('Request body too large'), { statusCode: 413 }));
      else resolve(Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

function lambdaContext(requestId: string, functionName: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export function buildEvent(
  request: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer; sourceIp?: string },
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
  requestId: string,
): APIGatewayProxyEventV2 {
  const url = new URL(request.url, 'http://localhost');
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies.push(...String(value).split(/;\s*/));
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const queryStringParameters: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    // API Gateway joins repeated keys with commas here; handlers read rawQueryString instead.
    queryStringParameters[key] = key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
  }
  // API Gateway does not say what it does with a text body that is not UTF-8; the emulator hands
  // such bytes over as binary (base64), so the function sees them as sent and can refuse them.
  const isText =
    request.body.length === 0 ||
    (TEXT_TYPES.test(headers['content-type'] ?? 'application/json') && isUtf8(request.body));
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: cookies.length > 0 ? cookies : undefined,
    headers,
    queryStringParameters: Object.keys(queryStringParameters).length > 0 ? queryStringParameters : undefined,
    pathParameters,
    body: request.body.length > 0 ? request.body.toString(isText ? 'utf8' : 'base64') : undefined,
    isBase64Encoded: !isText,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2 | string): void {
  if (typeof result === 'string') {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(result);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(body);
}

/** The headers and source address of the event: the socket's address unless a test names another. */
function clientAddress(
  request: IncomingMessage,
  testHeader: string | undefined,
): { headers: IncomingMessage['headers']; sourceIp?: string } {
  const name = testHeader?.toLowerCase();
  const named = name ? request.headers[name] : undefined;
  if (!name || typeof named !== 'string') return { headers: request.headers, sourceIp: request.socket.remoteAddress };
  const { [name]: _taken, ...headers } = request.headers;
  return { headers, sourceIp: named };
}

/** How much request line and headers the emulator reads; API Gateway itself takes 10,240 bytes (docs/api.md). */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * A request Node refuses before any handler runs. Its default answer to an over-long request line
 * or header block is a bare 431; the emulator answers the JSON 414 a long query string gets from
 * the functions (queryLimit.ts), since which of the two overflowed cannot be told at this point
 * and a long query string is what a client sends by mistake (a search with thousands of ids).
 */
function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  if (error.code !== 'HPE_HEADER_OVERFLOW') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const body = JSON.stringify({
    error: true,
    code: QUERY_TOO_LONG,
    message: `The request line and headers are longer than ${MAX_HEAD_BYTES} bytes; a query string may have at most ${MAX_QUERY_BYTES}. Split the request into several smaller ones.`,
  });
  socket.end(
    `HTTP/1.1 414 URI Too Long\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface EmulatorOptions {
  port: number;
  host?: string;
  /**
   * Tests only (test/support/testApp.ts): a request header whose value replaces the socket's
   * address as `requestContext.http.sourceIp`, so a test can log in from several addresses. It is
   * taken out of the event's headers. `npm start` never sets it, and the deployed code reads the
   * address API Gateway took from the connection, never a header.
   */
  testSourceIpHeader?: string;
  /**
   * The built web front end (web/dist) to serve, as CloudFront does on AWS: GET and HEAD of every
   * path that is not the API's (isApiPath) go to local/webFiles.ts; everything else to the API.
   */
  webDir?: string;
}

/**
 * The emulator runs every request in this one process, concurrently, as Lambda runs concurrent
 * invocations of one execution environment (Lambda Managed Instances). Lambda then gives each
 * invocation its own store, where Powertools keeps what belongs to one invocation (its context on
 * log lines, the metrics recorded so far); without one they would be shared, and a line or metric
 * could carry another request's. So the emulator does the same: it opts in the way the runtime
 * does (AWS_LAMBDA_MAX_CONCURRENCY) and runs each invocation in the store.
 */
async function concurrentInvocations(): Promise<<T>(requestId: string, invoke: () => Promise<T>) => Promise<T>> {
  const store = await InvokeStore.getInstanceAsync(true);
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '100';
  return (requestId, invoke) => store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId }, invoke);
}

export async function startApiGateway(options: EmulatorOptions): Promise<{ server: Server; url: string }> {
  const matcher = new RouteMatcher(routes);
  const invocation = await concurrentInvocations();
  const web = options.webDir ? webFileServer(options.webDir) : undefined;
  const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES }, async (request, response) => {
    const requestId = randomUUID();
    try {
      const method = (request.method ?? 'GET').toUpperCase();
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (web && (method === 'GET' || method === 'HEAD') && !isApiPath(path)) {
        request.resume();
        await web(request, response);
        return;
      }
      const body = await readBody(request);
      const match = method === 'OPTIONS' ? null : matcher.match(method as HttpMethod | 'HEAD', path);
      const handlerModule = match
        ? match.route.handler
        : method === 'OPTIONS'
          ? platformHandlers.options
          : platformHandlers.notFound;
      const routeKey = match
        ? `${method} ${match.route.path}`
        : method === 'OPTIONS'
          ? 'OPTIONS /{proxy+}'
          : '$default';
      const event = buildEvent(
        { method, url: request.url ?? '/', body, ...clientAddress(request, options.testSourceIpHeader) },
        routeKey,
        match?.pathParameters,
        requestId,
      );
      const handler = await loadHandler(handlerModule);
      const context = lambdaContext(requestId, handlerModule.replace('/', '-'));
      const result = await invocation(requestId, () => handler(event, context));
      if (typeof result !== 'string' && !fitsLambdaResponse(result)) {
        // Lambda fails an invocation whose answer is over its limit, and API Gateway answers 500.
        throw new Error(
          `Response payload size exceeded maximum allowed payload size (${LAMBDA_RESPONSE_LIMIT} bytes).`,
        );
      }
      writeResult(response, result);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status === 413) {
        // Bugzilla's answer to an oversized request: code 58, in its error envelope.
        const message = `The request is too large: at most ${BINARY_BODY_LIMIT / 1024 / 1024} MB are accepted.`;
        response
          .writeHead(413, { 'Content-Type': 'application/json', Connection: 'close' })
          .end(JSON.stringify({ error: true, code: 58, message }));
        return;
      }
      // What API Gateway answers when an integration fails.
      console.error(
        JSON.stringify({ level: 'error', requestId, message: (error as Error).message, stack: (error as Error).stack }),
      );
      response
        .writeHead(status, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ message: 'Internal Server Error' }));
    }
  });
  server.on('clientError', answerMalformedRequest);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, url: `http://${host}:${port}` };
}
