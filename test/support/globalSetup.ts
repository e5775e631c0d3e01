import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type LocalEngines, startDynamodbLocal, startEngines } from '../../local/engines.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One in-memory DynamoDB Local per worker (test/support/testEngines.ts picks a worker's). */
    dynamodbEndpoints: string[];
    s3Endpoint: string;
  }
}

/** A DynamoDB Local (in memory) for each worker, and one s3rver, for the whole run. */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const scratchDir = mkdtempSync(join(tmpdir(), 'tracker-test-s3-'));
  const workers = Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
  const started = await Promise.allSettled([
    startEngines({ scratchDir }),
    ...Array.from({ length: workers - 1 }, () => startDynamodbLocal()),
  ]);
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(running.map((engine) => engine.stop()));
    throw failed.reason;
  }
  const [engines, ...more] = running as [LocalEngines, ...Array<{ endpoint: string; stop(): Promise<void> }>];
  project.provide('dynamodbEndpoints', [engines.dynamodbEndpoint, ...more.map((engine) => engine.endpoint)]);
  project.provide('s3Endpoint', engines.s3Endpoint);
  return async () => {
    await Promise.all([engines.stop(), ...more.map((engine) => engine.stop())]);
    rmSync(scratchDir, { recursive: true, force: true });
  };
}
