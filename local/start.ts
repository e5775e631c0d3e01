/**
 * `npm start`: the whole API on http://127.0.0.1:8080/rest and the web app (web/dist, built
 * when missing or stale) on http://127.0.0.1:8080/, on local engines, with data kept
 * under .data/ across restarts, and the notification publisher (bug mail and events into
 * .data/outbox/, webhooks posted). Environment: PORT, TRACKER_DATA_DIR, TRACKER_ADMIN_LOGIN,
 * TRACKER_ADMIN_PASSWORD, TRACKER_ADMIN_API_KEY (the last three apply when the installation is new),
 * TRACKER_WEBHOOKS, TRACKER_EVENT_AUDIENCE. It holds the data directory's lock while it runs
 * (dataDirLock.ts): a seed or an import into it is refused, and so is a second `npm start`.
 */
import { join, resolve } from 'node:path';
import { bootstrapInstallation } from '../shared/application/instance/bootstrapInstallation.ts';
import { compactSearchIndex } from '../shared/application/search/searchCompactor.ts';
import { CALLBACK_PATH, SINGLE_SIGN_ON_ENV } from '../shared/domain/identity/singleSignOn.ts';
import { DEFAULT_ADMIN_LOGIN } from '../shared/domain/instance/installation.ts';
import { LOCAL_OUTBOX_ENV } from '../shared/storage/notification/accountMailOutbox.ts';
import { ENV } from '../shared/storage/tableSchema.ts';
import { startApiGateway } from './apiGatewayEmulator.ts';
import { DataDirInUse } from './dataDirLock.ts';
import { JavaMissingError, type LocalEngines, startEngines } from './engines.ts';
import { startLocalPublisher } from './notification/localPublisher.ts';
import { ensureBucket, ensureTable } from './provision.ts';
import { ensureWebBuilt, isStale, WEB_DIST_DIR } from './webBuild.ts';

// Locally Node 20 is fine; the deployed functions run on Node 22, which the SDK asks for.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(process.env.TRACKER_DATA_DIR ?? '.data');
const tableName = process.env[ENV.table] ?? 'tracker';
const bucketName = process.env[ENV.bucket] ?? 'tracker-attachments';

/** The notification publisher, stopped before the engines it reads. */
let publisher: { stop(): Promise<void> } | undefined;

async function main(): Promise<void> {
  let engines: LocalEngines;
  try {
    engines = await startEngines({ dataDir, command: 'npm start' });
  } catch (error) {
    if (error instanceof JavaMissingError || error instanceof DataDirInUse) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const stop = async (code = 0) => {
    await publisher?.stop();
    await engines.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => stop());
  process.once('SIGTERM', () => stop());
  try {
    await serve(engines);
  } catch (error) {
    // Never leave DynamoDB Local running behind a failed start: it holds the data directory.
    console.error(describeStartFailure(error));
    await stop(1);
  }
}

function describeStartFailure(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use: stop what uses it, or start Tracker with PORT=<another port>.`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function serve(engines: LocalEngines): Promise<void> {
  process.env[ENV.table] = tableName;
  process.env[ENV.bucket] = bucketName;
  process.env[ENV.dynamodbEndpoint] = engines.dynamodbEndpoint;
  process.env[ENV.s3Endpoint] = engines.s3Endpoint;
  // Account mail (sign-up, passwords, e-mail changes) is kept beside the bug mail.
  process.env[LOCAL_OUTBOX_ENV] ??= join(dataDir, 'outbox');
  await ensureTable(engines.dynamodbEndpoint, tableName);
  await ensureBucket(engines.s3Endpoint, bucketName);

  const publicUrl = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  // Single sign-on (TRACKER_OIDC_ISSUER, docs/operations.md): the callback is this server's own page.
  if (process.env[SINGLE_SIGN_ON_ENV.issuer])
    process.env[SINGLE_SIGN_ON_ENV.redirectUri] ??= `${publicUrl}${CALLBACK_PATH}`;
  const installation = await bootstrapInstallation({
    adminLogin: process.env.TRACKER_ADMIN_LOGIN ?? DEFAULT_ADMIN_LOGIN,
    adminPassword: process.env.TRACKER_ADMIN_PASSWORD,
    adminApiKey: process.env.TRACKER_ADMIN_API_KEY,
    urlbase: `${publicUrl}/`,
  });

  const web = await buildWebApp();
  const { url } = await startApiGateway({ port, host, webDir: WEB_DIST_DIR });
  keepSearchSnapshotCurrent();
  publisher = startLocalPublisher({ dataDir, tableName });
  console.log(`Tracker is serving ${url}/rest (data in ${dataDir}; Ctrl-C stops it)`);
  if (web) console.log(`The web app: ${url}/`);
  else console.log(`The web app is not built: run npm run build:web, then open ${url}/`);
  console.log(`Bug mail and events are kept in ${dataDir}/outbox (mail/*.eml, events/*.json)`);
  if (installation.created) {
    console.log('A new installation was created. Its administrator (shown once, keep it):');
    console.log(`  login:    ${installation.admin.login}`);
    console.log(`  password: ${installation.admin.password}`);
    console.log(`  API key:  ${installation.admin.apiKey}`);
    console.log(`Try: curl -H 'X-BUGZILLA-API-KEY: ${installation.admin.apiKey}' ${url}/rest/whoami`);
  } else {
    console.log('Using the existing installation; its administrator API key was printed when it was created.');
  }
}

/** web/dist, built now when missing or older than its sources; false when it could not be. */
async function buildWebApp(): Promise<boolean> {
  try {
    if (await isStale()) console.log('Building the web app (npm run build:web)...');
    const result = await ensureWebBuilt({ output: 'inherit' });
    if (result.state === 'unavailable') console.log(`The web app cannot be built here: ${result.reason}.`);
    return result.state !== 'unavailable';
  } catch (error) {
    console.error(`The web app did not build: ${error instanceof Error ? error.message : error}`);
    return false;
  }
}

/**
 * What the stack's scheduled compactor does on AWS: a fresh search snapshot now (an installation
 * from before the search index gets its first one) and every five minutes after.
 */
function keepSearchSnapshotCurrent(): void {
  const compact = () =>
    compactSearchIndex().catch((error) =>
      console.error(`search snapshot: ${error instanceof Error ? error.message : error}`),
    );
  void compact();
  setInterval(compact, 5 * 60_000).unref();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
