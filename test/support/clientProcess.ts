import { spawn } from 'node:child_process';

/** How a client command ended. */
export interface ClientOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a real client (`bugzilla`, `bugz`, a Python script) without blocking this process, which
 * serves the API it calls. Standard input gets `input` and is then closed, so a client that
 * reads it (`bugzilla attach` reads a file from it whenever it is not a terminal) gets it, and
 * one that would prompt fails instead of waiting. HOME is the test's own, for the clients' config.
 */
export function runClient(
  command: string,
  args: readonly string[],
  options: { cwd: string; home: string; input?: string },
): Promise<ClientOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, HOME: options.home, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' },
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
