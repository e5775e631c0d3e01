import { describe, expect, it } from 'vitest';
import { ownAccountChanges, rightsFrom } from '../../web/src/lib/rights.ts';

describe('web app: rights from GET /rest/whoami', () => {
  it('reads the Tracker additions, a missing flag as a right not held', () => {
    expect(
      rightsFrom({ is_insider: true, is_timetracker: false, can_tag_comments: true, email_enabled: false }),
    ).toEqual({
      insider: true,
      timetracker: false,
      tagsComments: true,
      emailEnabled: false,
      groups: [],
      administeredProducts: [],
    });
    expect(rightsFrom({})).toEqual({
      insider: false,
      timetracker: false,
      tagsComments: false,
      emailEnabled: true,
      groups: [],
      administeredProducts: [],
    });
    expect(rightsFrom({ groups: ['editcomponents'], administered_products: ['Widgets'] })).toMatchObject({
      groups: ['editcomponents'],
      administeredProducts: ['Widgets'],
    });
  });
});

describe('web app: the account form', () => {
  const stored = { realName: 'Ann', mail: true, login: 'ann@tracker.test' };
  const form = { realName: 'Ann', mail: true, currentPassword: '', password: '', confirm: '', email: '' };

  it('sends only what changed', () => {
    expect(ownAccountChanges(form, stored)).toEqual({ changes: {} });
    expect(ownAccountChanges({ ...form, realName: 'Ann B', mail: false }, stored)).toEqual({
      changes: { full_name: 'Ann B', email_enabled: false },
    });
  });

  it('sends a new password with the current one, and only when confirmed', () => {
    expect(
      ownAccountChanges({ ...form, currentPassword: 'old one', password: 'new one', confirm: 'new one' }, stored),
    ).toEqual({ changes: { current_password: 'old one', new_password: 'new one' } });
    expect(ownAccountChanges({ ...form, currentPassword: 'old', password: 'new one', confirm: 'new' }, stored)).toEqual(
      {
        problem: 'The two new passwords differ.',
      },
    );
    expect(ownAccountChanges({ ...form, password: 'new one', confirm: 'new one' }, stored)).toEqual({
      problem: 'Type your current password to set a new one.',
    });
  });

  it('sends a new login only when it differs from the current one, with the current password', () => {
    expect(ownAccountChanges({ ...form, email: ' ann@new.test ', currentPassword: 'mine' }, stored)).toEqual({
      changes: { email: 'ann@new.test', current_password: 'mine' },
    });
    expect(ownAccountChanges({ ...form, email: 'ann@new.test' }, stored)).toEqual({
      problem: 'Type your current password to change your email address.',
    });
    expect(ownAccountChanges({ ...form, email: stored.login.toUpperCase() }, stored)).toEqual({ changes: {} });
  });
});
