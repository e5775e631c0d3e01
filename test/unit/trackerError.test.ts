import { describe, expect, it } from 'vitest';
import {
  GENERIC_USER_ERROR,
  httpStatusForCode,
  INTERNAL_ERROR,
  NO_SUCH_METHOD,
  QUERY_TOO_LONG,
  TrackerError,
} from '../../shared/trackerError.ts';

describe('httpStatusForCode (clarifications.md, "Error envelope and HTTP status")', () => {
  it.each([51, 101, 32614])('answers 404 for code %i', (code) => {
    expect(httpStatusForCode(code)).toBe(404);
  });

  it.each([102, 106, 109, 110, 113, 115, 120, 300, 301, 302, 303, 304, 410, 504, 505])(
    'answers 401 for code %i',
    (code) => {
      expect(httpStatusForCode(code)).toBe(401);
    },
  );

  it('answers 413 for 58, 414 for the over-long query string and 500 for -32000', () => {
    expect(httpStatusForCode(58)).toBe(413);
    expect(httpStatusForCode(QUERY_TOO_LONG)).toBe(414);
    expect(httpStatusForCode(INTERNAL_ERROR)).toBe(500);
  });

  it.each([50, 52, 56, 100, 103, 107, 111, 140, 305, 306, 307, 500, 600, 700, 800, 1000, 1300, 32000, 0, -1, 99999])(
    'answers 400 for code %i (everything else)',
    (code) => {
      expect(httpStatusForCode(code)).toBe(400);
    },
  );

  it('names the well-known codes', () => {
    expect([INTERNAL_ERROR, GENERIC_USER_ERROR, NO_SUCH_METHOD, QUERY_TOO_LONG]).toEqual([-32000, 32000, 32614, 414]);
  });
});

describe('TrackerError', () => {
  it('carries its code, message and the HTTP status of its code', () => {
    const error = new TrackerError(101, 'Bug #9999 does not exist.');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'TrackerError',
      code: 101,
      httpStatus: 404,
      message: 'Bug #9999 does not exist.',
    });
  });
});
