import { useState } from 'preact/hooks';
import { formatTime } from '../components/format.ts';
import { ErrorMessage, Loading, StatusLine } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { adminHref } from '../lib/routes.ts';
import { announce, navigate } from '../state/router.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { Confirm } from './Confirm.tsx';
import {
  type AdminGroup,
  type AdminUser,
  changeUser,
  createUser,
  findUsers,
  getAdminUser,
  listGroups,
  revokeUserApiKey,
  userActivity,
  userApiKeys,
} from './peopleApi.ts';
import { groupChanges, userChanges } from './peopleLogic.ts';
import { useAction } from './useAction.ts';

/** editusers.cgi: find, create and edit accounts (editusers). */
export function UsersPage({ params }: { params: URLSearchParams }) {
  const action = params.get('action');
  const userId = params.get('userid');
  if (action === 'add') {
    return (
      <AdminFrame cgi="editusers" title="Add a user">
        <NewUser />
      </AdminFrame>
    );
  }
  if (action === 'edit' && userId) {
    return (
      <AdminFrame cgi="editusers" title="Edit a user">
        <EditUser key={userId} id={userId} />
      </AdminFrame>
    );
  }
  return (
    <AdminFrame cgi="editusers">
      <FindUsers matchstr={params.get('matchstr') ?? ''} disabled={params.get('include_disabled') === '1'} />
    </AdminFrame>
  );
}

function FindUsers({ matchstr, disabled }: { matchstr: string; disabled: boolean }) {
  const [text, setText] = useState(matchstr);
  const [withDisabled, setWithDisabled] = useState(disabled);
  const searched = matchstr !== '' || disabled;
  const users = useLoad(
    () => (searched ? findUsers(matchstr, disabled) : Promise.resolve([])),
    [matchstr, disabled, searched],
  );
  return (
    <>
      <p>
        <a href={adminHref('editusers', { action: 'add' })}>Add a new user</a>
      </p>
      <form
        class="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const query: Record<string, string> = { matchstr: text.trim() || '@' };
          if (withDisabled) query.include_disabled = '1';
          navigate(adminHref('editusers', query));
        }}
      >
        <label>
          Login or real name contains
          <input type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <label class="check">
          <input type="checkbox" checked={withDisabled} onChange={(e) => setWithDisabled(e.currentTarget.checked)} />
          Include disabled accounts
        </label>
        <p>
          <button type="submit">Find users</button>
        </p>
      </form>
      <ErrorMessage error={users.error} />
      {searched && users.loading && <Loading what="users" />}
      {searched && users.data && (
        <UserTable users={users.data} caption={`${users.data.length} users found for “${matchstr}”`} />
      )}
    </>
  );
}

function UserTable({ users, caption }: { users: AdminUser[]; caption: string }) {
  return (
    <table class="admin-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Login</th>
          <th scope="col">Real name</th>
          <th scope="col">Account</th>
        </tr>
      </thead>
      <tbody>
        {users.map((u) => (
          <tr key={u.id}>
            <td>
              <a href={adminHref('editusers', { action: 'edit', userid: u.id })}>{u.name}</a>
            </td>
            <td>{u.real_name}</td>
            <td>{u.can_login === false ? `Disabled: ${u.login_denied_text ?? ''}` : 'Active'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewUser() {
  const [login, setLogin] = useState('');
  const [realName, setRealName] = useState('');
  const [password, setPassword] = useState('');
  const act = useAction();
  return (
    <form
      class="admin-form"
      onSubmit={async (e) => {
        e.preventDefault();
        let id = 0;
        const ok = await act.run(async () => {
          id = (await createUser({ email: login.trim(), full_name: realName, password })).id;
        }, 'Created.');
        if (ok) {
          announce(`The user ${login.trim()} has been created.`);
          navigate(adminHref('editusers', { action: 'edit', userid: id }));
        }
      }}
    >
      <label>
        Login (email address)
        <input type="email" required value={login} onInput={(e) => setLogin(e.currentTarget.value)} />
      </label>
      <label>
        Real name
        <input value={realName} onInput={(e) => setRealName(e.currentTarget.value)} />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <ErrorMessage error={act.error}>
        <p>The user was not created.</p>
      </ErrorMessage>
      <p>
        <button type="submit" disabled={act.busy}>
          Create user
        </button>
      </p>
    </form>
  );
}

function EditUser({ id }: { id: string }) {
  const user = useLoad(() => getAdminUser(id), [id]);
  const groups = useLoad(() => listGroups(), []);
  if (user.error) return <ErrorMessage error={user.error} />;
  if (!user.data) return <Loading what="the user" />;
  const u = user.data;
  return (
    <>
      <p>
        <a href={adminHref('editusers')}>Find other users</a>
      </p>
      <AccountForm user={u} onSaved={user.reload} />
      <section aria-labelledby="user-groups">
        <h2 id="user-groups">Groups</h2>
        <ErrorMessage error={groups.error} />
        {groups.data ? <GroupForm user={u} groups={groups.data} onSaved={user.reload} /> : <Loading what="groups" />}
      </section>
      <ApiKeysOfUser user={u} />
      <section aria-labelledby="user-activity">
        <h2 id="user-activity">Activity</h2>
        <p>
          <a href={`/buglist.cgi?quicksearch=${encodeURIComponent(`reporter:${u.name}`)}`}>Bugs reported by {u.name}</a>
          {' · '}
          <a href={`/buglist.cgi?quicksearch=${encodeURIComponent(`assignee:${u.name}`)}`}>Bugs assigned to them</a>
        </p>
        <AccountHistory user={u} />
      </section>
    </>
  );
}

function AccountForm({ user, onSaved }: { user: AdminUser; onSaved: () => void }) {
  const [login, setLogin] = useState(user.name);
  const [realName, setRealName] = useState(user.real_name ?? '');
  const [password, setPassword] = useState('');
  const [mail, setMail] = useState(user.email_enabled !== false);
  const [disabledText, setDisabledText] = useState(user.login_denied_text ?? '');
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  const changes = userChanges(user, { login, realName, password, mail, disabledText });
  const disabling = (user.login_denied_text ?? '') === '' && disabledText.trim() !== '';
  const save = async () => {
    setConfirming(false);
    const ok = await act.run(() => changeUser(user.id, changes), 'The account is saved.');
    if (ok) {
      setPassword('');
      onSaved();
    }
  };
  return (
    <form
      class="admin-form"
      aria-labelledby="user-account"
      onSubmit={(e) => {
        e.preventDefault();
        if (Object.keys(changes).length === 0) return;
        if (disabling) setConfirming(true);
        else void save();
      }}
    >
      <h2 id="user-account">Account of {user.name}</h2>
      <label>
        Login (email address)
        <input type="email" required value={login} onInput={(e) => setLogin(e.currentTarget.value)} />
      </label>
      <label>
        Real name
        <input value={realName} onInput={(e) => setRealName(e.currentTarget.value)} />
      </label>
      <label>
        New password
        <input
          type="password"
          autoComplete="new-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <p class="hint">Leave the password empty to keep the current one.</p>
      <label class="check">
        <input type="checkbox" checked={mail} onChange={(e) => setMail(e.currentTarget.checked)} />
        Send bug mail to this user
      </label>
      <label>
        Disable text
        <textarea rows={3} value={disabledText} onInput={(e) => setDisabledText(e.currentTarget.value)} />
      </label>
      <p class="hint">
        Any text here disables the account: the user cannot log in and sees this text instead. Empty it to enable the
        account again.
      </p>
      {confirming && (
        <Confirm
          title={`Disable ${user.name}?`}
          confirmLabel="Disable the account"
          onConfirm={() => void save()}
          onCancel={() => setConfirming(false)}
          busy={act.busy}
        >
          <p>
            {user.name} will no longer be able to log in or use the API, and will be told: “{disabledText.trim()}”.
            Their bugs, comments and group memberships stay as they are.
          </p>
        </Confirm>
      )}
      <ErrorMessage error={act.error}>
        <p>The account was not changed.</p>
      </ErrorMessage>
      {act.done && <StatusLine text={act.done} />}
      <p>
        <button type="submit" disabled={act.busy || Object.keys(changes).length === 0 || confirming}>
          Save the account
        </button>
      </p>
    </form>
  );
}

function GroupForm({ user, groups, onSaved }: { user: AdminUser; groups: AdminGroup[]; onSaved: () => void }) {
  const initialMember = new Set((user.groups ?? []).map((g) => g.name));
  const initialBless = new Set((user.bless_groups ?? []).map((g) => g.name));
  const [member, setMember] = useState(initialMember);
  const [bless, setBless] = useState(initialBless);
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  const plan = groupChanges(initialMember, member, initialBless, bless);
  const removals = [...(plan.groups?.remove ?? []), ...(plan.bless_groups?.remove ?? [])];
  const toggle = (set: Set<string>, name: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(name);
    else next.delete(name);
    return next;
  };
  const save = async () => {
    setConfirming(false);
    if (await act.run(() => changeUser(user.id, plan), 'The groups are saved.')) onSaved();
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (removals.length > 0) setConfirming(true);
        else void save();
      }}
    >
      <p class="hint">
        Membership may also come from a group's user regexp or from another group (members of editbugs are members of
        bz_canusewhines); such membership cannot be removed here.
      </p>
      <table class="admin-table">
        <caption>Groups of {user.name}</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Member</th>
            <th scope="col">May bless (grant it to others)</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.id}>
              <th scope="row">
                {g.name}
                <span class="hint"> — {g.description}</span>
              </th>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Member of ${g.name}`}
                  checked={member.has(g.name)}
                  onChange={(e) => setMember(toggle(member, g.name, e.currentTarget.checked))}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`May bless ${g.name}`}
                  checked={bless.has(g.name)}
                  onChange={(e) => setBless(toggle(bless, g.name, e.currentTarget.checked))}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {confirming && (
        <Confirm
          title="Take groups away?"
          confirmLabel="Save the groups"
          onConfirm={() => void save()}
          onCancel={() => setConfirming(false)}
          busy={act.busy}
        >
          <p>
            {user.name} loses {removals.join(', ')}: what those groups let them see or do (restricted bugs, editing,
            administration) ends with the next request they make.
          </p>
        </Confirm>
      )}
      <ErrorMessage error={act.error}>
        <p>The groups were not changed.</p>
      </ErrorMessage>
      {act.done && <StatusLine text={act.done} />}
      <p>
        <button type="submit" disabled={act.busy || confirming || Object.keys(plan).length === 0}>
          Save the groups
        </button>
      </p>
    </form>
  );
}

const HISTORY_PAGE = 25;

/** editusers' "View Account History": what the audit log holds about the account, newest first. */
function AccountHistory({ user }: { user: AdminUser }) {
  const [offset, setOffset] = useState(0);
  // Read again whenever the account is (a change saved above adds an entry).
  const history = useLoad(
    () => userActivity(user.id, { limit: HISTORY_PAGE + 1, offset }),
    [user.id, offset, JSON.stringify(user)],
  );
  const entries = history.data?.slice(0, HISTORY_PAGE) ?? [];
  const hasOlder = (history.data?.length ?? 0) > HISTORY_PAGE;
  return (
    <>
      <h3 id="user-history">Account history</h3>
      <ErrorMessage error={history.error} />
      {history.loading && <Loading what="the account history" />}
      {history.data && entries.length === 0 && <p>No changes to this account are recorded.</p>}
      {entries.length > 0 && (
        <table class="admin-table" aria-labelledby="user-history">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Removed</th>
              <th scope="col">Added</th>
            </tr>
          </thead>
          <tbody>
            {entries.flatMap((entry, index) =>
              entry.changes.map((change, row) => (
                <tr key={`${index}-${change.field_name}`}>
                  {row === 0 && <td rowSpan={entry.changes.length}>{formatTime(entry.when)}</td>}
                  {row === 0 && <td rowSpan={entry.changes.length}>{entry.who ?? 'the installation'}</td>}
                  <td>{activityFieldName(change.field_name)}</td>
                  <td>{change.removed}</td>
                  <td>{change.added}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
      {(offset > 0 || hasOlder) && (
        <p>
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - HISTORY_PAGE))}>
            Newer changes
          </button>{' '}
          <button type="button" disabled={!hasOlder} onClick={() => setOffset(offset + HISTORY_PAGE)}>
            Older changes
          </button>
        </p>
      )}
      <p class="hint">Changes recorded before Tracker kept a history per account are not listed.</p>
    </>
  );
}

/** The audit log's field names as editusers' history words them. */
function activityFieldName(field: string): string {
  const names: Record<string, string> = {
    __create__: 'Account created',
    email: 'Login',
    full_name: 'Real name',
    cryptpassword: 'Password',
    password_change_required: 'Password change required',
    disable_mail: 'Bugmail disabled',
    login_denied_text: 'Disabled text',
    is_enabled: 'Enabled',
    groups: 'Groups',
    bless_groups: 'Bless rights',
    api_key: 'API key',
  };
  return names[field] ?? field;
}

function ApiKeysOfUser({ user }: { user: AdminUser }) {
  const keys = useLoad(() => userApiKeys(user.id), [user.id]);
  const [revoking, setRevoking] = useState<number | null>(null);
  const act = useAction();
  return (
    <section aria-labelledby="user-keys">
      <h2 id="user-keys">API keys</h2>
      <ErrorMessage error={keys.error} />
      {keys.data && keys.data.length === 0 && <p>{user.name} has no API keys.</p>}
      {keys.data && keys.data.length > 0 && (
        <table class="admin-table">
          <caption>API keys of {user.name}</caption>
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id}>
                <td>{k.description || `Key ${k.id}`}</td>
                <td>{formatTime(k.creation_time)}</td>
                <td>{k.last_used ? formatTime(k.last_used) : 'never'}</td>
                <td>
                  {k.revoked ? (
                    'Revoked'
                  ) : (
                    <button type="button" onClick={() => setRevoking(k.id)}>
                      Revoke {k.description || `key ${k.id}`}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking !== null && (
        <Confirm
          title="Revoke this API key?"
          confirmLabel="Revoke the key"
          busy={act.busy}
          onCancel={() => setRevoking(null)}
          onConfirm={async () => {
            const keyId = revoking;
            setRevoking(null);
            if (await act.run(() => revokeUserApiKey(user.id, keyId), 'The key is revoked.')) keys.reload();
          }}
        >
          <p>
            Every script or site using this key of {user.name} stops working at once. A revoked key cannot be restored.
          </p>
        </Confirm>
      )}
      <ErrorMessage error={act.error} />
      {act.done && <StatusLine text={act.done} />}
    </section>
  );
}
