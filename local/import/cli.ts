/**
 * `npm run import -- --from <url>/rest --api-key <key> [...]` (and `npx tracker-import`): the
 * command line of runImport.ts. It opens the target (the local installation in --data-dir, with
 * `npm start` stopped, or a deployed stack's table and bucket), shows progress, turns Ctrl-C into
 * "abandon the requests in flight and stop" (a second Ctrl-C quits at once), prints the report and writes it
 * as JSON with --report.
 */
import { writeFile } from 'node:fs/promises';
import { ZodError } from 'zod';
import { relaxSdkTimeoutsForBulkTool } from '../bulkToolTimeouts.ts';
import type { LocalTarget } from './destination/localTarget.ts';
import { ImportRefusal } from './importErrors.ts';
import { consoleProgress } from './progress.ts';
import { renderReport, reportJson } from './report.ts';

export const USAGE = `Usage: npm run import -- --from <bugzilla>/rest --api-key <key> [options]
       npx tracker-import --from <bugzilla>/rest --api-key <key> [options]

Copies a Bugzilla (5.0, 5.2, Harmony/BMO) or a Tracker into Tracker, keeping every id and time:
groups, users (without passwords), the catalogue, legal values and workflow, and every bug with
its comments, attachments, flags and history. Rerun the same command to resume an interrupted
import, or, after a finished one, to bring what changed on the source since.

  --from URL          the source's REST API root, e.g. https://bugzilla.example.org/rest
  --api-key KEY       an API key of a source administrator (or BUGZILLA_API_KEY)
  --data-dir DIR      import into the local installation in DIR (default .data; stop npm start first)
  --stack NAME        import into a deployed stack, with your AWS credentials and region
  --connections N     requests in flight to the source (default 8)
  --since TIME        only bugs changed at or after TIME (e.g. 2024-05-01T00:00:00Z)
  --dry-run           read and convert everything, write nothing, report
  --report FILE       also write the report as JSON to FILE
  --allow-partial     go on with a key that is not an administrator's (the report lists what is missing)
  --batch-size N      bugs per batch and checkpoint (default 100)
  --retry-minutes N   keep retrying a source that is down or failing for N minutes (default 10)
  --max-answer-mb N   refuse an answer from the source larger than N MiB (default 128)
  --max-users N       refuse a source that lists more than N users (default 1000000)
  --same-source-as URL  the target's import came from URL, which now answers at --from
                      (a moved or renamed source; localhost and 127.0.0.1 count as the same)
  --overwrite-target-edits  in an update, write again imported bugs changed on the target
                      since the import wrote them (refused otherwise; the report lists them)
  --verify            after the import, compare every bug on both sides through the REST API
  --verify-sample N   the same for N random bugs
  --target-url URL    with --verify on a deployed stack: its REST root (the ApiUrl output + /rest)
  --target-api-key K  with --target-url: a key of an administrator on the target
  --help              this text
`;

export interface CliOptions {
  from: string;
  apiKey: string;
  dataDir: string;
  stack: string | null;
  connections: number;
  since: string | null;
  dryRun: boolean;
  report: string | null;
  allowPartial: boolean;
  overwriteTargetEdits: boolean;
  batchSize: number;
  /** Compare both sides after the import: 'all', a sample size, or null for no check. */
  verify: 'all' | number | null;
  targetUrl: string | null;
  targetApiKey: string | null;
  retryMinutes: number;
  sameSourceAs: string | null;
  maxAnswerMb: number;
  maxUsers: number;
}

export class UsageError extends Error {}

const FLAGS = new Set(['--dry-run', '--allow-partial', '--overwrite-target-edits', '--verify', '--help', '-h']);
const VALUES = new Set([
  '--from',
  '--api-key',
  '--data-dir',
  '--stack',
  '--connections',
  '--since',
  '--report',
  '--batch-size',
  '--verify-sample',
  '--target-url',
  '--target-api-key',
  '--retry-minutes',
  '--same-source-as',
  '--max-answer-mb',
  '--max-users',
]);

/** The options, or null for --help; a UsageError says what is wrong. */
export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions | null {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let index = 0; index < argv.length; index++) {
    const [name, inline] = argv[index].split(/=(.*)/s, 2) as [string, string | undefined];
    if (FLAGS.has(name)) flags.add(name);
    else if (VALUES.has(name)) {
      const value = inline ?? argv[++index];
      if (value === undefined || (inline === undefined && value.startsWith('--')))
        throw new UsageError(`${name} needs a value.`);
      values.set(name, value);
    } else throw new UsageError(`Unknown option ${argv[index]}.`);
  }
  if (flags.has('--help') || flags.has('-h')) return null;
  const from = values.get('--from');
  if (!from) throw new UsageError('--from is required: the source REST API, e.g. https://bugzilla.example.org/rest');
  if (!/^https?:\/\//.test(from)) throw new UsageError(`--from must be an http(s) URL, not ${from}.`);
  const apiKey = values.get('--api-key') ?? env.BUGZILLA_API_KEY;
  if (!apiKey) throw new UsageError('--api-key is required (or BUGZILLA_API_KEY): a key of a source administrator.');
  if (values.has('--data-dir') && values.has('--stack')) throw new UsageError('Give --data-dir or --stack, not both.');
  const number = (name: string, fallback: number, max: number) => {
    const text = values.get(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw new UsageError(`${name} must be a whole number from 1 to ${max}, not ${text}.`);
    return value;
  };
  const verifying = flags.has('--verify') || values.has('--verify-sample');
  if (verifying && values.has('--stack') && !values.has('--target-url'))
    throw new UsageError('--verify on a deployed stack needs --target-url and --target-api-key.');
  if (values.has('--target-url') !== values.has('--target-api-key'))
    throw new UsageError('--target-url and --target-api-key go together.');
  const since = values.get('--since') ?? null;
  if (since !== null && !Number.isFinite(Date.parse(since)))
    throw new UsageError(`--since must be a date and time, e.g. 2024-05-01T00:00:00Z, not ${since}.`);
  return {
    from: from.replace(/\/+$/, ''),
    apiKey,
    dataDir: values.get('--data-dir') ?? env.TRACKER_DATA_DIR ?? '.data',
    stack: values.get('--stack') ?? null,
    connections: number('--connections', 8, 256),
    since: since === null ? null : new Date(since).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    dryRun: flags.has('--dry-run'),
    report: values.get('--report') ?? null,
    allowPartial: flags.has('--allow-partial'),
    overwriteTargetEdits: flags.has('--overwrite-target-edits'),
    batchSize: number('--batch-size', 100, 500),
    verify: values.has('--verify-sample')
      ? number('--verify-sample', 100, 1_000_000)
      : flags.has('--verify')
        ? 'all'
        : null,
    targetUrl: values.get('--target-url')?.replace(/\/+$/, '') ?? null,
    targetApiKey: values.get('--target-api-key') ?? null,
    retryMinutes: number('--retry-minutes', 10, 10_080),
    sameSourceAs: values.get('--same-source-as')?.replace(/\/+$/, '') ?? null,
    maxAnswerMb: number('--max-answer-mb', 128, 4096),
    maxUsers: number('--max-users', 1_000_000, 100_000_000),
  };
}

async function verifyImported(options: CliOptions, account: string | null, progress: { log(line: string): void }) {
  const { verifyTarget } = await import('./verifyTarget.ts');
  progress.log('Verifying: reading both sides through the REST API...');
  const verification = await verifyTarget({
    from: options.from,
    apiKey: options.apiKey,
    connections: options.connections,
    sample: options.verify === 'all' ? undefined : (options.verify ?? undefined),
    targetUrl: options.targetUrl ?? undefined,
    targetApiKey: options.targetApiKey ?? undefined,
    account,
    retryForMs: options.retryMinutes * 60_000,
  });
  process.stdout.write(`\n${verification.text}\n`);
  return verification;
}

async function main(): Promise<number> {
  let options: CliOptions | null;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    process.stdout.write(USAGE);
    return 0;
  }
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // Set by the local API Gateway for its own process and inherited by what it (or a test that
  // runs it) starts: Powertools would then demand Lambda's per-invocation store, which a command
  // line tool has not, and the import would end before its first request.
  delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  relaxSdkTimeoutsForBulkTool();
  process.env.TRACKER_REQUEST_LOG = 'off';
  const { runImport } = await import('./runImport.ts');
  const { openLocalTarget, TargetInUse } = await import('./destination/localTarget.ts');
  const { stackTarget } = await import('./destination/stackTarget.ts');
  const { ImportStopped } = await import('./source/sourceErrors.ts');
  const progress = consoleProgress();
  const stop = new AbortController();
  let local: LocalTarget | null = null;
  process.on('SIGINT', () => {
    if (stop.signal.aborted) {
      // A second Ctrl-C: quit now, and take the engines along (they run in a group of their own).
      void (local?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
      return;
    }
    progress.log(
      '\nStopping: requests to the source are abandoned, batches already written stay (Ctrl-C again to quit at once; a rerun resumes).',
    );
    stop.abort();
  });
  const openTarget = async () => {
    local = options.stack ? null : await openLocalTarget(options.dataDir, { create: !options.dryRun });
    return local ?? (await stackTarget(options.stack!));
  };
  let imported = false;
  try {
    const report = await runImport({
      from: options.from,
      sameSourceAs: options.sameSourceAs ?? undefined,
      apiKey: options.apiKey,
      connections: options.connections,
      since: options.since ?? undefined,
      dryRun: options.dryRun,
      allowPartial: options.allowPartial,
      overwriteTargetEdits: options.overwriteTargetEdits,
      batchSize: options.batchSize,
      retryForMs: options.retryMinutes * 60_000,
      maxAnswerBytes: options.maxAnswerMb * 1024 * 1024,
      maxUsers: options.maxUsers,
      target: openTarget,
      prepareTarget: async () => {
        const opened = local as LocalTarget | null;
        if (!opened) return;
        await opened.bootstrap();
        if (opened.created)
          progress.log(
            `A new installation was created in ${options.dataDir}. Administrator: ${opened.created.login} / ${opened.created.password} / API key ${opened.created.apiKey}`,
          );
      },
      signal: stop.signal,
      progress,
    });
    imported = true;
    process.stdout.write(`\n${renderReport(report)}`);
    const verification =
      options.verify !== null && !options.dryRun && !report.interrupted
        ? await verifyImported(options, report.source.account, progress)
        : null;
    if (options.report) {
      const json = JSON.parse(reportJson(report));
      await writeFile(options.report, `${JSON.stringify({ ...json, verification: verification?.result }, null, 2)}\n`);
    }
    if (report.error) return 1;
    if (report.interrupted) return 3;
    return verification && !verification.equal ? 4 : 0;
  } catch (error) {
    if (error instanceof ImportStopped) {
      process.stderr.write(
        'Stopped (Ctrl-C) before any bug was written by this run; run the same command again to resume.\n',
      );
      return 130;
    }
    if (error instanceof ImportRefusal || error instanceof TargetInUse) {
      const opened = local as LocalTarget | null;
      const note = opened?.newTable
        ? `Nothing was imported; ${options.dataDir} holds only an empty table (delete it if it is not wanted).`
        : 'Nothing was written.';
      process.stderr.write(`${error.message}\n${note}\n`);
      return 2;
    }
    // Anything else before the bugs (the source gone while its catalogue was read, an answer
    // that cannot be read): one sentence, and what a rerun does.
    process.stderr.write(
      imported
        ? `The verification stopped: ${describe(error)}\nThe import itself finished (see the report above).\n`
        : `The import stopped: ${describe(error)}\nNo bug was written by this run; run the same command again to resume.\n`,
    );
    if (process.env.TRACKER_IMPORT_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    return 1;
  } finally {
    await (local as LocalTarget | null)?.stop();
  }
}

function describe(error: unknown): string {
  if (error instanceof ZodError)
    return `the source answered something the importer cannot read (${error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ')})`;
  return error instanceof Error ? error.message : String(error);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
      process.exit(1);
    },
  );
}
