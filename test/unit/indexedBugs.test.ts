import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { NOT_READ_BACK_BIT, READS_BACK_BIT } from '../../shared/domain/search/index/columns.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import {
  adoptIndexSnapshot,
  indexFromSnapshot,
  snapshotOf,
  snapshotPartsOf,
} from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import { asVersion4 } from '../support/snapshotVersion4.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * A search page is rendered from the index's columns when they give the bug back exactly
 * (indexedBugs.ts); anything they cannot carry exactly must make the page read the table instead.
 */

/** A bug with something in every field the columns normalise or keep sparsely. */
const fullBug = (id: number): Bug =>
  plainBug(id, {
    alias: `alias-${id}`,
    summary: 'Toolbar crashes on startup',
    status: 'RESOLVED',
    resolution: 'FIXED',
    qaContactId: 7,
    url: 'https://example.test/report',
    whiteboard: '[needs-triage]',
    deadline: '2026-12-01',
    creationTime: '2024-02-29T23:59:59Z',
    lastChangeTime: '2026-11-28T02:42:08Z',
    isCcAccessible: false,
    estimatedTime: 2.5,
    remainingTime: 1.25,
    actualTime: 0.75,
    ccIds: [3, 4],
    keywordIds: [2],
    groupIds: [1],
    dependsOn: [10],
    blocks: [11, 12],
    regressedBy: [13],
    regressions: [14],
    duplicates: [15],
    seeAlso: ['https://bugs.example.test/show_bug.cgi?id=3'],
    flags: [
      {
        id: 90,
        typeId: 1,
        status: '?',
        setterId: 2,
        requesteeId: 5,
        creationDate: '2026-01-01T10:00:00Z',
        modificationDate: '2026-01-02T11:00:00Z',
      },
    ],
    commentCount: 4,
    privateCommentCount: 1,
    attachmentCount: 2,
    privateAttachments: [{ id: 300, creatorId: 2 }],
    custom: { cf_release: 'beta', cf_notes: ['a', 'b'] },
    tags: { 2: ['mine'] },
  });

function indexOf(...bugs: Bug[]): SearchIndex {
  const index = new SearchIndex();
  for (const bug of bugs) index.apply({ bug, rev: 3 });
  return index;
}

describe('a bug read back from the search index', () => {
  it('equals the bug applied, field for field, for a plain bug and one with every field set', () => {
    const index = indexOf(plainBug(1), fullBug(2));
    expect(index.bugAt(0)).toEqual({ ...plainBug(1), privateCommentCount: 0, privateAttachments: [] });
    expect(index.bugAt(1)).toEqual(fullBug(2));
  });

  it('survives the snapshot, whole and in parts', () => {
    const index = indexOf(plainBug(1), fullBug(2));
    const whole = indexFromSnapshot(snapshotOf(index));
    expect(whole.bugAt(1)).toEqual(fullBug(2));
    const { core } = snapshotPartsOf(index);
    // The core alone carries every field a page shows: no part is needed to render.
    expect(indexFromSnapshot(core).bugAt(1)).toEqual(fullBug(2));
  });

  it('survives an adopted snapshot, whose sparse values are decoded as they are read, and one before them', () => {
    const unknownMarks = plainBug(3, { attachmentCount: 1, privateAttachments: undefined });
    const knownNone = plainBug(4, { attachmentCount: 1, privateAttachments: [] });
    const index = indexOf(plainBug(1), fullBug(2), unknownMarks, knownNone);
    const bytes = snapshotOf(index);
    const adopted = adoptIndexSnapshot(bytes);
    // Version 4 stored each of these columns as one JSON list; it is still read.
    const older = indexFromSnapshot(asVersion4(snapshotOf(index)));
    for (const loaded of [adopted, older]) {
      expect(loaded.bugAt(1)).toEqual(fullBug(2));
      expect(loaded.bugAt(0)).toEqual(index.bugAt(0));
      expect(loaded.privateAttachmentsAt(2)).toBeUndefined();
      expect(loaded.privateAttachmentsAt(3)).toEqual([]);
      expect(loaded.bugAt(3)).toEqual(index.bugAt(3));
    }
    // A write over a stored value replaces it; one that empties it hides it.
    adopted.apply({ bug: { ...fullBug(2), flags: [], seeAlso: [], url: '', tags: {}, custom: {} }, rev: 4 });
    expect(adopted.bugAt(1)).toMatchObject({ flags: [], seeAlso: [], url: '', tags: {}, custom: {} });
    expect(indexFromSnapshot(snapshotOf(adopted)).bugAt(1)).toEqual(adopted.bugAt(1));
  });

  it('follows a later revision and the backfill of private attachments', () => {
    const index = indexOf(fullBug(2));
    index.apply({ bug: { ...fullBug(2), summary: 'Renamed', flags: [] }, rev: 4 });
    expect(index.bugAt(0)).toMatchObject({ summary: 'Renamed', flags: [] });
    const unknown = { ...fullBug(2), privateAttachments: undefined };
    index.apply({ bug: unknown, rev: 5 });
    expect(index.bugAt(0)).toBeUndefined();
    index.setPrivateAttachments(2, 5, [{ id: 301, creatorId: 4 }]);
    expect(index.bugAt(0)?.privateAttachments).toEqual([{ id: 301, creatorId: 4 }]);
  });

  it('is refused where the columns would change the bug, so the page reads the table', () => {
    const legacy = { ...plainBug(1), versionId: undefined } as unknown as Bug;
    const spacedTime = plainBug(2, { creationTime: '2025-01-01 00:00:00' });
    const fractional = plainBug(3, { lastChangeTime: '2025-01-02T00:00:00.123Z' });
    const qaZero = plainBug(4, { qaContactId: 0 });
    const extraField = { ...plainBug(5), version: '1.0' } as Bug;
    const index = indexOf(legacy, spacedTime, fractional, qaZero, extraField, plainBug(6));
    expect([0, 1, 2, 3, 4].map((slot) => index.bugAt(slot))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(index.bugAt(5)?.id).toBe(6);
  });

  it('is refused for flags from a snapshot written before flags kept their ids', () => {
    const index = indexOf(fullBug(2));
    // What an older snapshot held: no READS_BACK bit, flags without id and dates.
    index.bits[0]! &= ~READS_BACK_BIT;
    index.flags.set(
      0,
      index.flags
        .get(0)
        .map(({ typeId, status, setterId, requesteeId }) => ({ typeId, status, setterId, requesteeId })),
    );
    const reloaded = indexFromSnapshot(snapshotOf(index));
    expect(reloaded.bugAt(0)).toBeUndefined();
    expect(reloaded.flags.get(0)).toEqual([{ typeId: 1, status: '?', setterId: 2, requesteeId: 5 }]);
  });

  it('is decided again for bugs an older snapshot left unknown, from the table, at the same revision only', () => {
    const index = indexOf(plainBug(1), fullBug(2), plainBug(3, { creationTime: '2025-01-01 00:00:00' }));
    expect(index.bugsNotCheckedForReadBack(10)).toEqual([]);
    for (let slot = 0; slot < 3; slot++) index.bits[slot]! &= ~(READS_BACK_BIT | NOT_READ_BACK_BIT);
    index.flags.set(1, []);
    expect(index.bugsNotCheckedForReadBack(10)).toEqual([1, 2, 3]);
    expect(index.bugsNotCheckedForReadBack(2)).toEqual([1, 2]);
    expect(index.bugAt(1)).toBeUndefined();
    // The table's copy at another revision is not taken: the change log brings the newer one.
    expect(index.takeFromTable(fullBug(2), 4)).toBe(false);
    expect(index.takeFromTable(fullBug(2), 3)).toBe(true);
    expect(index.bugAt(1)).toEqual(fullBug(2));
    index.takeFromTable(plainBug(1), 3);
    index.takeFromTable(plainBug(3, { creationTime: '2025-01-01 00:00:00' }), 3);
    // Bug 3 does not read back, and is not reread again.
    expect(index.bugsNotCheckedForReadBack(10)).toEqual([]);
    // Nor is a bug the table no longer holds, once the compactor found it missing.
    index.apply({ bug: plainBug(4), rev: 1 });
    index.bits[3]! &= ~(READS_BACK_BIT | NOT_READ_BACK_BIT);
    expect(index.bugsNotCheckedForReadBack(10)).toEqual([4]);
    index.markNotReadBack(4);
    expect(index.bugsNotCheckedForReadBack(10)).toEqual([]);
    expect(index.bugAt(3)).toBeUndefined();
    expect(index.bugAt(2)).toBeUndefined();
    expect(index.bits[2]! & NOT_READ_BACK_BIT).toBe(NOT_READ_BACK_BIT);
  });
});
