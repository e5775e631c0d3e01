import { afterAll, beforeAll, describe, it } from 'vitest';
import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';
import { dropSearchIndex } from '../../shared/application/search/searchIndexHolder.ts';
import {
  buildOracleInstallation,
  inParallel,
  type OracleInstallation,
} from '../support/searchOracle/oracleInstallation.ts';
import { checkSearches } from '../support/searchOracle/searchOracle.ts';
import { ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * A differential oracle for search (docs/data-model.md §8.7): an installation of thousands of
 * bugs built through the API, searched at random as an administrator, an insider, an outsider
 * and an anonymous caller, each answer compared with a brute-force evaluation over the bugs as
 * Get Bug shows them to that caller. Run in each life of the search index: built by writes,
 * loaded from the compactor's snapshot (its deferred parts read after the first answer), with
 * writes between the load and the searches, and loaded again after a second restart. The sizes
 * pass the index's first boundaries (its columns' first 1,024 slots, kept results from 2,048).
 * A failure prints the seed: `SEARCH_ORACLE_SEED=<seed> npx vitest run test/integration/searchOracle.test.ts`.
 */

const BUGS = Number(process.env.SEARCH_ORACLE_BUGS ?? 2_600);
const RUNS = Number(process.env.SEARCH_ORACLE_RUNS ?? 40);

let app: TestApp;
let installation: OracleInstallation;

beforeAll(async () => {
  app = await startTestApp();
  installation = await buildOracleInstallation(app, BUGS);
}, 900_000);

afterAll(() => app?.close());

/** A new search instance after the compactor ran: it loads the snapshot, not the change log. */
async function restart() {
  await compactSearchIndex();
  dropSearchIndex();
}

describe('search against a brute-force oracle', () => {
  it('agrees in an index built by writes', async () => {
    dropSearchIndex();
    await checkSearches(installation, { runs: RUNS, life: 'built by writes' });
  }, 600_000);

  it('agrees after a restart loads the snapshot, its parts read after the first answer', async () => {
    await restart();
    await checkSearches(installation, { runs: RUNS, life: 'loaded from a snapshot' });
  }, 600_000);

  it('agrees with writes between the load and the searches', async () => {
    await restart();
    // Bugs past the first 1,024 slots change group, alias and whiteboard; new bugs join them.
    const admin = installation.keys.admin!;
    const late = installation.bugs.slice(1_100).filter((_, at) => at % 97 === 0);
    await inParallel(late, 4, async (id) => {
      await ok(
        call(app, 'PUT', `/rest/bug/${id}`, {
          apiKey: admin,
          body: { alias: `late${id}`, whiteboard: 'wb9 moved', keywords: { set: ['perf'] } },
        }),
      );
    });
    for (let n = 0; n < 40; n++) {
      const { id } = await ok(
        call(app, 'POST', '/rest/bug', {
          apiKey: admin,
          body: {
            product: n % 2 === 0 ? 'Vault' : 'Alpha',
            component: n % 2 === 0 ? 'Core' : 'Engine',
            version: '1.0',
            summary: `obsidian walnut after load n${n}`,
            description: 'filed after the load',
            op_sys: 'Linux',
            platform: 'PC',
            alias: `afterload${n}`,
            whiteboard: 'wb1',
            ...(n % 2 === 0 ? { groups: ['vaulters'] } : {}),
          },
        }),
      );
      installation.bugs.push(id);
      installation.aliases.push(`afterload${n}`);
    }
    installation.aliases.push(...late.map((id) => `late${id}`));
    await checkSearches(installation, { runs: RUNS, life: 'written to after a snapshot load' });
  }, 600_000);

  it('agrees after a second restart', async () => {
    await restart();
    await checkSearches(installation, { runs: RUNS, life: 'after a second restart' });
  }, 600_000);
});
