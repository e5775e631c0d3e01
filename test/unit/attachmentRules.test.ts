import { describe, expect, it } from 'vitest';
import {
  attachmentLimitKb,
  checkContentType,
  checkFileName,
  decodeData,
  LAMBDA_ATTACHMENT_LIMIT_KB,
  MAX_RESPONSE_BASE64_BYTES,
  maySeeAttachment,
} from '../../shared/domain/bug/attachment.ts';
import { changeCommentTags, checkCommentTag } from '../../shared/domain/bug/commentTags.ts';
import { ANONYMOUS, type Caller } from '../../shared/domain/identity/caller.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { TrackerError } from '../../shared/trackerError.ts';

const codeOf = (work: () => unknown): number | undefined => {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof TrackerError ? error.code : -1;
  }
};

const user = (id: number, groups: string[] = []): Caller => ({
  user: { id, login: `u${id}@x.test` } as Caller['user'],
  groups: new Set(groups),
  blessGroups: new Set(),
});

describe('attachment rules', () => {
  it('accepts MIME types Bugzilla accepts and refuses the rest with 601', () => {
    for (const type of [
      'text/plain',
      'application/octet-stream',
      'image/svg+xml',
      'text/plain; charset=UTF-8',
      'application/vnd.ms-excel',
    ])
      expect(checkContentType(type)).toBe(type);
    for (const type of ['', 'text', 'bogus/type', 'text/', 'text/plain extra', '/plain'])
      expect(codeOf(() => checkContentType(type))).toBe(601);
  });

  it('keeps only the file name of a path, and needs one (603)', () => {
    expect(checkFileName('C:\\Users\\me\\crash.dmp')).toBe('crash.dmp');
    expect(checkFileName('/tmp/x/log.txt')).toBe('log.txt');
    expect(codeOf(() => checkFileName('dir/'))).toBe(603);
    expect(codeOf(() => checkFileName(undefined))).toBe(603);
  });

  it('decodes base64 strictly: 606 for nothing, 600 over the limit, 32000 for what is not base64', () => {
    expect(decodeData('aGVsbG8=', DEFAULT_PARAMETERS).toString()).toBe('hello');
    expect(decodeData('aGVs\nbG8=', DEFAULT_PARAMETERS).toString()).toBe('hello');
    expect(codeOf(() => decodeData('', DEFAULT_PARAMETERS))).toBe(606);
    expect(codeOf(() => decodeData(undefined, DEFAULT_PARAMETERS))).toBe(606);
    expect(codeOf(() => decodeData('not base64!', DEFAULT_PARAMETERS))).toBe(32000);
    expect(codeOf(() => decodeData('aGVsbG8', DEFAULT_PARAMETERS))).toBeUndefined();
    expect(codeOf(() => decodeData('aGVsb=', DEFAULT_PARAMETERS))).toBe(32000);
    expect(codeOf(() => decodeData('a', DEFAULT_PARAMETERS))).toBe(32000);
    // A multi-megabyte body is checked in linear time, without exhausting the stack.
    expect(
      decodeData(Buffer.alloc(4000 * 1024, 7).toString('base64'), { ...DEFAULT_PARAMETERS, maxattachmentsize: '4400' }),
    ).toHaveLength(4000 * 1024);
    const small = { ...DEFAULT_PARAMETERS, maxattachmentsize: '1' };
    expect(decodeData(Buffer.alloc(1024).toString('base64'), small)).toHaveLength(1024);
    expect(codeOf(() => decodeData(Buffer.alloc(1025).toString('base64'), small))).toBe(600);
  });

  it('never accepts more than one Lambda request can carry, whatever maxattachmentsize says', () => {
    expect(attachmentLimitKb({ ...DEFAULT_PARAMETERS, maxattachmentsize: '1000' })).toEqual({
      kb: 1000,
      byLambda: false,
    });
    expect(attachmentLimitKb({ ...DEFAULT_PARAMETERS, maxattachmentsize: '100000' })).toEqual({
      kb: LAMBDA_ATTACHMENT_LIMIT_KB,
      byLambda: true,
    });
    // The cap plus base64 and the JSON around it stays under Lambda's 6 MB.
    expect(Math.ceil((LAMBDA_ATTACHMENT_LIMIT_KB * 1024) / 3) * 4 + 64 * 1024).toBeLessThan(6 * 1024 * 1024);
    // ... and the largest accepted attachment can be read back in one response.
    expect(Math.ceil((LAMBDA_ATTACHMENT_LIMIT_KB * 1024) / 3) * 4).toBeLessThanOrEqual(MAX_RESPONSE_BASE64_BYTES);
    expect(MAX_RESPONSE_BASE64_BYTES + 100 * 1024).toBeLessThan(6 * 1024 * 1024);
  });

  it('shows private attachments to insiders and their creator only', () => {
    const attachment = { isPrivate: true, creatorId: 7 };
    expect(maySeeAttachment(user(7), DEFAULT_PARAMETERS, attachment)).toBe(true);
    expect(maySeeAttachment(user(8, [DEFAULT_PARAMETERS.insidergroup]), DEFAULT_PARAMETERS, attachment)).toBe(true);
    expect(maySeeAttachment(user(8), DEFAULT_PARAMETERS, attachment)).toBe(false);
    expect(maySeeAttachment(ANONYMOUS, DEFAULT_PARAMETERS, attachment)).toBe(false);
    expect(maySeeAttachment(ANONYMOUS, DEFAULT_PARAMETERS, { isPrivate: false, creatorId: 7 })).toBe(true);
  });
});

describe('comment tag rules', () => {
  it('checks length first, then characters', () => {
    expect(checkCommentTag('  needinfo ')).toBe('needinfo');
    expect(codeOf(() => checkCommentTag('ab'))).toBe(127);
    expect(codeOf(() => checkCommentTag('a'.repeat(25)))).toBe(128);
    expect(checkCommentTag('a'.repeat(24))).toHaveLength(24);
    expect(codeOf(() => checkCommentTag('has space'))).toBe(126);
    expect(codeOf(() => checkCommentTag('a,b'))).toBe(126);
    expect(checkCommentTag('déjà-vu_1.2')).toBe('déjà-vu_1.2');
  });

  it('adds and removes case-insensitively, keeping the first spelling, and reports what really changed', () => {
    expect(changeCommentTags(['Spam'], ['spam', 'needinfo'], [])).toEqual({
      tags: ['needinfo', 'Spam'],
      added: ['needinfo'],
      removed: [],
    });
    expect(changeCommentTags(['Spam', 'needinfo'], [], ['SPAM', 'absent'])).toEqual({
      tags: ['needinfo'],
      added: [],
      removed: ['Spam'],
    });
    expect(changeCommentTags([], ['temp'], ['TEMP'])).toEqual({ tags: [], added: [], removed: [] });
  });
});
