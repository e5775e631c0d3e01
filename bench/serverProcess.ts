/**
 * Starts bench/server.ts as its own Node process (so the load generator and the API do not share an
 * event loop), waits for its ready line, and asks it over IPC how many DynamoDB calls it made.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { LocalEngines } from '../local/engines.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { ADMIN, BENCH_DIR, ROOT } from './benchSettings.ts';

const READY_PREFIX = 'BENCH_SERVER_READY ';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  pid: number;
  /** stderr lines beyond the ones already echoed */
  suppressedErrorLines: () => number;
  /** DynamoDB calls the server made so far, by operation. */
  dynamodbCalls(): Promise<Record<string, number> | undefined>;
  stop(): Promise<void>;
}

export async function startServerProcess(engines: LocalEngines, table: string): Promise<ServerProcess> {
  // BENCH_SERVER_PROFILE=dir saves the API process's CPU profile there (Chrome DevTools).
  const profile = process.env.BENCH_SERVER_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(BENCH_DIR, 'server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      [ENV.dynamodbEndpoint]: engines.dynamodbEndpoint,
      [ENV.s3Endpoint]: engines.s3Endpoint,
      [ENV.table]: table,
      [ENV.bucket]: table,
      BENCH_ADMIN_LOGIN: ADMIN.login,
      BENCH_ADMIN_PASSWORD: ADMIN.password,
      BENCH_ADMIN_API_KEY: ADMIN.apiKey,
      TRACKER_REQUEST_LOG: 'off',
      NODE_ENV: 'production',
    },
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
  });

  // Echo the server's stderr, but only the first lines: a failing scenario must not flood the console.
  const ECHO_LIMIT = 20;
  let errorLines = 0;
  const recentErrors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    errorLines += 1;
    recentErrors.push(line);
    if (recentErrors.length > 20) recentErrors.shift();
    if (errorLines <= ECHO_LIMIT) console.error(`[server] ${line}`);
    else if (errorLines === ECHO_LIMIT + 1)
      console.error('[server] (further server error lines are counted, not shown)');
  });

  const ready = await new Promise<{ url: string; pid: number }>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error('the benchmark server did not start within 60 s')), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith(READY_PREFIX)) {
        clearTimeout(timer);
        resolvePromise(JSON.parse(line.slice(READY_PREFIX.length)));
      } else {
        console.log(`[server] ${line}`);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`the benchmark server exited (${signal ?? code}) before it was ready:\n${recentErrors.join('\n')}`),
      );
    });
  });

  return {
    child,
    url: ready.url,
    pid: ready.pid,
    suppressedErrorLines: () => Math.max(0, errorLines - ECHO_LIMIT),
    dynamodbCalls: () =>
      new Promise((done) => {
        if (!child.connected) return done(undefined);
        const timer = setTimeout(() => {
          child.off('message', onMessage);
          done(undefined);
        }, 2_000);
        const onMessage = (message: { type?: string; dynamodbCalls?: Record<string, number> }) => {
          if (message?.type !== 'stats') return;
          clearTimeout(timer);
          child.off('message', onMessage);
          done(message.dynamodbCalls);
        };
        child.on('message', onMessage);
        child.send({ type: 'stats' });
      }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const killed = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((done) => setTimeout(() => done(false), 5_000)),
      ]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
