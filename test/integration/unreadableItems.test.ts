import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, fileTestBug, ok } from '../support/testAccounts.ts';
import { call, startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * A stored item that does not have the shape Tracker writes (hand-edited, or written by a
 * defective version) is refused where it is read (shared/storage/itemParsing.ts): the caller gets
 * the registry's 32000 naming the item, never a 500 from a TypeError further on, nor the item
 * rendered as if it were whole; the items around it read as before.
 */
let app: TestApp;
let admin: string;
let brokenBug: number;
let brokenComment: number;
let brokenAttachment: number;
let attachmentId: number;
let wholeBug: number;

const storage = async () => ({
  ...(await import('@aws-sdk/lib-dynamodb')),
  ...(await import('../../shared/storage/dynamoClient.ts')),
});

/** Changes a stored item behind Tracker's back. */
async function corrupt(pk: string, sk: string, update: string, values?: Record<string, unknown>): Promise<void> {
  const { documentClient, tableName, UpdateCommand } = await storage();
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk, sk },
      UpdateExpression: update,
      ...(values ? { ExpressionAttributeValues: values } : {}),
    }),
  );
}

beforeAll(async () => {
  app = await startTestApp();
  admin = app.admin.apiKey;
  brokenBug = await fileTestBug(app, admin, { summary: 'Its assignee became text' });
  brokenComment = await fileTestBug(app, admin, { summary: 'Its comment lost its text' });
  await ok(call(app, 'POST', `/rest/bug/${brokenComment}/comment`, { apiKey: admin, body: { comment: 'Later.' } }));
  brokenAttachment = await fileTestBug(app, admin, { summary: 'Its attachment lost its checksum' });
  attachmentId = (
    await ok(
      call(app, 'POST', `/rest/bug/${brokenAttachment}/attachment`, {
        apiKey: admin,
        body: {
          file_name: 'notes.txt',
          summary: 'notes',
          content_type: 'text/plain',
          data: Buffer.from('notes').toString('base64'),
        },
      }),
    )
  ).ids[0];
  wholeBug = await fileTestBug(app, admin, { summary: 'Nothing wrong with this one' });

  await corrupt(`BUG#${brokenBug}`, 'BUG', 'SET assigneeId = :text', { ':text': 'someone@example.com' });
  await corrupt(`BUG#${brokenComment}`, 'COMMENT#0000000001', 'REMOVE rawText');
  await corrupt(`BUG#${brokenAttachment}`, `ATTACHMENT#${String(attachmentId).padStart(10, '0')}`, 'REMOVE sha256');
});

afterAll(() => app?.close());

describe('an unreadable stored item', () => {
  it('is refused with 32000 naming the bug item, while the other bugs read as before', async () => {
    const response = await call(app, 'GET', `/rest/bug/${brokenBug}`, { apiKey: admin });
    expectError(response, 32000, 400);
    expect(response.body.message).toContain(`the stored bug BUG#${brokenBug} / BUG:`);
    const batch = await call(app, 'GET', '/rest/bug', { apiKey: admin, query: { id: `${wholeBug},${brokenBug}` } });
    expectError(batch, 32000, 400);
    const whole = await ok(call(app, 'GET', `/rest/bug/${wholeBug}`, { apiKey: admin }));
    expect(whole.bugs[0].summary).toBe('Nothing wrong with this one');
  });

  it('names the comment item a comment listing could not read', async () => {
    const response = await call(app, 'GET', `/rest/bug/${brokenComment}/comment`, { apiKey: admin });
    expectError(response, 32000, 400);
    expect(response.body.message).toContain(`the stored comment BUG#${brokenComment} / COMMENT#0000000001:`);
  });

  it('names the attachment item, by id and in its bug’s listing', async () => {
    const key = `BUG#${brokenAttachment} / ATTACHMENT#${String(attachmentId).padStart(10, '0')}`;
    for (const path of [`/rest/bug/attachment/${attachmentId}`, `/rest/bug/${brokenAttachment}/attachment`]) {
      const response = await call(app, 'GET', path, { apiKey: admin });
      expectError(response, 32000, 400);
      expect(response.body.message).toContain(`the stored attachment ${key}:`);
    }
  });
});
