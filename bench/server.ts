/**
 * The server side of `npm run bench`, run by bench/run.ts as its own Node process so that the
 * load generator and the API do not share one event loop. It expects the local engines to be
 * running already (their endpoints, the table, bucket and administrator come in the environment),
 * creates a fresh table and bucket, bootstraps an installation and serves the API through the
 * local API Gateway emulator on a free loopback port. When listening it prints one line:
 * `BENCH_SERVER_READY {"url": ..., "adminId": ..., "pid": ...}`. It stops on SIGTERM, SIGINT or when
 * its standard input or IPC channel closes (the parent went away).
 *
 * Over the IPC channel it answers `{type: 'stats'}` with the DynamoDB calls its handlers made so
 * far, by operation (counted from Node's own http client diagnostics channel; no code of ours is
 * changed), so the benchmark can report DynamoDB calls per request; and `{type: 'memory'}` with
 * the process's memory after full collections.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, Server } from 'node:http';
import { preloadHandlers, startApiGateway } from '../local/apiGatewayEmulator.ts';
import { relaxSdkTimeoutsForBulkTool } from '../local/bulkToolTimeouts.ts';
import { ensureBucket, ensureTable } from '../local/provision.ts';
import { bootstrapInstallation } from '../shared/application/instance/bootstrapInstallation.ts';
import { searchIndexStats } from '../shared/application/search/searchIndexHolder.ts';
import { ENV } from '../shared/storage/tableSchema.ts';

const READY_PREFIX = 'BENCH_SERVER_READY ';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`bench/server.ts needs ${name} in its environment`);
  return value;
}

/** DynamoDB operations sent by this process, from the X-Amz-Target header of each request. */
const dynamodbCalls: Record<string, number> = {};
subscribe('http.client.request.start', (message) => {
  const request = (message as { request: ClientRequest }).request;
  const target = request.getHeader('x-amz-target');
  if (typeof target === 'string' && target.startsWith('DynamoDB_')) {
    const operation = target.slice(target.indexOf('.') + 1);
    dynamodbCalls[operation] = (dynamodbCalls[operation] ?? 0) + 1;
  }
});

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  relaxSdkTimeoutsForBulkTool();
  process.env.TRACKER_REQUEST_LOG ??= 'off';
  const dynamodbEndpoint = required(ENV.dynamodbEndpoint);
  const s3Endpoint = required(ENV.s3Endpoint);
  const table = required(ENV.table);
  const bucket = required(ENV.bucket);

  // BENCH_TABLE_STREAM=off: a table without the change stream the notification publisher reads
  // (bench:import's source, whose figures predate the stream and measure no notifications).
  await ensureTable(dynamodbEndpoint, table, { stream: process.env.BENCH_TABLE_STREAM !== 'off' });
  await ensureBucket(s3Endpoint, bucket);
  const installation = await bootstrapInstallation({
    adminLogin: required('BENCH_ADMIN_LOGIN'),
    adminPassword: required('BENCH_ADMIN_PASSWORD'),
    adminApiKey: required('BENCH_ADMIN_API_KEY'),
  });
  // BENCH_REUSE_TABLE=1: a second server over an installation another one seeded (bench:search's "nothing kept" pass).
  if (!installation.created && process.env.BENCH_REUSE_TABLE !== '1')
    throw new Error(`the benchmark table ${table} was not fresh`);

  // BENCH_WEB_DIR: the built web app, served beside the API as `npm start` serves it (bench:web).
  const { server, url } = await startApiGateway({ port: 0, host: '127.0.0.1', webDir: process.env.BENCH_WEB_DIR });
  // Each Lambda instance loads its function's module before its first request: so does this one.
  await preloadHandlers();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    closeServer(server).then(() => process.exit(0));
    setTimeout(() => process.exit(0), 3_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.on('disconnect', stop);
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'stats')
      process.send?.({ type: 'stats', dynamodbCalls: { ...dynamodbCalls }, searchIndex: searchIndexStats() });
    if (message?.type === 'memory') settledMemory().then((memory) => process.send?.({ type: 'memory', memory }));
  });
  process.stdout.write(
    `${READY_PREFIX}${JSON.stringify({ url, adminId: installation.created ? installation.adminId : null, pid: process.pid })}\n`,
  );
}

/**
 * The process's memory after full collections (when started with --expose-gc), repeated until the
 * heap stops shrinking, with a pause so that freed typed-array stores are given back: what the
 * search index and the kept pages hold, without the garbage of the last requests.
 */
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let last = Number.POSITIVE_INFINITY;
  for (let round = 0; gc && round < 8; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    if (round > 0 && last - (heapUsed + arrayBuffers) < 64 * 1024) break;
    last = heapUsed + arrayBuffers;
  }
  return process.memoryUsage();
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
