/**
 * CPU time and peak memory of the API server and the DynamoDB Local JVM, read from /proc, so the
 * report can say what each process spent during a scenario (Linux only; undefined elsewhere).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** utime + stime of a process in seconds, from /proc (Linux only; undefined elsewhere). */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / clockTicks();
  } catch {
    return undefined;
  }
}

let cachedClockTicks: number | undefined;
function clockTicks(): number {
  if (cachedClockTicks === undefined) {
    const probe = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    cachedClockTicks = Number(probe.stdout?.trim()) || 100;
  }
  return cachedClockTicks;
}

/** Peak resident memory (VmHWM) of a process, from /proc. */
export function peakRss(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The DynamoDB Local JVM: our own child process whose command is java (engines.ts does not expose it). */
export function findJavaChild(): number | undefined {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === process.pid && comm === 'java') return Number(entry);
      } catch {
        // the process went away
      }
    }
  } catch {
    // no /proc
  }
  return undefined;
}
