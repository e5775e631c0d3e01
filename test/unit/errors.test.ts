import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, type ErrorName, errors } from '../../shared/errors.ts';
import { TrackerError } from '../../shared/trackerError.ts';

describe('the error registry', () => {
  it('gives every catalogue entry a constructor that answers with its code', () => {
    for (const name of Object.keys(ERROR_CATALOG) as ErrorName[]) {
      const build = errors[name] as (...args: string[]) => TrackerError;
      const error = build('x');
      expect(error).toBeInstanceOf(TrackerError);
      expect(error.code, name).toBe(ERROR_CATALOG[name].code);
    }
  });

  it('builds the message itself where one situation owns the code', () => {
    expect(errors.bugNotFound(7)).toMatchObject({ code: 101, httpStatus: 404, message: 'Bug #7 does not exist.' });
    expect(errors.bugAccessDenied('x')).toMatchObject({ code: 102, httpStatus: 401 });
    expect(errors.loginRequired()).toMatchObject({
      code: 410,
      httpStatus: 401,
      message: 'You must log in before using this part of Tracker.',
    });
    expect(errors.invalidParameter('bad')).toMatchObject({ code: 32000, httpStatus: 400, message: 'bad' });
  });

  it('gives every title once per code', () => {
    const titles = new Map<number, string>();
    for (const { code, title } of Object.values(ERROR_CATALOG)) {
      expect(titles.get(code) ?? title, `code ${code}`).toBe(title);
      titles.set(code, title);
    }
  });
});
