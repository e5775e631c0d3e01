import { createServer, type Server, type Socket } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Retry } from '@smithy/core/retry';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FUNCTION_TIMEOUT } from '../../lib/trackerFunction.ts';
import { buildEvent } from '../../local/apiGatewayEmulator.ts';
import { getBody } from '../../shared/storage/bug/attachmentBodies.ts';
import { documentClient } from '../../shared/storage/dynamoClient.ts';
import {
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_RETRY_BACKOFF_MS,
  SDK_MAX_ATTEMPTS,
  SDK_TIMEOUT_ENV,
} from '../../shared/storage/sdkTimeouts.ts';
import { ENV } from '../../shared/storage/tableSchema.ts';
import { INTERNAL_ERROR } from '../../shared/trackerError.ts';
import { putBackEnvironment } from '../support/environment.ts';

/**
 * Issue 22 #15: a DynamoDB or S3 endpoint that takes the connection and never answers must fail
 * the call within the configured time, not hold the request until Lambda kills the function.
 */
describe('the SDK retry budget', () => {
  it('fits every attempt, and the waits between them, inside the function timeout with time to answer', () => {
    const answerMargin = 1_000;
    expect(SDK_MAX_ATTEMPTS * DEFAULT_REQUEST_TIMEOUT_MS + MAX_RETRY_BACKOFF_MS + answerMargin).toBeLessThanOrEqual(
      FUNCTION_TIMEOUT.toMilliseconds(),
    );
    expect(DEFAULT_CONNECTION_TIMEOUT_MS).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS);
  });

  it("bounds the SDK's own longest backoff (after throttling) between those attempts", () => {
    let longest = 0;
    for (let retry = 0; retry < SDK_MAX_ATTEMPTS - 1; retry++) longest += Retry.throttlingDelay() * 2 ** retry;
    expect(longest).toBeLessThanOrEqual(MAX_RETRY_BACKOFF_MS);
  });
});

describe('an endpoint that accepts connections and never answers', () => {
  const TIMEOUT_MS = 150;
  const saved = { ...process.env };
  let server: Server;
  const sockets = new Set<Socket>();
  let connections = 0;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      // Reads the request and says nothing.
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    Object.assign(process.env, {
      [ENV.dynamodbEndpoint]: endpoint,
      [ENV.s3Endpoint]: endpoint,
      [ENV.table]: 'tracker-silent',
      [ENV.bucket]: 'tracker-silent',
      [SDK_TIMEOUT_ENV.requestTimeoutMs]: String(TIMEOUT_MS),
      [SDK_TIMEOUT_ENV.connectionTimeoutMs]: String(TIMEOUT_MS),
    });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    putBackEnvironment(saved);
  });

  async function timed<T>(work: () => Promise<T>): Promise<{ error: unknown; elapsed: number; attempts: number }> {
    const before = connections;
    const started = Date.now();
    const error = await work().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    return { error, elapsed: Date.now() - started, attempts: connections - before };
  }

  it('fails a DynamoDB call after its attempts time out', async () => {
    const { error, elapsed, attempts } = await timed(() =>
      documentClient().send(new GetCommand({ TableName: 'tracker-silent', Key: { pk: 'X', sk: 'Y' } })),
    );
    expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(attempts).toBe(SDK_MAX_ATTEMPTS);
    expect(elapsed).toBeGreaterThanOrEqual(SDK_MAX_ATTEMPTS * TIMEOUT_MS - 50);
  });

  it('fails an S3 call after its attempts time out', async () => {
    const { error, attempts } = await timed(() => getBody('attachments/1/1'));
    expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(attempts).toBe(SDK_MAX_ATTEMPTS);
  });

  it('answers a request with the 503 envelope and Retry-After instead of hanging', async () => {
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { handler } = await import('../../functions/user/whoami.ts');
    const event = buildEvent(
      {
        method: 'GET',
        url: '/rest/whoami',
        headers: { 'x-bugzilla-api-key': 'SilentKey0000000000000000000000000000000' },
        body: Buffer.alloc(0),
      },
      'GET /rest/whoami',
      undefined,
      'silent-request',
    );
    const context = { awsRequestId: 'silent-request', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
    // Without the budget the SDK would wait for ever and the test would time out instead.
    const result = await handler(event, context);
    // A store that does not answer is busy, not broken: the client may send it again.
    expect(result.statusCode).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('2');
    expect(JSON.parse(result.body ?? '')).toMatchObject({
      error: true,
      code: INTERNAL_ERROR,
      request_id: 'silent-request',
    });
    expect(logged.mock.calls.some(([line]) => String(line).includes('TimeoutError'))).toBe(true);
    expect(logged.mock.calls.some(([line]) => String(line).includes('storage busy'))).toBe(true);
    logged.mockRestore();
  });
});
