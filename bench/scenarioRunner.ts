/**
 * Drives one scenario against the server process: a probe of its answer, a warm-up, then the
 * measured autocannon load with the server's CPU and DynamoDB calls sampled around it.
 */
import autocannon from 'autocannon';
import type { Seeded } from './benchSeed.ts';
import { ADMIN, CONNECTIONS, DURATION_S, log, round, USER_PASSWORD, WARMUP_S } from './benchSettings.ts';
import { cpuSeconds } from './processSampler.ts';
import type { Scenario } from './scenarios.ts';
import type { ServerProcess } from './serverProcess.ts';

const sumValues = (record: Record<string, number>): number =>
  Object.values(record).reduce((sum, value) => sum + value, 0);

export interface ScenarioResult {
  scenario: Scenario;
  responseBytes: number;
  checkProblem?: string;
  requests: number;
  seconds: number;
  rps: number;
  latency: { p50: number; p90: number; p99: number; max: number; mean: number };
  ok2xx: number;
  non2xx: number;
  unexpected: Record<string, number>;
  errors: number;
  timeouts: number;
  serverCpu?: number;
  dynamodbCpu?: number;
  /** DynamoDB calls per request during the measured seconds, by operation. */
  dynamodbPerRequest?: Record<string, number>;
  skipped?: string;
}

async function probe(
  baseUrl: string,
  scenario: Scenario,
  seeded: Seeded,
): Promise<{ status: number; bytes: number; problem?: string }> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (scenario.auth === 'API key') headers['X-BUGZILLA-API-KEY'] = ADMIN.apiKey;
  if (scenario.method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(
      scenario.probeBody ? scenario.probeBody(seeded) : { login: seeded.users[0]!.login, password: USER_PASSWORD },
    );
  }
  const response = await fetch(`${baseUrl}${scenario.probePath ? scenario.probePath(seeded) : scenario.path}`, {
    method: scenario.method,
    headers,
    body,
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const problem = scenario.expected.includes(response.status)
    ? scenario.check(parsed)
    : `status ${response.status}: ${text.slice(0, 200)}`;
  return { status: response.status, bytes: Buffer.byteLength(text), problem };
}

/** The load being driven now, so that Ctrl-C can stop it. */
let currentLoad: autocannon.Instance | undefined;
let interrupted = false;

export class Interrupted extends Error {}

/** The first Ctrl-C: stop the load now; the run then unwinds through `checkInterrupted`. */
export function interrupt(): void {
  interrupted = true;
  currentLoad?.stop();
}

export const isInterrupted = () => interrupted;

export function checkInterrupted(): void {
  if (interrupted) throw new Interrupted('interrupted');
}

export function runAutocannon(options: autocannon.Options): Promise<autocannon.Result> {
  checkInterrupted();
  return new Promise((resolvePromise, reject) => {
    currentLoad = autocannon(options, (error, result) => {
      currentLoad = undefined;
      if (interrupted) reject(new Interrupted('interrupted'));
      else if (error) reject(error);
      else resolvePromise(result);
    });
  });
}

export function scenarioOptions(server: ServerProcess, scenario: Scenario, seeded: Seeded): autocannon.Options {
  return {
    url: `${server.url}${scenario.path}`,
    method: scenario.method,
    connections: CONNECTIONS,
    pipelining: 1,
    timeout: 10,
    ...scenario.options(server.url, seeded.users, seeded),
  } as autocannon.Options;
}

export async function runScenario(
  server: ServerProcess,
  scenario: Scenario,
  seeded: Seeded,
  javaPid: number | undefined,
): Promise<ScenarioResult> {
  const base = scenarioOptions(server, scenario, seeded);

  const first = await probe(server.url, scenario, seeded);
  // Warm-up: loads and compiles the handler module and fills connection pools, like a warm Lambda.
  await runAutocannon({ ...base, duration: WARMUP_S });

  const callsBefore = await server.dynamodbCalls();
  const serverCpuBefore = cpuSeconds(server.pid);
  const javaCpuBefore = cpuSeconds(javaPid);
  const result = await runAutocannon({ ...base, duration: DURATION_S });
  const serverCpuAfter = cpuSeconds(server.pid);
  const javaCpuAfter = cpuSeconds(javaPid);
  const callsAfter = await server.dynamodbCalls();
  let dynamodbPerRequest: Record<string, number> | undefined;
  if (callsBefore && callsAfter && result.requests.total > 0) {
    dynamodbPerRequest = {};
    for (const [operation, count] of Object.entries(callsAfter)) {
      const delta = count - (callsBefore[operation] ?? 0);
      if (delta > 0) dynamodbPerRequest[operation] = delta / result.requests.total;
    }
  }

  const seconds = result.duration;
  const unexpected: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!scenario.expected.includes(Number(status))) unexpected[status] = (stats as { count?: number }).count ?? 0;
  }
  const share = (before?: number, after?: number) =>
    before !== undefined && after !== undefined && seconds > 0 ? (after - before) / seconds : undefined;
  return {
    scenario,
    responseBytes: first.bytes,
    checkProblem: first.problem,
    requests: result.requests.total,
    seconds,
    rps: seconds > 0 ? result.requests.total / seconds : 0,
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpu: share(serverCpuBefore, serverCpuAfter),
    dynamodbCpu: share(javaCpuBefore, javaCpuAfter),
    dynamodbPerRequest,
  };
}

/** The row of a scenario that did not run (the server had exited, or an earlier scenario failed). */
function skippedResult(scenario: Scenario, why: string): ScenarioResult {
  return {
    scenario,
    skipped: why,
    responseBytes: 0,
    requests: 0,
    seconds: 0,
    rps: 0,
    latency: { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN },
    ok2xx: 0,
    non2xx: 0,
    unexpected: {},
    errors: 0,
    timeouts: 0,
  };
}

/**
 * Every scenario in turn. After the first failure (or once the server has exited) the rest are
 * listed as skipped rather than run against a broken server.
 */
export async function runScenarios(
  server: ServerProcess,
  scenarios: Scenario[],
  seeded: Seeded,
  javaPid: number | undefined,
): Promise<{ results: ScenarioResult[]; failure: string | undefined }> {
  const results: ScenarioResult[] = [];
  let failure: string | undefined;
  for (const scenario of scenarios) {
    checkInterrupted();
    if (failure || server.child.exitCode !== null || server.child.signalCode !== null) {
      failure ??= 'the server process exited';
      results.push(skippedResult(scenario, failure));
      continue;
    }
    log(`${scenario.name}: ${scenario.method} ${scenario.path} (${WARMUP_S} s warm-up + ${DURATION_S} s)...`);
    try {
      const result = await runScenario(server, scenario, seeded, javaPid);
      results.push(result);
      const issues = [
        result.checkProblem,
        Object.keys(result.unexpected).length ? `unexpected ${JSON.stringify(result.unexpected)}` : undefined,
        result.errors ? `${result.errors} errors` : undefined,
      ].filter(Boolean);
      const calls = result.dynamodbPerRequest
        ? `, ${round(sumValues(result.dynamodbPerRequest))} DynamoDB calls/req`
        : '';
      log(
        `  ${round(result.rps, 0)} req/s, p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, ${result.requests} requests, ${result.non2xx} non-2xx${calls}${issues.length ? ` — ${issues.join('; ')}` : ''}`,
      );
    } catch (error) {
      if (error instanceof Interrupted) throw error;
      failure = `${scenario.name}: ${(error as Error).message}`;
      log(`  failed: ${failure}`);
      results.push(skippedResult(scenario, (error as Error).message));
    }
  }
  return { results, failure };
}
