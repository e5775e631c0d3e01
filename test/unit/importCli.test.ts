import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from 'vitest';
import { parseArgs, USAGE, UsageError } from '../../local/import/cli.ts';
import { stackTarget } from '../../local/import/destination/stackTarget.ts';
import { idRanges } from '../../local/import/report.ts';

/** The importer's command line: options, defaults, --help and clear errors; and --stack's outputs. */
const required = ['--from', 'https://bugzilla.example.org/rest/', '--api-key', 'KEY'];

describe('import command line', () => {
  it('reads every option, with defaults for the rest', () => {
    expect(parseArgs(required, {})).toEqual({
      from: 'https://bugzilla.example.org/rest',
      apiKey: 'KEY',
      dataDir: '.data',
      stack: null,
      connections: 8,
      since: null,
      dryRun: false,
      report: null,
      allowPartial: false,
      overwriteTargetEdits: false,
      batchSize: 100,
      verify: null,
      targetUrl: null,
      targetApiKey: null,
      retryMinutes: 10,
      sameSourceAs: null,
      maxAnswerMb: 128,
      maxUsers: 1_000_000,
    });
    expect(parseArgs([...required, '--max-answer-mb', '16', '--max-users', '500'], {})).toMatchObject({
      maxAnswerMb: 16,
      maxUsers: 500,
    });
    expect(parseArgs([...required, '--verify'], {})).toMatchObject({ verify: 'all' });
    expect(parseArgs([...required, '--overwrite-target-edits'], {})).toMatchObject({ overwriteTargetEdits: true });
    expect(
      parseArgs(
        [
          ...required,
          '--stack',
          's',
          '--verify-sample',
          '25',
          '--target-url',
          'https://t/rest/',
          '--target-api-key',
          'T',
        ],
        {},
      ),
    ).toMatchObject({ verify: 25, targetUrl: 'https://t/rest', targetApiKey: 'T' });
    expect(
      parseArgs(
        [
          ...required,
          '--stack=tracker-prod',
          '--connections',
          '32',
          '--since',
          '2024-05-01 10:00:00Z',
          '--dry-run',
          '--report',
          'out.json',
          '--allow-partial',
          '--batch-size',
          '50',
        ],
        {},
      ),
    ).toMatchObject({
      stack: 'tracker-prod',
      connections: 32,
      since: '2024-05-01T10:00:00Z',
      dryRun: true,
      report: 'out.json',
      allowPartial: true,
      batchSize: 50,
    });
    expect(
      parseArgs(['--from', 'http://b.example/rest'], { BUGZILLA_API_KEY: 'ENV', TRACKER_DATA_DIR: 'd' }),
    ).toMatchObject({
      apiKey: 'ENV',
      dataDir: 'd',
    });
  });

  it('answers --help with null, and the usage names every option', () => {
    expect(parseArgs(['--help'], {})).toBeNull();
    expect(parseArgs([...required, '-h'], {})).toBeNull();
    for (const option of [
      '--from',
      '--api-key',
      '--data-dir',
      '--stack',
      '--connections',
      '--since',
      '--dry-run',
      '--report',
      '--allow-partial',
      '--verify',
      '--verify-sample',
      '--target-url',
      '--target-api-key',
    ])
      expect(USAGE).toContain(option);
  });

  it('says what is wrong', () => {
    const error = (argv: string[]) => {
      try {
        parseArgs(argv, {});
      } catch (caught) {
        expect(caught).toBeInstanceOf(UsageError);
        return (caught as Error).message;
      }
      return 'no error';
    };
    expect(error([])).toMatch(/--from is required/);
    expect(error(['--from', 'bugzilla.example.org'])).toMatch(/http\(s\) URL/);
    expect(error(['--from', 'https://b.example/rest'])).toMatch(/--api-key is required/);
    expect(error([...required, '--data-dir', 'd', '--stack', 's'])).toMatch(/not both/);
    expect(error([...required, '--connections', '0'])).toMatch(/whole number from 1/);
    expect(error([...required, '--since', 'yesterday'])).toMatch(/date and time/);
    expect(error([...required, '--report'])).toMatch(/needs a value/);
    expect(error([...required, '--verbose'])).toMatch(/Unknown option --verbose/);
    expect(error([...required, '--stack', 's', '--verify'])).toMatch(/needs --target-url/);
    expect(error([...required, '--target-url', 'https://t/rest'])).toMatch(/go together/);
    expect(error([...required, '--verify-sample', '0'])).toMatch(/whole number from 1/);
  });
});

describe('report', () => {
  it('lists hidden bugs as id ranges', () => {
    expect(idRanges([7, 1, 2, 3, 3, 9, 10])).toEqual(['1-3', '7', '9-10']);
  });
});

describe('--stack', () => {
  const fake = (outputs: Record<string, string>) =>
    ({
      send: async () => ({
        Stacks: [{ Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })) }],
      }),
      destroy() {},
    }) as unknown as CloudFormationClient;

  it("reads the table and bucket from the stack's outputs", async () => {
    expect(await stackTarget('prod', fake({ TableName: 't', BucketName: 'b', ApiUrl: 'u' }))).toMatchObject({
      table: 't',
      bucket: 'b',
    });
  });

  it('says when the stack is older than those outputs', async () => {
    await expect(stackTarget('prod', fake({ ApiUrl: 'u' }))).rejects.toThrow(/no TableName and BucketName outputs/);
  });
});
