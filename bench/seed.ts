/**
 * `npm run seed -- --bugs 100000 [--seed 1] [--data-dir .data] [--api-key KEY]`: the command line of
 * bench/seedInstallation.ts. It opens the local installation in --data-dir (stop `npm start` first),
 * creates it if needed, serves the API on a free port for the catalogue writes, and seeds it.
 */

import { relaxSdkTimeoutsForBulkTool } from '../local/bulkToolTimeouts.ts';
import { seedInstallation } from './seedInstallation.ts';

const USAGE = `Usage: npm run seed -- [--bugs 10000] [--seed 1] [--data-dir .data] [--api-key KEY]

Loads a realistic installation into the local data directory (stop \`npm start\` first): a
catalogue through the API, then --bugs generated bugs straight to the table and one search
snapshot. The same --seed and sizes give the same installation.

  --bugs N         bugs to generate (10000)
  --seed N         seed of the generator (1)
  --data-dir DIR   the local installation (TRACKER_DATA_DIR, or .data); created if needed
  --api-key KEY    the administrator's API key, needed when the installation already exists
                   (TRACKER_ADMIN_API_KEY)
  --help           this text
`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  const option = (name: string) => {
    const position = args.indexOf(`--${name}`);
    return position >= 0 ? args[position + 1] : undefined;
  };
  const bugs = Number(option('bugs') ?? 10_000);
  const seed = Number(option('seed') ?? 1);
  const dataDir = option('data-dir') ?? process.env.TRACKER_DATA_DIR ?? '.data';
  const { resolve } = await import('node:path');
  const { startEngines } = await import('../local/engines.ts');
  const { ensureBucket, ensureTable } = await import('../local/provision.ts');
  const { startApiGateway } = await import('../local/apiGatewayEmulator.ts');
  const { bootstrapInstallation } = await import('../shared/application/instance/bootstrapInstallation.ts');
  const { ENV } = await import('../shared/storage/tableSchema.ts');
  const engines = await startEngines({ dataDir: resolve(dataDir), command: 'npm run seed' });
  try {
    process.env[ENV.table] ??= 'tracker';
    process.env[ENV.bucket] ??= 'tracker-attachments';
    process.env[ENV.dynamodbEndpoint] = engines.dynamodbEndpoint;
    process.env[ENV.s3Endpoint] = engines.s3Endpoint;
    process.env.TRACKER_REQUEST_LOG = 'off';
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    relaxSdkTimeoutsForBulkTool();
    await ensureTable(engines.dynamodbEndpoint, process.env[ENV.table]!);
    await ensureBucket(engines.s3Endpoint, process.env[ENV.bucket]!);
    const { DEFAULT_ADMIN_LOGIN } = await import('../shared/domain/instance/installation.ts');
    const installation = await bootstrapInstallation({
      adminLogin: process.env.TRACKER_ADMIN_LOGIN ?? DEFAULT_ADMIN_LOGIN,
      adminApiKey: option('api-key') ?? process.env.TRACKER_ADMIN_API_KEY,
    });
    const apiKey = installation.created
      ? installation.admin.apiKey
      : (option('api-key') ?? process.env.TRACKER_ADMIN_API_KEY);
    if (!apiKey)
      throw new Error('This installation already exists: give its administrator API key with --api-key KEY.');
    if (installation.created)
      console.log(
        `A new installation was created. Administrator: ${installation.admin.login} / ${installation.admin.password} / API key ${installation.admin.apiKey}`,
      );
    const { server, url } = await startApiGateway({ port: 0 });
    try {
      const report = await seedInstallation({
        bugs,
        seed,
        url,
        apiKey,
        log: (message) => console.log(`[seed] ${message}`),
      });
      console.log(
        JSON.stringify({
          bugs: report.bugs,
          users: report.users,
          items: report.items,
          seconds: Number(report.seconds.toFixed(1)),
        }),
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  } finally {
    await engines.stop();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
