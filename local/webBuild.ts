import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Keeps web/dist (the built web front end) as current as its sources: `npm start` and the tests
 * that serve the web app build it with `npm run build:web` when it is missing or older than a file
 * under web/ (web/dist itself and node_modules aside). Two processes that need it at once (two
 * test files) take turns through a lock directory, and the second finds it built.
 */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_SOURCE_DIR = join(PROJECT_ROOT, 'web');
export const WEB_DIST_DIR = join(WEB_SOURCE_DIR, 'dist');
const LOCK_DIR = join(WEB_SOURCE_DIR, '.build-lock');
/** A lock older than this was left by a build that died: taken over. */
const STALE_LOCK_MS = 10 * 60_000;

export type WebBuildState = { state: 'current' } | { state: 'built' } | { state: 'unavailable'; reason: string };

export interface WebBuildOptions {
  /** Where the build's output goes (npm start: the terminal); none by default. */
  output?: 'inherit' | 'ignore';
}

/** Builds web/dist when it is missing or stale; says why it could not when there is no build script. */
export async function ensureWebBuilt(options: WebBuildOptions = {}): Promise<WebBuildState> {
  if (!(await isStale())) return { state: 'current' };
  if (!hasBuildScript()) {
    return {
      state: 'unavailable',
      reason: existsSync(WEB_SOURCE_DIR)
        ? 'package.json has no build:web script yet'
        : 'there is no web/ directory in this checkout',
    };
  }
  await withLock(async () => {
    if (await isStale()) await runBuild(options.output ?? 'ignore');
  });
  return { state: 'built' };
}

/**
 * Builds the web app into a directory of the caller's own (`npm run build:web -- <dir>`), for a
 * server that must not see web/dist change under it: a test app serving pages while someone
 * rebuilds web/dist (which replaces its hashed files) would answer an index.html naming a script
 * that is gone.
 */
export async function buildWebInto(dir: string): Promise<void> {
  if (!hasBuildScript()) throw new Error('package.json has no build:web script');
  await runBuild('ignore', [dir]);
}

/** web/dist/index.html missing, or older than the newest source file under web/. */
export async function isStale(): Promise<boolean> {
  const built = await modifiedMs(join(WEB_DIST_DIR, 'index.html'));
  if (built === undefined) return true;
  if (!existsSync(WEB_SOURCE_DIR)) return false;
  return (await newestSourceMs(WEB_SOURCE_DIR)) > built;
}

function hasBuildScript(): boolean {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return typeof manifest.scripts?.['build:web'] === 'string';
}

async function newestSourceMs(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (path === WEB_DIST_DIR || path === LOCK_DIR || entry.name === 'node_modules') continue;
    if (entry.isDirectory()) newest = Math.max(newest, await newestSourceMs(path));
    else if (entry.isFile()) newest = Math.max(newest, (await modifiedMs(path)) ?? 0);
  }
  return newest;
}

async function modifiedMs(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

function runBuild(output: 'inherit' | 'ignore', args: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'build:web', ...(args.length > 0 ? ['--', ...args] : [])], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', output === 'inherit' ? 'inherit' : 'pipe', output === 'inherit' ? 'inherit' : 'pipe'],
    });
    let log = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`npm run build:web failed (${signal ?? `exit ${code}`})${log ? `:\n${log.slice(-4000)}` : ''}`),
        );
    });
  });
}

async function withLock(build: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await mkdir(LOCK_DIR);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await modifiedMs(LOCK_DIR);
      if (since !== undefined && Date.now() - since > STALE_LOCK_MS) await rmdir(LOCK_DIR).catch(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    await build();
  } finally {
    await rmdir(LOCK_DIR).catch(() => undefined);
  }
}
