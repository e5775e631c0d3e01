/**
 * The settings of `npm run bench`, read once from the environment (see bench/run.ts for the list),
 * and the few formatting helpers every part of the run logs with.
 */
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(BENCH_DIR, '..');

const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
export const DURATION_S = numberFromEnv('BENCH_DURATION', 10);
export const WARMUP_S = numberFromEnv('BENCH_WARMUP', 2);
export const CONNECTIONS = numberFromEnv('BENCH_CONNECTIONS', 8);
export const GLOBAL_WARMUP_S = 5;
export const USER_COUNT = numberFromEnv('BENCH_USERS', 50);
export const BENCH_BUGS = Math.round(numberFromEnv('BENCH_BUGS', 200));
export const OUTPUT = resolve(ROOT, process.env.BENCH_OUTPUT ?? 'docs/benchmarks.md');
export const COLD = process.env.BENCH_COLD !== '0';
export const COLD_RUNS = Math.round(numberFromEnv('BENCH_COLD_RUNS', 5));
export const LOAD_RUNS = Math.round(numberFromEnv('BENCH_LOAD_RUNS', 3));

export const ADMIN = {
  login: 'admin@bench.test',
  password: `bench-${randomBytes(8).toString('hex')}`,
  apiKey: `BenchAdminKey${randomBytes(12).toString('hex')}`,
};
export const USER_PASSWORD = 'bench-user-password';

export const log = (message: string) => console.log(`[bench] ${message}`);
export const round = (value: number, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : NaN);
export const elapsed = (since: number) => (performance.now() - since) / 1000;

export function kib(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}
