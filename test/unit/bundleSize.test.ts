import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planHandlers } from '../../lib/handlerPlan.ts';
import {
  MAIL_FEEDBACK_MODULE,
  NOTIFICATION_PUBLISHER_MODULE,
  WEBHOOK_DELIVERY_MODULE,
} from '../../lib/notifications.ts';
import { type StackBundling, stackBundling } from '../../lib/stackBundling.ts';
import { routes } from '../../shared/routes.ts';

/**
 * Every handler bundled exactly as the stack bundles it (lib/stackBundling.ts translates the
 * stack's BUNDLING into esbuild options), checked against a size budget. Size is what this test
 * can hold deterministically; load time, which size drives, is measured by `npm run bench`.
 *
 * History of the budget (esbuild 0.25, all measured 2026-11-23): every bundle was 815–835 KiB,
 * two thirds of it zod's locale files; `import * as z from 'zod'` and lazily imported stores
 * brought them to 425–483 KiB; re2js (linear-time regexps, 147 KiB) then went into every
 * authenticating function, 590–650 KiB. Now regexp members are derived when users or groups are
 * written (groupRegexps.ts), so re2js is only in the functions that write them, and the SDK's
 * default credential chain is replaced by the Lambda one (lib/trackerFunction.ts BUNDLE_ALIASES,
 * ~130 KiB): the common functions measure 312–385 KiB. The budget leaves ~15 KiB of headroom: a
 * new dependency, an import that pulls re2js or a whole namespace back in, fails here.
 *
 * Every budget then grew by OBSERVABILITY, once: Powertools' Logger and Metrics with their middy
 * middlewares and shared code (shared/observability/) are in every bundle, 33.8–34.9 KiB measured
 * 2026-11-25 (the hand-written request log they replaced was under 1 KiB). Their Tracer and the
 * X-Ray SDK (~125 KiB) are in none unless a stack is built with tracing on (tracing.ts).
 *
 * Issue 20 (2026-11-25, `npx tsx bench/bundleComposition.ts`, which prints what each bundle is
 * made of): every budget with more than ~10 KiB of headroom lowered to what it measured plus 5–12
 * KiB, so that growth shows here rather than in a cold start; the others were already that close.
 * The common budget holds the 61 functions without a dependency of their own, 282–424 KiB (the
 * largest: attachment/updateAttachment 423.3, platform/options 421.6; the handlers without a table
 * read of their own import the stores lazily, which keeps ~50 KiB more of the DynamoDB client in
 * their bundle, see storelessEndpoint.ts). 269 KiB of every table-reading handler is the same in
 * all of them: the SDK (@smithy/core 116, client-dynamodb 31, @aws-sdk/core 22, signing and HTTP
 * 17 KiB), Powertools 31 KiB; zod adds 66–89 KiB to each route. There is no second copy of any
 * @smithy package and no part of the default credential chain left to cut.
 */
const OBSERVABILITY = 35 * 1024;
// +5 KiB (2026-11-29, 17:45): stored items parsed with zod schemas (storage/bug/bugItems.ts,
// storage/catalog/catalogItems.ts); 430.4 KiB the largest common function with them.
const BUNDLE_BUDGET_BYTES = 400 * 1024 + OBSERVABILITY;

/**
 * Functions that carry a deliberate dependency on top of the common chain, each with its own
 * budget: what it measured (2026-11-25) plus 2–12 KiB of headroom.
 * - The S3 client and presigner (~160 KiB with their share of @smithy) move attachment bodies.
 * - markdown-it with its HTML entity tables and the js-xss sanitizer (~150 KiB) render comments.
 * - re2js (147 KiB) checks and matches administrators' regexps (user_regexp, emailregexp) in the
 *   functions that write users, groups and parameters, and runs the regexp operators of search.
 */
// 585.3, 562.1 and 554.3 KiB measured 2026-11-25 (create, get, download); 590.6 for create
// (2026-11-28) with gzip answers, the 6 MB check and bodies kept outside V8's heap.
const S3_BUDGET = 570 * 1024 + OBSERVABILITY; // 600.6 with the item schemas
// 538.3–548.4 KiB measured 2026-11-25 (user/updateUser the largest); 555.8 (2026-11-29) with
// the error registry's single sign-on messages, which every function carries.
const REGEXP_BUDGET = 525 * 1024 + OBSERVABILITY;
const SEARCH_COUNT_BUDGET = 610 * 1024 + OBSERVABILITY;
const BUDGET_EXCEPTIONS: Readonly<Record<string, number>> = {
  'attachment/createAttachment': S3_BUDGET,
  // 570.6 KiB (2026-11-29 evening) with the error texts of accounts by mail, SSO and saved searches.
  'attachment/getAttachments': 545 * 1024 + OBSERVABILITY, // 576.7 with the item schemas
  'attachment/downloadAttachment': 545 * 1024 + OBSERVABILITY, // 573.7 with the item schemas
  // 562.6 KiB measured 2026-11-25; 566.7 with gzip answers and the 6 MB check at the Lambda
  // boundary (lambdaResponse.ts, ~2 KiB in every function that renders pages).
  // 570.9 KiB (2026-11-29 evening), the same error texts.
  'comment/renderComment': 545 * 1024 + OBSERVABILITY, // 576.9 with the item schemas
  // Search reads the installation's legal values and workflow (catalog/fieldValues.ts, ~5 KiB with
  // its store and the quicksearch and ordering rules that use them): 602.0 and 581.8 KiB measured
  // 2026-11-25 with them and the private-activity rules of the same week; 620.3 and 600.1 KiB with
  // issue 20's compact index (binary snapshot, posting lists, columnar history: ~18 KiB); 630.0
  // and 609.7 KiB (2026-11-28) with the snapshot in parts and pages rendered from the index;
  // 635.1 KiB for search with pages that stop once full and posting walks (firstMatches.ts);
  // 638.2 and 617.0 KiB with scratch arrays for evaluation, snapshot columns read out of their
  // frames and binary items decoded by Tracker's read path (~3 KiB, issue 20's cold load).
  // Then the S3 client (~162 KiB), which reads the snapshot's frames from the bucket: 800.6 and
  // 779.2 KiB. Loading the search module took 148 → 194 ms (median of 9 fresh processes, the
  // machine in its slow state); the frames' GETs took 1.8 s off a million bugs' cold load. 805.1
  // KiB with sparse values decoded as read and delta-coded sections (~4.5 KiB, 0.75 s off it),
  // 808.1 and 784.8 with column bitmaps (columnBitmaps.ts, bitmapEvaluation.ts), 810.1 and 786.6
  // with gzip answers and the 6 MB check at the Lambda boundary (lambdaResponse.ts).
  // 846.0 KiB (2026-11-29) with the typed inputs of the OpenAPI document (bugFieldInput.ts and the
  // zod unions it uses, ~10 KiB: issue 37) and the week's search work.
  'bug/searchBugs': 825 * 1024 + OBSERVABILITY, // 853.8 with the item schemas
  'bug/possibleDuplicates': 785 * 1024 + OBSERVABILITY, // 816.6 with the item schemas
  // Deleting a keyword, product, version, milestone or flag type counts the bugs that use it on
  // the search index, loaded from its snapshot in the bucket (the S3 client): 626.3–635.4 KiB
  // measured 2026-11-29 (issue 42).
  'keyword/deleteKeyword': SEARCH_COUNT_BUDGET,
  'product/deleteProduct': SEARCH_COUNT_BUDGET,
  'product/deleteVersion': SEARCH_COUNT_BUDGET,
  'product/deleteMilestone': SEARCH_COUNT_BUDGET,
  'flagType/deleteFlagType': SEARCH_COUNT_BUDGET,
  'user/createUser': REGEXP_BUDGET,
  // 555.3 KiB (2026-11-29) with the saved searches' error texts (shared/errors.ts, issue 40).
  'user/updateUser': REGEXP_BUDGET + 2 * 1024,
  // A person's own account (PUT /rest/preferences/account) is written by Update User's code, with
  // its derived regexp memberships: 551.2 KiB measured 2026-11-29.
  // 791.7 KiB (2026-11-29) since a new login is mailed for confirmation from the request
  // (accountsByMail.ts): the SES and S3 clients of the account mail (accountMailOutbox.ts).
  'user/updateOwnAccount': 760 * 1024 + OBSERVABILITY,
  // Accounts by mail (issue 40): each writes users (re2js for regexp memberships) and those that
  // mail carry the SES and S3 clients. Measured 2026-11-29 (a loaded machine; sizes, not times):
  // offer 775.3, password reset 625.1, invitations 613.4, the token users 551.1–555.1 KiB.
  // Lazy-loading the mail clients would take ~200 KiB off the mailing ones: not done yet.
  'account/offerAccountByEmail': 745 * 1024 + OBSERVABILITY,
  'account/requestPasswordReset': 595 * 1024 + OBSERVABILITY,
  'account/inviteAccounts': 585 * 1024 + OBSERVABILITY,
  'account/createAccount': 525 * 1024 + OBSERVABILITY,
  'account/setPassword': 525 * 1024 + OBSERVABILITY,
  'account/confirmEmailChange': 525 * 1024 + OBSERVABILITY,
  'account/cancelToken': 525 * 1024 + OBSERVABILITY,
  // The largest function on the common chain alone: 423.3 KiB measured 2026-11-25, 430.1 KiB
  // (2026-11-29) with Bugzilla 5.2's error texts (shared/errors.ts, 12.4 KiB of it: issue 37), zod
  // 88 KiB and the SDK 160; nothing of its own to cut.
  'attachment/updateAttachment': 405 * 1024 + OBSERVABILITY,
  // OPTIONS names every route's methods: 430.6 KiB (2026-11-29) with issue 40's routes.
  'platform/options': 400 * 1024 + OBSERVABILITY,
  'group/createGroup': REGEXP_BUDGET,
  'group/updateGroup': REGEXP_BUDGET,
  // 557.5 KiB (2026-11-29) with every parameter described for the OpenAPI document (issue 37).
  // 560.3 KiB later that day with the new parameters' descriptions and error texts (issue 40).
  'instance/updateParameters': 530 * 1024 + OBSERVABILITY,
  // Single sign-on's finish: openid-client with jose and oauth4webapi (~90 KiB: the code exchange,
  // the ID token's signature against the issuer's keys) and re2js for createemailregexp and
  // emailregexp when it makes an account: 591.9 KiB measured 2026-11-29. (Its start, 415.2 KiB,
  // and GET /rest/oidc, 421.7, fit the common budget.)
  'oidc/finishSignIn': 565 * 1024 + OBSERVABILITY,
  // re2js for the regexp members of the first administrator's groups: 467.0 KiB measured 2026-11-25,
  // 485.2 with the compact search index it writes the first (empty) snapshot of, 494.0 (2026-11-28)
  // with the index's snapshot parts and read-back of bugs, 659.3 with the S3 client that writes
  // that snapshot's frames to the bucket (deploy time only: its load time costs no request).
  // 666.1 KiB (2026-11-29) with the week's error texts and account rules (issue 37).
  // 758.5 KiB with the item schemas (zod's parser now comes with the stores it reads); it runs once.
  'platform/bootstrap': 730 * 1024 + OBSERVABILITY,
  // No dependency of its own: every bug rule (workflow, relations, flags, groups, versions and
  // milestones by id with the reading of bugs stored by name) on the common chain. 443.7 KiB
  // measured 2026-11-25; held to issue 20's 450 KiB for a function without a dependency.
  // 463.3 KiB (2026-11-29) with the typed inputs of the OpenAPI document (bugFieldInput.ts and the
  // zod unions it uses, ~10 KiB: issue 37).
  'bug/updateBug': 480 * 1024, // 474.2 with the item schemas
  // 451.7 KiB (2026-11-29), the same typed inputs.
  // 455.9 KiB later that day, with the error texts of issue 40's routes.
  'bug/createBug': 430 * 1024 + OBSERVABILITY, // 461.5 with the item schemas
  // Bugzilla's XML-RPC and JSON-RPC (shared/http/rpc/): one function that runs every RPC method's
  // REST handler in-process, so it carries all of them and all of their dependencies (the S3
  // client, markdown-it and xss, re2js, every bug rule) plus fast-xml-parser for XML-RPC: 1297.5
  // KiB measured 2026-11-25, 1316.1 with the compact search index, 1326.7 (2026-11-28) with its
  // parts and read-back, 1335.2 with the search evaluation's scratch arrays and the framed
  // snapshot reader, 1339.2 with sparse columns decoded as read, 1343.4 with column bitmaps,
  // 1345.8 with gzip answers and the 6 MB check (lambdaResponse.ts). The handlers are imported
  // lazily, so a call evaluates only its own.
  // 1362.4 KiB (2026-11-29) with the typed inputs of issue 37 and the week's search work; 1368.2
  // with saved searches run by name in Bug.search and listed by User.get (issue 40); about 1473
  // with User.offer_account_by_email, whose mail brings the SES client (1466.5 measured without
  // the saved searches), a few KiB more with the single sign-on messages of the error registry.
  'rpc/rpcEndpoint': 1450 * 1024 + OBSERVABILITY,
  // Not a route: the table stream's publisher. Three SDK clients of its own (SES v2 for mail,
  // EventBridge for events, S3 for Test mail, with their share of @smithy) on top of every bug,
  // mail and event rule and the people and catalogue reads: 654.7 KiB measured 2026-11-25.
  // (notification/deliverWebhook, fed by the bus, with the Secrets Manager client, 365.8 KiB, and
  // notification/handleMailFeedback, 282.5 KiB, fit the common budget.)
  [NOTIFICATION_PUBLISHER_MODULE]: 645 * 1024 + OBSERVABILITY, // 674.4 with the item schemas
};

/** The functions that may carry the regexp engine; any other that does authenticates through a regexp again. */
const REGEXP_FUNCTIONS = new Set([
  'bug/searchBugs',
  'bug/possibleDuplicates',
  'user/createUser',
  'user/updateUser',
  'user/updateOwnAccount',
  // Accounts by mail create users and change logins (users.ts, regexp memberships).
  'account/offerAccountByEmail',
  'account/createAccount',
  'account/setPassword',
  'account/confirmEmailChange',
  'account/cancelToken',
  'account/requestPasswordReset',
  'account/inviteAccounts',
  'group/createGroup',
  'group/updateGroup',
  'instance/updateParameters',
  'platform/bootstrap',
  // Makes accounts at single sign-on: createemailregexp and emailregexp.
  'oidc/finishSignIn',
  // Runs the handlers of User.create, User.update, Group.create, Group.update and Bug.search.
  'rpc/rpcEndpoint',
]);
const budgetOf = (module: string) => BUDGET_EXCEPTIONS[module] ?? BUNDLE_BUDGET_BYTES;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The API's functions and the notification functions (not routes), bundled alike. */
const modules = [
  ...planHandlers(routes).map((plan) => plan.module),
  NOTIFICATION_PUBLISHER_MODULE,
  WEBHOOK_DELIVERY_MODULE,
  MAIL_FEEDBACK_MODULE,
];

let stack: StackBundling;
let outDir: string;
const built = new Map<string, { code: number; map: { sources: string[]; sourcesContent?: unknown } }>();

beforeAll(async () => {
  stack = await stackBundling(ROOT);
  outDir = mkdtempSync(join(os.tmpdir(), 'tracker-bundles-'));
  const result = await esbuild.build(stack.optionsForMany(modules, outDir));
  expect(result.errors).toEqual([]);
  for (const module of modules) {
    const file = join(outDir, stack.directoryFor(module), stack.outFile);
    built.set(module, { code: statSync(file).size, map: JSON.parse(readFileSync(`${file}.map`, 'utf8')) });
  }
}, 300_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('handler bundles, as the stack builds them', () => {
  it('bundles every handler module of the stack', () => {
    expect(modules.length).toBeGreaterThan(40);
    expect([...built.keys()].sort()).toEqual([...modules].sort());
  });

  it(`keeps every bundle within ${BUNDLE_BUDGET_BYTES / 1024} KiB, or its own stated budget`, () => {
    const over = [...built]
      .filter(([module, bundle]) => bundle.code > budgetOf(module))
      .map(([module, bundle]) => `${module}: ${(bundle.code / 1024).toFixed(1)} KiB`);
    expect(over, 'bundles over budget (check for a namespace import or a new dependency)').toEqual([]);
  });

  it('keeps the regexp engine out of every function that does not write users, groups or parameters, or search', () => {
    const carrying = [...built]
      .filter(([, { map }]) => map.sources.some((source) => source.includes('node_modules/re2js/')))
      .map(([module]) => module);
    expect(carrying.filter((module) => !REGEXP_FUNCTIONS.has(module))).toEqual([]);
    expect(carrying).toContain('group/updateGroup');
  });

  it("carries the Lambda credential chain instead of the SDK's default one (profiles, SSO, STS)", () => {
    for (const [module, { map }] of built) {
      expect(
        map.sources.filter((source) =>
          /credential-provider-(node|sso|ini|web-identity|process|login)|nested-clients/.test(source),
        ),
        module,
      ).toEqual([]);
    }
    const withTable = [...built].filter(([, { map }]) =>
      map.sources.some((source) => source.includes('@aws-sdk/client-dynamodb')),
    );
    expect(withTable.length).toBeGreaterThan(40);
    for (const [module, { map }] of withTable)
      expect(
        map.sources.some((source) => source.endsWith('shared/storage/lambdaCredentials.ts')),
        module,
      ).toBe(true);
  });

  it('ships source maps that name the TypeScript sources without carrying their text', () => {
    for (const [module, { map }] of built) {
      expect(map.sourcesContent, module).toBeUndefined();
      expect(
        map.sources.some((source) => source.endsWith(`functions/${module}.ts`)),
        module,
      ).toBe(true);
    }
  });

  it('turns a stack trace from a deployed bundle into TypeScript files and lines', () => {
    // An unexpected error inside the chain is logged with its stack (errorEnvelope); run the 404
    // handler's bundle as deployed (no NODE_OPTIONS: the map is read when the error is logged)
    // and an event that throws when read.
    const bundle = join(outDir, 'platform-notFound', stack.outFile);
    const script = `
      const { handler } = await import(${JSON.stringify(bundle)});
      const event = { headers: {}, requestContext: { requestId: 'r1', http: { method: 'GET' } }, get rawPath() { throw new Error('unreadable path'); } };
      await handler(event, { awsRequestId: 'r1' });`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const logged = [...`${run.stdout}\n${run.stderr}`.split('\n')].map((line) => {
      try {
        return JSON.parse(line) as { stack?: string };
      } catch {
        return {};
      }
    });
    const stackTrace = logged.find((entry) => entry.stack?.includes('unreadable path'))?.stack;
    expect(stackTrace, `${run.stdout}\n${run.stderr}`).toBeDefined();
    expect(stackTrace).toMatch(/(functions|shared)\/[\w/]+\.ts:\d+:\d+/);
    expect(stackTrace).not.toMatch(/index\.mjs:\d+/);
  });
});
