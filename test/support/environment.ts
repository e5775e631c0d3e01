/**
 * Puts the process's environment back to `found` (a copy taken earlier), key by key. Never by
 * replacing process.env: the process's real environment, which os.tmpdir() and child processes
 * read, would then no longer follow the object.
 */
export function putBackEnvironment(found: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(process.env)) if (!(key in found)) delete process.env[key];
  for (const [key, value] of Object.entries(found)) if (process.env[key] !== value) process.env[key] = value;
}
