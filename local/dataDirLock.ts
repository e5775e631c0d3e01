import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * One program at a time writes a data directory: `npm start`, `npm run seed`, `npm run import`
 * (and anything else that runs the local engines on it, through startEngines). Two at once
 * overwrite each other's bugs (a seed into a running installation "succeeded" and, after a
 * restart, three bugs were someone else's). The lock is a file, `<dataDir>/tracker.lock`,
 * naming its holder's pid, command and start; it is created exclusively, removed when the
 * holder stops or exits, and taken over when its holder is gone (a `kill -9`): a pid that no
 * longer runs, or now names another process (its start time differs), holds nothing.
 */
export const LOCK_FILE = 'tracker.lock';

interface Holder {
  pid: number;
  command: string;
  since: string;
  /** The process's start, in clock ticks since boot (Linux), to tell a reused pid. */
  startTicks?: string;
}

export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder,
  ) {
    super(
      `${dataDir} is in use by ${holder.command} (pid ${holder.pid}, since ${holder.since}): stop it first. ` +
        'One program at a time may write a data directory (npm start, npm run seed, npm run import).',
    );
  }
}

export interface DataDirLock {
  file: string;
  release(): void;
}

/** Field 22 of /proc/<pid>/stat; undefined where there is no /proc. */
function startTicksOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isRunning(holder: Holder): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as somebody else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const ticks = startTicksOf(holder.pid);
  return holder.startTicks === undefined || ticks === undefined || ticks === holder.startTicks;
}

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

/** The command line a person would recognise: `npm start`, `npm run seed`, else the script's name. */
export function commandName(argv: readonly string[] = process.argv): string {
  const event = process.env.npm_lifecycle_event;
  if (event) return event === 'start' ? 'npm start' : `npm run ${event}`;
  return argv
    .slice(1, 2)
    .map((part) => basename(part))
    .join(' ');
}

/** Takes the data directory's lock, or throws DataDirInUse naming who holds it. */
export function lockDataDir(dataDir: string, command = commandName()): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  const mine: Holder = {
    pid: process.pid,
    command,
    since: new Date().toISOString(),
    startTicks: startTicksOf(process.pid),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      return held(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    // A file being written this very moment reads as nothing yet: look again.
    if (holder && isRunning(holder)) throw new DataDirInUse(dataDir, holder);
    if (!holder && attempt === 0) continue;
    // Stale: moved aside atomically, so of two programs taking it over only one removes it.
    const aside = `${file}.stale-${process.pid}`;
    try {
      renameSync(file, aside);
    } catch {
      continue;
    }
    const moved = readHolder(aside);
    if (moved && isRunning(moved)) {
      // Another program took it over between our read and our rename: give it back.
      renameSync(aside, file);
      throw new DataDirInUse(dataDir, moved);
    }
    rmSync(aside, { force: true });
  }
  const holder = readHolder(file);
  throw new DataDirInUse(dataDir, holder ?? { pid: 0, command: 'another program', since: 'unknown' });
}

function held(file: string): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only our own lock: never one a later program took over.
    if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
  };
  process.on('exit', release);
  return { file, release };
}
