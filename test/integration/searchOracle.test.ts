import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_TOOL_REQUEST_TIMEOUT_MS } from '../../local/bulkToolTimeouts.ts';
import { runImport } from '../../local/import/runImport.ts';
import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';
import { dropSearchIndex } from '../../shared/application/search/searchIndexHolder.ts';
import { SDK_TIMEOUT_ENV } from '../../shared/storage/sdkTimeouts.ts';
import { copyInstallation, freshStorage, startAppProcess, testAppStorage } from '../support/appProcess.ts';
import {
  buildOracleInstallation,
  call,
  inParallel,
  type OracleInstallation,
} from '../support/searchOracle/oracleInstallation.ts';
import { checkSearches, type ShownByCaller } from '../support/searchOracle/searchOracle.ts';
import { ok } from '../support/testAccounts.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * A differential oracle for search (docs/data-model.md §8.7): an installation of over a thousand
 * bugs built through the API, searched at random as an administrator, an insider, an outsider
 * and an anonymous caller, each answer compared with a brute-force evaluation over the bugs as
 * Get Bug shows them to that caller. Run in each life of the search index: built by writes,
 * loaded from the compactor's snapshot (its deferred parts read after the first answer), with
 * writes between the load and the searches, loaded again after a second restart, after an import
 * and with bugs filed after it. The size passes the index's first boundary (its columns' first
 * 1,024 slots); test/unit/searchIndexLives.test.ts takes the index's lives past the others at
 * 25,000 bugs. A failure prints the seed and the part of the search that disagrees:
 * `SEARCH_ORACLE_SEED=<seed> npx vitest run test/integration/searchOracle.test.ts`.
 */

// This file writes and imports in bulk, as the seed and import tools do: it gets their longer
// attempt at a storage call (bulkToolTimeouts.ts), set before the first client is made. A loaded
// machine's DynamoDB Local takes longer than the suite's 6 s over a batch of an import's items.
process.env[SDK_TIMEOUT_ENV.requestTimeoutMs] = String(BULK_TOOL_REQUEST_TIMEOUT_MS);

// 1,024 + 128: a column's first 1,024 slots and an eighth of the next block. Every size past
// the boundary proves the same.
const BUGS = Number(process.env.SEARCH_ORACLE_BUGS ?? 1_152);
// Searches per caller in each life: 24 × 4 callers × 4 lives, each run with a new seed. The
// searches are most of the file's time (measured 2026-11-30 alone: building the installation
// 18 s, the searches 70 s at 40 per caller), mostly those over comment text, which read every
// undecided bug's comments; the file is the suite's longest. SEARCH_ORACLE_RUNS=200 for a soak.
const RUNS = Number(process.env.SEARCH_ORACLE_RUNS ?? 24);

let app: TestApp;
/** The installation the import life imports into (startTestApp points this process at it). */
let target: TestApp | undefined;
let installation: OracleInstallation;
/** What Get Bug shows each caller, kept across the lives in which no bug changes. */
const shown: ShownByCaller = new Map();

beforeAll(async () => {
  app = await startTestApp();
  installation = await buildOracleInstallation(app, BUGS);
}, 900_000);

afterAll(async () => {
  await target?.close();
  await app?.close();
});

/** Files `count` bugs with aliases `<prefix><n>` (every other one restricted) and adds them to the installation. */
async function fileLateBugs(into: OracleInstallation, on: TestApp, key: string, prefix: string, count: number) {
  const filed: number[] = [];
  await inParallel(
    Array.from({ length: count }, (_, n) => n),
    4,
    async (n) => {
      const { id } = await ok(
        call(on, 'POST', '/rest/bug', {
          apiKey: key,
          body: {
            product: n % 2 === 0 ? 'Vault' : 'Alpha',
            component: n % 2 === 0 ? 'Core' : 'Engine',
            version: '1.0',
            summary: `obsidian walnut ${prefix} n${n}`,
            description: `filed ${prefix}`,
            op_sys: 'Linux',
            platform: 'PC',
            alias: `${prefix}${n}`,
            whiteboard: 'wb1',
            ...(n % 2 === 0 ? { groups: ['vaulters'] } : {}),
          },
        }),
      );
      filed.push(id);
      into.aliases.push(`${prefix}${n}`);
    },
  );
  // The installation's bugs stay in id order.
  into.bugs.push(...filed.sort((a, b) => a - b));
}

/** A new search instance after the compactor ran: it loads the snapshot, not the change log. */
async function restart() {
  await compactSearchIndex();
  dropSearchIndex();
}

describe('search against a brute-force oracle', () => {
  it('agrees in an index built by writes', async () => {
    dropSearchIndex();
    await checkSearches(installation, { runs: RUNS, life: 'built by writes', shown });
  }, 600_000);

  it('agrees after a restart loads the snapshot, its parts read after the first answer', async () => {
    await restart();
    await checkSearches(installation, { runs: RUNS, life: 'loaded from a snapshot', shown });
  }, 600_000);

  it('agrees with writes between the load and the searches', async () => {
    await restart();
    // Bugs past the first 1,024 slots change group, alias and whiteboard; new bugs join them.
    const admin = installation.keys.admin!;
    const late = installation.bugs.slice(1_030).filter((_, at) => at % 41 === 0);
    await inParallel(late, 4, async (id) => {
      await ok(
        call(app, 'PUT', `/rest/bug/${id}`, {
          apiKey: admin,
          body: { alias: `late${id}`, whiteboard: 'wb9 moved', keywords: { set: ['perf'] } },
        }),
      );
    });
    await fileLateBugs(installation, app, admin, 'afterload', 40);
    installation.aliases.push(...late.map((id) => `late${id}`));
    shown.clear();
    await checkSearches(installation, { runs: RUNS, life: 'written to after a snapshot load', shown });
  }, 600_000);

  it('agrees after a second restart', async () => {
    await restart();
    await checkSearches(installation, { runs: RUNS, life: 'after a second restart', shown });
  }, 600_000);

  // Last: the target takes this process's storage over (startTestApp), so the first installation is done with.
  // Not in every run: importing 1,152 bugs from a Tracker source takes 7 to 13 minutes on a
  // two-core machine (DynamoDB Local's CPU), longer than the rest of the suite's longest file.
  it.runIf(process.env.SEARCH_ORACLE_IMPORT === '1')(
    'agrees after an import, and with bugs filed after it',
    async () => {
      const copy = freshStorage();
      await copyInstallation(testAppStorage(), copy);
      const source = await startAppProcess(copy);
      try {
        target = await startTestApp();
        // A run that storage stalls on stops after its last committed batch; the next resumes there,
        // as an operator's rerun does (a busy machine's DynamoDB Local can time a write out).
        let report: Awaited<ReturnType<typeof runImport>> | undefined;
        for (let attempt = 0; attempt < 5 && (!report || report.interrupted); attempt++)
          report = await runImport({
            from: `${source.url}/rest`,
            apiKey: installation.keys.admin!,
            target: testAppStorage(),
            connections: 4,
          });
        expect(report!.interrupted, JSON.stringify(report, null, 1).slice(0, 4_000)).toBe(false);
      } finally {
        await source.close();
      }
      const admin = target.admin.apiKey;
      const keyOf = async (login: string) => {
        const { users } = await ok(call(target!, 'GET', '/rest/user', { apiKey: admin, query: { names: login } }));
        return (await ok(call(target!, 'POST', `/rest/user/${users[0].id}/api_key`, { apiKey: admin, body: {} })))
          .api_key;
      };
      await ok(
        call(target, 'PUT', `/rest/user/${target.admin.id}`, {
          apiKey: admin,
          body: { groups: { add: ['insiders', 'planners', 'vaulters', 'keepers'] } },
        }),
      );
      const imported: OracleInstallation = {
        ...installation,
        app: target,
        keys: {
          admin,
          insider: await keyOf(installation.logins.insider),
          outsider: await keyOf(installation.logins.outsider),
          anonymous: undefined,
        },
      };
      await checkSearches(imported, { runs: RUNS, life: 'after an import' });

      // Bugs filed on the imported installation, with aliases, some restricted.
      await fileLateBugs(imported, target, admin, 'afterimport', 20);
      await checkSearches(imported, { runs: RUNS, life: 'written to after an import' });
    },
    900_000,
  );
});
