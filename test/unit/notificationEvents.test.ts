import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BugFlag } from '../../shared/domain/bug/bug.ts';
import {
  bugEvents,
  DETAIL_TYPES,
  type EventAudience,
  eventBridgeEntry,
  FULL_AUDIENCE,
  MAX_DETAIL_BYTES,
  PUBLIC_AUDIENCE,
  webhookBody,
} from '../../shared/domain/notification/bugEvents.ts';
import {
  attachment,
  baseBug,
  changeOf,
  comment,
  names,
  PEOPLE,
  SECRET_GROUP_ID,
} from './support/notificationFixtures.ts';

/** The events a change publishes, what each tells which audience, and the keys that drop repeats. */
const context = { names };
const INSIDER: EventAudience = { ...PUBLIC_AUDIENCE, insider: true };

const request: BugFlag = {
  id: 30,
  typeId: 1,
  status: '?',
  setterId: PEOPLE.changer,
  requesteeId: PEOPLE.reporter,
  creationDate: '2025-03-04T05:06:07Z',
  modificationDate: '2025-03-04T05:06:07Z',
};

describe('the events of a change', () => {
  const before = baseBug({ flags: [request] });
  const after = {
    ...before,
    status: 'RESOLVED',
    resolution: 'FIXED',
    flags: [{ ...request, status: '+' as const, requesteeId: null }],
  };
  const change = changeOf(before, after, {
    changes: [
      { field_name: 'status', removed: 'NEW', added: 'RESOLVED' },
      { field_name: 'resolution', removed: '', added: 'FIXED' },
      { field_name: 'flagtypes.name', removed: 'review?(reporter@example.com)', added: 'review+' },
    ],
    comments: [
      comment({ id: 901, count: 3, rawText: 'Fixed.' }),
      comment({ id: 902, count: 4, rawText: 'And tested.' }),
    ],
    attachments: [{ before: null, after: attachment({ id: 7 }) }],
  });

  it('yields one event per thing that happened, each with its detail-type and a key naming it', () => {
    const events = bugEvents(change, context);
    expect(events.map((event) => [event.detailType, event.id])).toEqual([
      ['Bug Changed', '42-8-bug-changed-0'],
      ['Comment Added', '42-8-comment-added-0'],
      ['Comment Added', '42-8-comment-added-1'],
      ['Attachment Added', '42-8-attachment-added-0'],
      ['Flag Granted', '42-8-flag-granted-0'],
    ]);
    expect(events.every((event) => event.source === 'tracker' && event.time === '2025-03-04T05:06:07Z')).toBe(true);
  });

  it('says which bug, who, when, the changes as Update Bug reports them, and the comment or attachment', () => {
    const [changed, firstComment, , added, granted] = bugEvents(change, context);
    expect(changed!.detail).toEqual({
      bug: {
        id: 42,
        alias: null,
        summary: 'Frobnicator drops every second frame',
        classification: 'Unclassified',
        product: 'Widgets',
        component: 'Frobnicator',
        status: 'RESOLVED',
        resolution: 'FIXED',
        type: 'defect',
        severity: 'normal',
        priority: '---',
        assigned_to: 'assignee@example.com',
        creator: 'reporter@example.com',
        is_private: false,
      },
      who: 'changer@example.com',
      event_id: '42-8-bug-changed-0',
      when: '2025-03-04T05:06:07Z',
      revision: 8,
      changes: change.changes,
    });
    expect(firstComment!.detail.comment).toEqual({
      id: 901,
      count: 3,
      creator: 'changer@example.com',
      creation_time: '2025-03-04T05:06:07Z',
      is_private: false,
      is_markdown: false,
      text: 'Fixed.',
    });
    expect(added!.detail.attachment).toMatchObject({ id: 7, summary: 'Stack trace of the crash', is_private: false });
    expect(granted!.detail.flag).toEqual({
      id: 30,
      name: 'review',
      type_id: 1,
      status: '+',
      previous_status: '?',
      setter: 'changer@example.com',
      requestee: null,
      requester: 'changer@example.com',
      attachment_id: null,
    });
  });

  it('makes a new bug one Bug Created event carrying its description, and its flags their own', () => {
    const created = changeOf(null, baseBug({ flags: [request] }), {
      comments: [comment({ count: 0, rawText: 'It crashes.' })],
    });
    const events = bugEvents(created, context);
    expect(events.map((event) => event.id)).toEqual(['42-1-bug-created-0', '42-1-flag-requested-0']);
    expect(events[0]!.detail.comment).toMatchObject({ count: 0, text: 'It crashes.' });
    expect(events[1]!.detail.flag).toMatchObject({ status: '?', requestee: 'reporter@example.com' });
  });

  it('marks private comments and attachments for outsiders, with no text, and keeps all of it for insiders', () => {
    const privateAttachment = attachment({ id: 8, isPrivate: true, summary: 'Customer data' });
    const secretive = changeOf(
      before,
      { ...before, attachmentCount: 1, privateAttachments: [{ id: 8, creatorId: 6 }] },
      {
        changes: [
          { field_name: 'priority', removed: '---', added: 'High' },
          { field_name: 'longdescs.isprivate', removed: '0', added: '1', comment_id: 800, comment_count: 2 },
        ],
        comments: [comment({ count: 3, isPrivate: true, rawText: 'Internal only' })],
        attachments: [{ before: null, after: privateAttachment }],
      },
    );
    const outsiders = bugEvents(secretive, context);
    expect(outsiders.map((event) => event.id)).toEqual([
      '42-8-bug-changed-0',
      '42-8-comment-added-0',
      '42-8-attachment-added-0',
    ]);
    expect(outsiders[0]!.detail.changes).toEqual([{ field_name: 'priority', removed: '---', added: 'High' }]);
    expect(outsiders[1]!.detail.comment).toEqual({
      id: expect.any(Number),
      count: 3,
      creator: expect.any(String),
      creation_time: expect.any(String),
      is_private: true,
      redacted: true,
    });
    expect(outsiders[2]!.detail.attachment).toEqual({
      id: 8,
      is_private: true,
      is_obsolete: false,
      creator: expect.any(String),
      creation_time: expect.any(String),
      redacted: true,
    });
    expect(JSON.stringify(outsiders)).not.toContain('Internal only');
    expect(JSON.stringify(outsiders)).not.toContain('Customer data');
    const insiders = bugEvents(secretive, context, INSIDER);
    expect(insiders.map((event) => event.id)).toEqual([
      '42-8-bug-changed-0',
      '42-8-comment-added-0',
      '42-8-attachment-added-0',
    ]);
    expect(insiders[1]!.detail.comment).toMatchObject({ is_private: true, text: 'Internal only' });
    expect((insiders[0]!.detail.changes as unknown[]).length).toBe(2);
  });

  it('tells outsiders that a private attachment changed or was flagged, never its new description', () => {
    const secret = attachment({ id: 9, isPrivate: true, summary: 'Old name' });
    const renamed = changeOf(before, before, {
      changes: [{ field_name: 'attachments.description', removed: 'Old name', added: 'ACME logs', attachment_id: 9 }],
      attachments: [{ before: secret, after: { ...secret, summary: 'ACME logs', flags: [{ ...request, id: 31 }] } }],
    });
    const outsiders = bugEvents(renamed, context);
    expect(outsiders.map((event) => event.detailType)).toEqual(['Attachment Changed', 'Flag Requested']);
    expect(outsiders[0]!.detail).not.toHaveProperty('changes');
    expect(outsiders[0]!.detail.attachment).toMatchObject({ id: 9, is_private: true, redacted: true });
    expect(outsiders[1]!.detail.flag).toMatchObject({ id: 31, status: '?', attachment_id: 9 });
    expect(outsiders[1]!.detail.attachment).toEqual({ id: 9, is_private: true });
    expect(outsiders[1]!.detail.flag).not.toHaveProperty('requestee');
    expect(outsiders[1]!.detail.flag).not.toHaveProperty('setter');
    expect(JSON.stringify(outsiders)).not.toMatch(/ACME|Old name/);
    const insiders = bugEvents(renamed, context, INSIDER);
    expect(insiders[0]!.detail.changes).toEqual(renamed.changes);
    expect(insiders[1]!.detail).not.toHaveProperty('attachment');
  });

  it('keeps time tracking for the time-tracking group, and yields nothing when nothing else changed', () => {
    const worked = changeOf(
      before,
      { ...before, remainingTime: 2 },
      {
        changes: [{ field_name: 'remaining_time', removed: '3.00', added: '2' }],
      },
    );
    expect(bugEvents(worked, context)).toEqual([]);
    expect(bugEvents(worked, context, FULL_AUDIENCE).map((event) => event.id)).toEqual(['42-8-bug-changed-0']);
  });

  it('tells an audience without restricted bugs only which bug changed', () => {
    const hidden = changeOf(
      before,
      { ...after, groupIds: [SECRET_GROUP_ID] },
      { changes: change.changes, comments: change.comments },
    );
    const events = bugEvents(hidden, context);
    expect(events.map((event) => event.detailType)).toEqual([
      'Bug Changed',
      'Comment Added',
      'Comment Added',
      'Flag Granted',
    ]);
    for (const event of events)
      expect(Object.keys(event.detail).sort()).toEqual(['bug', 'event_id', 'revision', 'when']);
    expect(events[0]!.detail.bug).toEqual({ id: 42, is_private: true });
    expect(JSON.stringify(events)).not.toContain('Frobnicator');
    expect(bugEvents(hidden, context, FULL_AUDIENCE)[0]!.detail.bug).toMatchObject({
      summary: after.summary,
      is_private: true,
    });
  });

  it('cuts a detail that would not fit EventBridge, and says so', () => {
    const huge = changeOf(
      before,
      { ...before, whiteboard: '𝄞'.repeat(65_535) },
      {
        changes: [{ field_name: 'whiteboard', removed: '', added: '𝄞'.repeat(65_535) }],
        comments: [comment({ rawText: '𝄞'.repeat(65_535) })],
      },
    );
    for (const event of bugEvents(huge, context)) {
      expect(Buffer.byteLength(JSON.stringify(event.detail))).toBeLessThanOrEqual(MAX_DETAIL_BYTES);
    }
    const [changed, commented] = bugEvents(huge, context);
    expect((changed!.detail.changes as Array<Record<string, unknown>>)[0]).toMatchObject({ truncated: true });
    const text = commented!.detail.comment as { text: string; truncated: boolean };
    expect(text.truncated).toBe(true);
    expect(text.text.length).toBeGreaterThan(100_000);
    expect(text.text).toMatch(/^(𝄞)+$/u);
  });

  it('gives the same event the same key for every audience, so repeats can be dropped downstream', () => {
    const audiences = fc.record({ insider: fc.boolean(), timeTracker: fc.boolean(), restrictedBugs: fc.boolean() });
    fc.assert(
      fc.property(audiences, audiences, fc.boolean(), fc.boolean(), (first, second, privateFirst, restricted) => {
        const mixed = changeOf(
          before,
          { ...after, groupIds: restricted ? [SECRET_GROUP_ID] : [] },
          {
            changes: change.changes,
            comments: [comment({ count: 3, isPrivate: privateFirst }), comment({ count: 4, rawText: 'second' })],
          },
        );
        const keyed = (audience: EventAudience) =>
          new Map(bugEvents(mixed, context, audience).map((event) => [event.id, event.detailType]));
        const [a, b] = [keyed(first), keyed(second)];
        for (const [id, type] of a) if (b.has(id)) expect(b.get(id)).toBe(type);
        // The second comment keeps its number whether or not the first is told.
        expect(a.get('42-8-comment-added-1')).toBe('Comment Added');
        expect(new Set(a.keys()).size).toBe(bugEvents(mixed, context, first).length);
      }),
    );
  });
});

describe('the event on the wire', () => {
  it('is a PutEvents entry with the detail as JSON, and a webhook body with the key as id', () => {
    const [event] = bugEvents(changeOf(null, baseBug(), { comments: [comment({ count: 0 })] }), context);
    expect(eventBridgeEntry(event!)).toEqual({
      Source: 'tracker',
      DetailType: 'Bug Created',
      Detail: JSON.stringify(event!.detail),
      Time: new Date('2025-03-04T05:06:07Z'),
    });
    expect(JSON.parse(webhookBody(event!))).toEqual({
      id: '42-1-bug-created-0',
      source: 'tracker',
      'detail-type': 'Bug Created',
      time: '2025-03-04T05:06:07Z',
      detail: event!.detail,
    });
  });
});

describe('docs/events.md', () => {
  const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'events.md'), 'utf8');

  it('documents every detail-type and every kind of key', () => {
    for (const [kind, detailType] of Object.entries(DETAIL_TYPES)) {
      expect(doc).toContain(`| \`${detailType}\``);
      expect(doc).toContain(`\`${kind}\``);
    }
  });
});
