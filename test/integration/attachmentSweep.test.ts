/**
 * The attachment orphan sweep while uploads are in flight. An upload puts its body in S3, then
 * commits its metadata in one transaction; the sweep lists bodies, reads their pointers, and
 * deletes the bodies no pointer names. Each test holds the upload between its put and its commit
 * (and the sweep between its steps) to force the interleavings a clock never would, then checks
 * the invariant: no attachment is ever answered whose body is gone, and no accepted upload loses
 * its body. The age limit is 0 here, so only the sweep's own protocol stands between them.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sweepOrphanBodies } from '../../shared/application/bug/attachmentSweep.ts';
import { bodyKeyOf, putBody } from '../../shared/storage/bug/attachmentBodies.ts';
import { claimOrphanBody } from '../../shared/storage/bug/attachmentStore.ts';
import { documentClient, lowLevelReadClient } from '../../shared/storage/dynamoClient.ts';
import { tableInconsistencies } from '../support/tableIntegrity.ts';
import { fileTestBug } from '../support/testAccounts.ts';
import { type ApiResponse, call, startTestApp, type TestApp } from '../support/testApp.ts';

// The storage clients made afresh for this file (its files share a process: vitest.config.ts), so
// that the gates below are on them before their first command (installGateHook).
vi.hoisted(() => vi.resetModules());

let app: TestApp;
let admin: string;

const BODY = Buffer.from('the file being uploaded\n');
const upload = (bug: number) =>
  call(app, 'POST', `/rest/bug/${bug}/attachment`, {
    apiKey: admin,
    body: { file_name: 'a.txt', summary: 'In flight', content_type: 'text/plain', data: BODY.toString('base64') },
  });
const attachmentsOf = async (bug: number) =>
  (await call(app, 'GET', `/rest/bug/${bug}/attachment`, { apiKey: admin })).body.bugs[String(bug)] as Array<{
    id: number;
    data: string;
  }>;

/**
 * A gate on the DynamoDB commands whose input matches: each one waits, after (`when: 'after'`)
 * or before being sent, until the test opens the gate. `reached` resolves when the first one
 * arrives.
 */
interface Gate {
  matches(input: string): boolean;
  when: 'before' | 'after';
  reached: Promise<string>;
  arrive(input: string): void;
  opened: Promise<void>;
  open(): void;
}
const gates: Gate[] = [];

function gate(matches: (input: string) => boolean, when: 'before' | 'after'): Gate {
  let arrive!: (input: string) => void;
  let open!: () => void;
  const reached = new Promise<string>((resolve) => {
    arrive = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const made: Gate = { matches, when, reached, arrive, opened, open };
  gates.push(made);
  return made;
}

/**
 * Installed once, before the app reads anything through these clients: the read client resolves
 * its middleware once per command type (`cacheMiddleware`), so a hook added later would not run.
 */
function installGateHook(): void {
  for (const client of [documentClient(), lowLevelReadClient()] as DynamoDBClient[]) {
    client.middlewareStack.add(
      (next) => async (args) => {
        const input = JSON.stringify((args as { input?: unknown }).input);
        const held = gates.find((candidate) => candidate.matches(input));
        if (!held) return next(args);
        if (held.when === 'before') {
          held.arrive(input);
          await held.opened;
          return next(args);
        }
        const result = await next(args);
        held.arrive(input);
        await held.opened;
        return result;
      },
      { step: 'initialize', name: 'testGates' },
    );
  }
}

/** A sweep with no age limit (and its clock a little ahead of S3's, whose times are whole seconds). */
const sweep = () => sweepOrphanBodies({ minimumAgeMs: 0, now: new Date(Date.now() + 5_000) });

/** The upload's transaction: it writes the attachment's pointer. */
const isUploadCommit = (input: string) => input.includes('TransactItems') && input.includes('attachmentPointer');
/** The sweep's read of the pointers of the bodies it found. */
const isSweepRead = (id: number) => (input: string) =>
  input.includes('RequestItems') && input.includes(`ATTACHMENT#${id}"`);

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  installGateHook();
});
afterEach(() => {
  // A test that failed half-way must not leave anything held.
  for (const held of gates.splice(0)) held.open();
});
afterAll(async () => {
  if (app) expect(await tableInconsistencies()).toEqual([]);
  await app?.close();
});

describe('the orphan sweep while an upload is in flight', () => {
  it('keeps the body of an upload whose put came before the sweep read the table and whose commit came after', async () => {
    const bug = await fileTestBug(app, admin, { summary: 'Upload racing the sweep', description: 'Steps.' });
    const commit = gate(isUploadCommit, 'before');
    const uploading = upload(bug);
    // The body is in S3; the metadata's transaction waits.
    const transaction = await commit.reached;
    const id = Number(/"attachmentId":(?:\{"N":")?(\d+)/.exec(transaction)![1]);
    const read = gate(isSweepRead(id), 'after');
    const sweeping = sweep();
    // The sweep has read the table and found no metadata for this body.
    await read.reached;
    commit.open();
    const uploaded: ApiResponse = await uploading;
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    read.open();
    const { deleted } = await sweeping;

    expect(deleted).toEqual([]);
    const [attachment] = await attachmentsOf(bug);
    expect(attachment.id).toBe(id);
    expect(Buffer.from(attachment.data, 'base64')).toEqual(BODY);
  });

  it('refuses an upload whose body the sweep claimed before its commit, leaving no metadata without a body', async () => {
    const bug = await fileTestBug(app, admin, { summary: 'Upload outrun by the sweep', description: 'Steps.' });
    const commit = gate(isUploadCommit, 'before');
    const uploading = upload(bug);
    await commit.reached;
    // The whole sweep runs while the upload waits: it claims the id and deletes the body.
    const { deleted } = await sweep();
    expect(deleted).toHaveLength(1);
    commit.open();
    const refused = await uploading;
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: true, code: 32000 });
    expect(refused.body.message).toContain('send it again');
    expect(await attachmentsOf(bug)).toEqual([]);
    // Sent again, it is a new attachment with a body of its own.
    const again = await upload(bug);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const [attachment] = await attachmentsOf(bug);
    expect(Buffer.from(attachment.data, 'base64')).toEqual(BODY);
    expect((await sweep()).deleted).toEqual([]);
  });

  it('finishes the work of a sweep that claimed a body and stopped before deleting it', async () => {
    const bug = await fileTestBug(app, admin, { summary: 'Sweep interrupted', description: 'Steps.' });
    // A body whose upload died before its transaction, then a sweep that died after its claim.
    const orphan = bodyKeyOf(bug, 987_654_321);
    await putBody(orphan, BODY, 'text/plain', 'unused');
    expect(await claimOrphanBody(987_654_321, orphan, new Date())).toBe(true);
    expect((await sweep()).deleted).toEqual([orphan]);
    expect((await sweep()).deleted).toEqual([]);
  });
});
