/**
 * One cold start, run by bench/coldStart.ts in a fresh `node` process (plain JavaScript, no tsx,
 * so nothing but Node.js itself is loaded before the bundle), with the environment a deployed
 * function gets (the stack's NODE_OPTIONS, none today; the table, the Lambda variables).
 *
 *   node bench/coldStartChild.mjs <bundle index.mjs> <JSON {functionName, events: [first, second]}>
 *
 * It `import()`s the bundle as Lambda's Node.js runtime does for an ES module (the init phase),
 * then calls the exported `handler` with the first event (the cold invocation) and with the second
 * (a warm one, same process), timing each with performance.now(). It prints one line,
 * `BENCH_COLD_RESULT {...}`, and exits; the handlers' own log lines go to stdout before it.
 */
import { pathToFileURL } from 'node:url';

// Milliseconds from the process's time origin to the first line of this script: Node.js's own
// start-up, which on Lambda is part of the runtime start this benchmark does not measure.
const nodeStartMs = performance.now();
const RESULT_PREFIX = 'BENCH_COLD_RESULT ';

const [bundle, payload] = process.argv.slice(2);
const { functionName, events } = JSON.parse(payload);
const bundleUrl = pathToFileURL(bundle).href;

function lambdaContext(requestId) {
  const deadline = Date.now() + 10_000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const result = { nodeStartMs };
try {
  const loadStarted = performance.now();
  const cpuStarted = process.cpuUsage();
  const module = await import(bundleUrl);
  result.loadMs = performance.now() - loadStarted;
  // CPU time of the load: the work itself, barely changed by other processes on the machine,
  // unlike the wall-clock time above.
  const cpu = process.cpuUsage(cpuStarted);
  result.loadCpuMs = (cpu.user + cpu.system) / 1000;
  if (typeof module.handler !== 'function') throw new Error(`${bundle} exports no handler function`);

  const invoke = async (event) => {
    const started = performance.now();
    const answer = await module.handler(event, lambdaContext(event.requestContext.requestId));
    const ms = performance.now() - started;
    const status = typeof answer === 'string' ? 200 : (answer?.statusCode ?? 200);
    const body = typeof answer === 'string' ? answer : (answer?.body ?? '');
    return {
      ms,
      status,
      bytes: Buffer.byteLength(body),
      body: status === 200 ? undefined : String(body).slice(0, 200),
    };
  };
  // No events: a load-only run (module load of every function of the stack).
  if (events.length > 0) {
    result.first = await invoke(events[0]);
    result.warm = await invoke(events[1]);
  }
  result.rss = process.memoryUsage().rss;
} catch (error) {
  result.error = String(error?.stack ?? error)
    .split('\n')
    .slice(0, 4)
    .join(' | ');
}
process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`, () => process.exit(0));
