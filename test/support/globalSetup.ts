import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEngines } from '../../local/engines.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
  }
}

/** One DynamoDB Local (in memory) and one s3rver for the whole run. */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const scratchDir = mkdtempSync(join(tmpdir(), 'tracker-test-s3-'));
  const engines = await startEngines({ scratchDir });
  project.provide('dynamodbEndpoint', engines.dynamodbEndpoint);
  project.provide('s3Endpoint', engines.s3Endpoint);
  return async () => {
    await engines.stop();
    rmSync(scratchDir, { recursive: true, force: true });
  };
}
