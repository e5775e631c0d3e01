import {
  arrayOf,
  boolean,
  bugzillaTime,
  integer,
  type JsonSchema,
  nullable,
  ref,
  resource,
  string,
} from '../jsonSchema.ts';
import { mailPreferencesSchema } from './mailPreferencesSchema.ts';

/** Users, groups and API keys as shared/domain/identity/ renders them (userView.ts, groupRules.ts). */
const savedSearch = resource({ id: integer, name: string, query: string });

export const IDENTITY_SCHEMAS: Record<string, JsonSchema> = {
  User: resource(
    {
      id: integer,
      real_name: string,
      nick: string,
      name: string,
      email: string,
      can_login: boolean,
      email_enabled: boolean,
      login_denied_text: string,
      groups: arrayOf(resource({ id: integer, name: string, description: string })),
      bless_groups: arrayOf(resource({ id: integer, name: string, description: string })),
      saved_searches: arrayOf(savedSearch),
      saved_reports: arrayOf(savedSearch),
    },
    {
      description:
        "A user, in three tiers: logged out id, name, real_name, nick; logged in + email, can_login, groups (those the caller may bless); editusers + email_enabled, login_denied_text; editusers and one's own account + bless_groups (Tracker: the groups the user may grant); one's own account + saved searches and reports.",
    },
  ),
  Group: resource(
    {
      id: integer,
      name: string,
      description: string,
      is_bug_group: boolean,
      user_regexp: string,
      is_active: boolean,
      member_groups: {
        ...arrayOf(string),
        description:
          "Tracker's extension: the groups whose members are thereby members of this one (Bugzilla's inclusions, editbugs -> bz_canusewhines, aside).",
      },
      membership: { ...arrayOf(ref('User')), description: 'With `membership=1`: every member, direct or not.' },
    },
    { description: 'A group; is_bug_group, user_regexp, is_active and member_groups only for creategroups.' },
  ),
  SavedSearch: resource(
    {
      id: integer,
      name: string,
      query: string,
      owner: string,
      owner_id: integer,
      is_own: boolean,
      shared_with_group: nullable(string),
    },
    {
      description:
        'A saved search (Tracker addition): its buglist query string, owner and the group it is shared with.',
    },
  ),
  ApiKey: resource({
    id: integer,
    description: string,
    revoked: boolean,
    creation_time: bugzillaTime,
    last_used: nullable(bugzillaTime),
  }),
  AccountActivity: {
    type: 'object',
    description:
      "An entry of a user's account history (Tracker addition, Bugzilla's editusers View Account History): when, who (null for the installation itself) and what changed.",
    properties: {
      when: bugzillaTime,
      who: nullable(string),
      changes: arrayOf({
        type: 'object',
        properties: { field_name: string, removed: string, added: string },
        required: ['field_name', 'removed', 'added'],
        additionalProperties: false,
      }),
    },
    required: ['when', 'who', 'changes'],
    additionalProperties: false,
  },
  MailPreferences: mailPreferencesSchema,
};
