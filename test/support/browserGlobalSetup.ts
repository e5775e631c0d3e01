import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWebInto } from '../../local/webBuild.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The web app built once for the browser project's files (test/support/browserApp.ts). */
    webDir: string;
  }
}

/**
 * Builds the web app once for the whole browser project, into a directory of its own: web/dist
 * may be rebuilt (new hashed names) while the run goes on, and a build per test file cost each
 * file a child `npm run build:web` (seconds on a busy machine, eleven times over).
 */
export default async function setup(project: TestProject) {
  const webDir = mkdtempSync(join(tmpdir(), 'tracker-web-'));
  await buildWebInto(webDir);
  project.provide('webDir', webDir);
  return () => rmSync(webDir, { recursive: true, force: true });
}
