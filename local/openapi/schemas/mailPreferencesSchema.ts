import {
  EVENT_DESCRIPTIONS,
  EVENT_NAMES,
  EXCEPTION_NAMES,
  RELATIONSHIP_NAMES,
} from '../../../shared/domain/notification/mailPreferenceNames.ts';
import { MAIL_EVENTS } from '../../../shared/domain/notification/mailPreferences.ts';
import { arrayOf, boolean, envelope, integer, type JsonSchema, string } from '../jsonSchema.ts';

/** One column of the matrix: a box per event (its words from Bugzilla's page), then the two overrides. */
const column = envelope({
  ...Object.fromEntries(
    MAIL_EVENTS.map((event) => [EVENT_NAMES[event], { ...boolean, description: EVENT_DESCRIPTIONS[event] }]),
  ),
  [EXCEPTION_NAMES.unconfirmed]: { ...boolean, description: 'But not when the bug is in the UNCONFIRMED state.' },
  [EXCEPTION_NAMES.ownChanges]: { ...boolean, description: 'But not when the change was made by me.' },
});

/** GET and PUT /rest/preferences/mail's answer (shared/application/identity/mailPreferences.ts). */
export const mailPreferencesSchema: JsonSchema = envelope({
  email_enabled: { ...boolean, description: 'Bug mail at all (the account setting).' },
  flag_requested_of_me: { ...boolean, description: 'Email me when someone asks me to set a flag.' },
  flag_i_requested: { ...boolean, description: 'Email me when someone sets a flag I asked for.' },
  relationships: envelope(Object.fromEntries(Object.values(RELATIONSHIP_NAMES).map((name) => [name, column]))),
  ignored_bugs: { ...arrayOf(integer), description: 'Bugs that never send me mail, by id.' },
  watched_users: { ...arrayOf(string), description: 'Logins of the people whose bug mail I get too.' },
  watchers: { ...arrayOf(string), description: 'Logins of the people who get my bug mail too.' },
});
