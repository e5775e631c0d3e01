import { useState } from 'preact/hooks';
import { getMailPreferences, type MailPreferences, updateMailPreferences } from '../api/mailPreferences.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { UserInput } from '../components/UserInput.tsx';
import { useLoad } from '../components/useLoad.ts';
import { announce } from '../state/router.ts';
import { rights } from '../state/session.ts';

/** The columns of Bugzilla's matrix (email.html.tmpl), by the API's names. */
const ROLES: ReadonlyArray<readonly [string, string]> = [
  ['assignee', 'Assignee'],
  ['reporter', 'Reporter'],
  ['qa_contact', 'QA Contact'],
  ['cc', 'CCed'],
];

/** Its rows, in Bugzilla's order and words. */
const EVENTS: ReadonlyArray<readonly [string, string]> = [
  ['added_removed', "I'm added to or removed from this capacity"],
  ['bug_created', 'A new bug is created'],
  ['opened_closed', 'The bug is resolved or reopened'],
  ['component', 'The product or component changes'],
  ['project_management', 'The priority, status, severity, or milestone changes'],
  ['comment', 'New comments are added'],
  ['attachment', 'New attachments are added'],
  ['attachment_data', 'Attachment details changes'],
  ['keywords', 'The keywords field changes'],
  ['cc', 'The CC field changes'],
  ['dependencies', 'The dependency tree changes'],
  ['other', 'Any field not mentioned above changes'],
];

const EXCEPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['not_if_unconfirmed', 'The bug is in the UNCONFIRMED state'],
  ['not_if_changed_by_me', 'The change was made by me'],
];

/** The reporter never gains or loses that role, so Bugzilla greys the box out. */
const disabledBox = (role: string, box: string) => role === 'reporter' && box === 'added_removed';

const splitList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * Bugzilla's e-mail preferences (userprefs.cgi tab=email, GET/PUT /rest/preferences/mail): bug
 * mail on or off, the flag mails, the relationship × event matrix with its "but not when" rows,
 * the bugs ignored and the people watched. The form saves the boxes; the lists change at once.
 */
export function MailSettings() {
  const loaded = useLoad(getMailPreferences, []);
  const [draft, setDraft] = useState<MailPreferences | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [ignore, setIgnore] = useState('');
  const [watch, setWatch] = useState('');
  const shown = draft ?? loaded.data;

  const save = async (change: Parameters<typeof updateMailPreferences>[0], message: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await updateMailPreferences(change);
      loaded.set(answer);
      setDraft(null);
      if (change.email_enabled !== undefined && rights.value)
        rights.value = { ...rights.value, emailEnabled: answer.email_enabled };
      announce(message);
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };

  if (!shown) return loaded.loading ? <Loading what="mail preferences" /> : <ErrorMessage error={loaded.error} />;

  const edit = (change: (current: MailPreferences) => MailPreferences) => setDraft(change(shown));
  const setBox = (role: string, box: string, ticked: boolean) =>
    edit((current) => ({
      ...current,
      relationships: { ...current.relationships, [role]: { ...current.relationships[role], [box]: ticked } },
    }));
  const setAll = (on: boolean) =>
    edit((current) => ({
      ...current,
      flag_requested_of_me: on,
      flag_i_requested: on,
      relationships: Object.fromEntries(
        ROLES.map(([role]) => [
          role,
          Object.fromEntries([
            ...EVENTS.map(([event]) => [event, disabledBox(role, event) ? current.relationships[role]![event]! : on]),
            ...EXCEPTIONS.map(([exception]) => [exception, !on]),
          ]),
        ]),
      ),
    }));
  const boxRow = (box: string, description: string) => (
    <tr key={box}>
      {ROLES.map(([role, roleName]) => (
        <td key={role} class="center">
          <input
            type="checkbox"
            aria-label={`${roleName}: ${description}`}
            checked={shown.relationships[role]?.[box] ?? false}
            disabled={disabledBox(role, box)}
            onChange={(e) => setBox(role, box, e.currentTarget.checked)}
          />
        </td>
      ))}
      <th scope="row">{description}</th>
    </tr>
  );

  return (
    <section aria-labelledby="mail-heading">
      <h2 id="mail-heading">Email preferences</h2>
      <ErrorMessage error={error} />
      <form
        aria-label="Email preferences"
        onSubmit={(e) => {
          e.preventDefault();
          void save(
            {
              email_enabled: shown.email_enabled,
              flag_requested_of_me: shown.flag_requested_of_me,
              flag_i_requested: shown.flag_i_requested,
              relationships: shown.relationships,
            },
            'Email preferences saved.',
          );
        }}
      >
        <label class="checkbox">
          <input
            type="checkbox"
            checked={shown.email_enabled}
            onChange={(e) => edit((current) => ({ ...current, email_enabled: e.currentTarget.checked }))}
          />
          Send me bug mail
        </label>
        <p>
          <button type="button" onClick={() => setAll(true)}>
            Enable all mail
          </button>{' '}
          <button type="button" onClick={() => setAll(false)}>
            Disable all mail
          </button>
        </p>
        <h3>Global options</h3>
        <label class="checkbox">
          <input
            type="checkbox"
            checked={shown.flag_requested_of_me}
            onChange={(e) => edit((current) => ({ ...current, flag_requested_of_me: e.currentTarget.checked }))}
          />
          Email me when someone asks me to set a flag
        </label>
        <label class="checkbox">
          <input
            type="checkbox"
            checked={shown.flag_i_requested}
            onChange={(e) => edit((current) => ({ ...current, flag_i_requested: e.currentTarget.checked }))}
          />
          Email me when someone sets a flag I asked for
        </label>
        <h3>Field/recipient specific options</h3>
        <div class="table-wrap">
          <table class="mail-matrix">
            <caption>Which changes mail me, by my relationship to the bug</caption>
            <thead>
              <tr>
                <th scope="colgroup" colSpan={ROLES.length}>
                  When my relationship to this bug is:
                </th>
                <th scope="col" rowSpan={2}>
                  I want to receive mail when:
                </th>
              </tr>
              <tr>
                {ROLES.map(([role, roleName]) => (
                  <th key={role} scope="col">
                    {roleName}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{EVENTS.map(([event, description]) => boxRow(event, description))}</tbody>
            <tbody>
              <tr>
                <td colSpan={ROLES.length} />
                <th scope="col">but not when (overrides above):</th>
              </tr>
              {EXCEPTIONS.map(([exception, description]) => boxRow(exception, description))}
            </tbody>
          </table>
        </div>
        <p>
          <button type="submit" disabled={busy}>
            Save email preferences
          </button>
        </p>
      </form>

      <h3>User watching</h3>
      <p>
        If you watch a user, it is as if you are standing in their shoes for the purposes of getting email. Email is
        sent or not according to <em>your</em> preferences for <em>their</em> relationship to the bug.
      </p>
      {shown.watched_users.length > 0 ? (
        <ul aria-label="People you watch">
          {shown.watched_users.map((login) => (
            <li key={login}>
              {login}{' '}
              <button
                type="button"
                disabled={busy}
                aria-label={`Stop watching ${login}`}
                onClick={() => void save({ watched_users: { remove: [login] } }, `You no longer watch ${login}.`)}
              >
                Stop watching
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>You are currently not watching any users.</p>
      )}
      <form
        aria-label="Watch users"
        onSubmit={(e) => {
          e.preventDefault();
          const logins = splitList(watch);
          if (logins.length === 0) return;
          void save({ watched_users: { add: logins } }, `You now watch ${logins.join(', ')}.`).then(
            (saved) => saved && setWatch(''),
          );
        }}
      >
        <UserInput label="Add users to my watch list (comma separated)" value={watch} onInput={setWatch} multiple />
        <button type="submit" disabled={busy}>
          Watch
        </button>
      </form>
      <p>Users watching you: {shown.watchers.length > 0 ? shown.watchers.join(', ') : <i>No one</i>}</p>

      <h3>Ignore bugs</h3>
      <p>You never get any email about a bug you ignore.</p>
      {shown.ignored_bugs.length > 0 ? (
        <ul aria-label="Bugs you ignore">
          {shown.ignored_bugs.map((id) => (
            <li key={id}>
              <a href={`/show_bug.cgi?id=${id}`}>Bug {id}</a>{' '}
              <button
                type="button"
                disabled={busy}
                aria-label={`Stop ignoring bug ${id}`}
                onClick={() => void save({ ignored_bugs: { remove: [id] } }, `Bug ${id} mails you again.`)}
              >
                Stop ignoring
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>You are not ignoring any bugs.</p>
      )}
      <form
        aria-label="Ignore bugs"
        onSubmit={(e) => {
          e.preventDefault();
          const bugs = splitList(ignore);
          if (bugs.length === 0) return;
          void save({ ignored_bugs: { add: bugs } }, `Ignoring ${bugs.join(', ')}.`).then(
            (saved) => saved && setIgnore(''),
          );
        }}
      >
        <TextField
          label="Add bugs (ids or aliases, comma separated)"
          id="ignore-bugs"
          value={ignore}
          onInput={setIgnore}
        />
        <button type="submit" disabled={busy}>
          Ignore
        </button>
      </form>
    </section>
  );
}
