import * as z from 'zod';
import { idSchema, maybeBool, maybeText, text } from './wireValues.ts';

/** Users as bugs name them, user accounts, and groups with their members. */

/** A user as bugs name them (`assigned_to_detail`, ...): enough to map a login to an id. */
export interface UserRef {
  id: number;
  login: string;
  realName: string;
}

export const userRefSchema = z
  .object({ id: idSchema, name: z.string(), real_name: text })
  .transform((wire): UserRef => ({ id: wire.id, login: wire.name, realName: wire.real_name }));

export interface UserRecord {
  id: number;
  login: string;
  /** Hidden from callers outside editusers on some installations: null then. */
  email: string | null;
  realName: string;
  /** False for a disabled account. */
  canLogin: boolean | null;
  /** editusers only. */
  emailEnabled: boolean | null;
  /** editusers only; non-empty means disabled, with the reason shown to the user. */
  loginDeniedText: string | null;
  /**
   * The groups the user is in, as the source derives them (system group inheritance and
   * `user_regexp` included: REST cannot tell direct membership from derived). Complete only for
   * the account itself or an editusers caller; others see the groups they can bless. Null when
   * not sent.
   */
  groups: Array<{ id: number; name: string }> | null;
}

export const userSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    real_name: text,
    email: maybeText,
    can_login: maybeBool,
    email_enabled: maybeBool,
    login_denied_text: maybeText,
    groups: z
      .array(z.object({ id: idSchema, name: z.string() }))
      .nullish()
      .transform((value) => value ?? null),
  })
  .transform(
    (wire): UserRecord => ({
      id: wire.id,
      login: wire.name,
      email: wire.email,
      realName: wire.real_name,
      canLogin: wire.can_login,
      emailEnabled: wire.email_enabled,
      loginDeniedText: wire.login_denied_text,
      groups: wire.groups,
    }),
  );

export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  /** creategroups only (null otherwise), as the next two. */
  isActive: boolean | null;
  isBugGroup: boolean | null;
  userRegexp: string | null;
  /** Members' ids and logins with `membership=1` (derived memberships included); null when not sent. */
  members: Array<{ id: number; login: string }> | null;
}

export const groupSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    description: text,
    is_active: maybeBool,
    is_bug_group: maybeBool,
    user_regexp: maybeText,
    membership: z.array(z.object({ id: idSchema, name: z.string() })).nullish(),
    users: z.array(z.object({ id: idSchema, name: z.string() })).nullish(),
  })
  .transform(
    (wire): GroupRecord => ({
      id: wire.id,
      name: wire.name,
      description: wire.description,
      isActive: wire.is_active,
      isBugGroup: wire.is_bug_group,
      userRegexp: wire.user_regexp,
      members: (wire.membership ?? wire.users)?.map((member) => ({ id: member.id, login: member.name })) ?? null,
    }),
  );
