import { afterAll } from 'vitest';

/**
 * The environment as the file found it, put back when it ends: the files of a project run one
 * after another in a shared process (vitest.config.ts), and a variable one file sets (a table's
 * name, a Lambda variable, a switch) must not reach the next file or the programs it starts.
 * Put back key by key, never by replacing process.env: the process's real environment, which
 * os.tmpdir() and child processes read, would then no longer follow it.
 *
 * First among the setup files, so that it runs after every other file's end hooks.
 */
const found = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in found)) delete process.env[key];
  for (const [key, value] of Object.entries(found)) if (process.env[key] !== value) process.env[key] = value;
});
