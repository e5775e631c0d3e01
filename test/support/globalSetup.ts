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

interface RunEngines {
  dynamodbEndpoints: string[];
  s3Endpoint: string;
  stop(): Promise<void>;
}

/**
 * The run's engines, shared by the projects that ask for them (integration, browser): each
 * project's global setup runs in this one process, so the first starts them and the last to end
 * stops them. A set per project cost a run two more Java engines to start and warm.
 */
const SHARED = Symbol.for('tracker.test.runEngines');
interface SharedEngines {
  started: Promise<RunEngines>;
  users: number;
}
const registry = globalThis as { [SHARED]?: SharedEngines };

/** A DynamoDB Local (in memory) for each worker, and one s3rver, for the whole run. */
export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const workers = Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
  registry[SHARED] ??= { started: startRunEngines(workers), users: 0 };
  const shared = registry[SHARED];
  shared.users += 1;
  let engines: RunEngines;
  try {
    engines = await shared.started;
  } catch (error) {
    shared.users -= 1;
    if (registry[SHARED] === shared) delete registry[SHARED];
    throw error;
  }
  project.provide('dynamodbEndpoints', engines.dynamodbEndpoints);
  project.provide('s3Endpoint', engines.s3Endpoint);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    if (registry[SHARED] === shared) delete registry[SHARED];
    await engines.stop();
  };
}

async function startRunEngines(workers: number): Promise<RunEngines> {
  const scratchDir = mkdtempSync(join(tmpdir(), 'tracker-test-s3-'));
  const started = await Promise.allSettled([
    startEngines({ scratchDir }),
    ...Array.from({ length: workers - 1 }, () => startDynamodbLocal()),
  ]);
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(running.map((engine) => engine.stop()));
    rmSync(scratchDir, { recursive: true, force: true });
    throw failed.reason;
  }
  const [engines, ...more] = running as [LocalEngines, ...Array<{ endpoint: string; stop(): Promise<void> }>];
  return {
    dynamodbEndpoints: [engines.dynamodbEndpoint, ...more.map((engine) => engine.endpoint)],
    s3Endpoint: engines.s3Endpoint,
    async stop() {
      await Promise.all([engines.stop(), ...more.map((engine) => engine.stop())]);
      rmSync(scratchDir, { recursive: true, force: true });
    },
  };
}
