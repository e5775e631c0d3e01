import { useState } from 'preact/hooks';
import { ErrorMessage, Loading, StatusLine } from '../components/Messages.tsx';
import { UserInput } from '../components/UserInput.tsx';
import { useLoad } from '../components/useLoad.ts';
import { adminHref } from '../lib/routes.ts';
import { announce, navigate } from '../state/router.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { inAnyGroup } from './access.ts';
import { Confirm } from './Confirm.tsx';
import {
  type AdminGroup,
  type AdminUser,
  changeGroup,
  changeUser,
  createGroup,
  getGroup,
  listGroups,
} from './peopleApi.ts';
import { useAction } from './useAction.ts';

/** editgroups.cgi: groups, their user regexp, members and whether they are active (creategroups). */
export function GroupsPage({ params }: { params: URLSearchParams }) {
  const action = params.get('action');
  const group = params.get('group');
  if (action === 'add') {
    return (
      <AdminFrame cgi="editgroups" title="Add a group">
        <GroupForm />
      </AdminFrame>
    );
  }
  if (action === 'changeform' && group) {
    return (
      <AdminFrame cgi="editgroups" title="Edit a group">
        <EditGroup key={group} id={group} />
      </AdminFrame>
    );
  }
  return (
    <AdminFrame cgi="editgroups">
      <GroupList />
    </AdminFrame>
  );
}

function GroupList() {
  const groups = useLoad(() => listGroups(), []);
  return (
    <>
      <p>
        <a href={adminHref('editgroups', { action: 'add' })}>Add a group</a>
      </p>
      <ErrorMessage error={groups.error} />
      {groups.loading && <Loading what="groups" />}
      {groups.data && (
        <table class="admin-table">
          <caption>{groups.data.length} groups</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">User regexp</th>
              <th scope="col">Bug group</th>
              <th scope="col">Active</th>
            </tr>
          </thead>
          <tbody>
            {groups.data.map((g) => (
              <tr key={g.id}>
                <td>
                  <a href={adminHref('editgroups', { action: 'changeform', group: g.id })}>{g.name}</a>
                </td>
                <td>{g.description}</td>
                <td>
                  <code>{g.user_regexp}</code>
                </td>
                <td>{g.is_bug_group ? 'yes' : 'no (system group)'}</td>
                <td>{g.is_active === false ? 'no' : 'yes'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** A new group (no `group`), or the settings of an existing one. */
function GroupForm({ group, onSaved }: { group?: AdminGroup; onSaved?: () => void }) {
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [regexp, setRegexp] = useState(group?.user_regexp ?? '');
  const [active, setActive] = useState(group?.is_active !== false);
  const [confirming, setConfirming] = useState(false);
  const act = useAction();
  const changes: Record<string, unknown> = {};
  if (group) {
    if (name !== group.name) changes.name = name;
    if (description !== group.description) changes.description = description;
    if (regexp !== (group.user_regexp ?? '')) changes.user_regexp = regexp;
    if (active !== (group.is_active !== false)) changes.is_active = active;
  }
  const deactivating = group !== undefined && group.is_active !== false && !active;
  const save = async () => {
    setConfirming(false);
    if (!group) {
      let id = 0;
      const ok = await act.run(async () => {
        id = (await createGroup({ name, description, user_regexp: regexp, is_active: active })).id;
      }, 'Created.');
      if (ok) {
        announce(`The group ${name} has been created.`);
        navigate(adminHref('editgroups', { action: 'changeform', group: id }));
      }
      return;
    }
    if (await act.run(() => changeGroup(group.id, changes), 'The group is saved.')) onSaved?.();
  };
  return (
    <form
      class="admin-form"
      aria-labelledby="group-settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (deactivating) setConfirming(true);
        else void save();
      }}
    >
      <h2 id="group-settings">{group ? `Settings of ${group.name}` : 'The new group'}</h2>
      <label>
        Name
        <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <input required value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <label>
        User regexp
        <input value={regexp} onInput={(e) => setRegexp(e.currentTarget.value)} />
      </label>
      <p class="hint">
        Everyone whose login matches this regular expression is a member (for example <code>@example\.com$</code>).
        Empty: members are only those added by hand.
      </p>
      <label class="check">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        Active: bugs may be put into this group
      </label>
      {group && (
        <p class="hint">
          {group.is_bug_group
            ? 'A bug group: products can restrict their bugs to it (group controls on the product pages).'
            : 'A system group: it grants rights and cannot restrict bugs.'}
        </p>
      )}
      {confirming && group && (
        <Confirm
          title={`Deactivate ${group.name}?`}
          confirmLabel="Deactivate the group"
          onConfirm={() => void save()}
          onCancel={() => setConfirming(false)}
          busy={act.busy}
        >
          <p>
            Bugs already in {group.name} stay restricted to its members, but no bug can be put into it any more, and
            products offer it no longer. Its members keep their membership.
          </p>
        </Confirm>
      )}
      <ErrorMessage error={act.error}>
        <p>{group ? 'The group was not changed.' : 'The group was not created.'}</p>
      </ErrorMessage>
      {act.done && <StatusLine text={act.done} />}
      <p>
        <button
          type="submit"
          disabled={act.busy || confirming || (group !== undefined && Object.keys(changes).length === 0)}
        >
          {group ? 'Save the group' : 'Create group'}
        </button>
      </p>
    </form>
  );
}

function EditGroup({ id }: { id: string }) {
  const group = useLoad(() => getGroup(Number(id)), [id]);
  if (group.error) return <ErrorMessage error={group.error} />;
  if (!group.data) return <Loading what="the group" />;
  const g = group.data;
  return (
    <>
      <p>
        <a href={adminHref('editgroups')}>All groups</a>
      </p>
      <GroupForm key={JSON.stringify(g)} group={g} onSaved={group.reload} />
      <Members group={g} onChanged={group.reload} />
      <IncludedGroups group={g} onChanged={group.reload} />
    </>
  );
}

/** editgroups' "Groups That Are a Member of This Group": whose members this group includes. */
function IncludedGroups({ group, onChanged }: { group: AdminGroup; onChanged: () => void }) {
  const all = useLoad(() => listGroups(), []);
  const [adding, setAdding] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const act = useAction();
  const included = group.member_groups ?? [];
  const candidates = (all.data ?? []).filter((other) => other.id !== group.id && !included.includes(other.name));
  const change = async (kind: 'add' | 'remove', name: string, done: string) => {
    if (await act.run(() => changeGroup(group.id, { member_groups: { [kind]: [name] } }), done)) onChanged();
  };
  return (
    <section aria-labelledby="group-inheritance">
      <h2 id="group-inheritance">Included groups</h2>
      <p class="hint">
        The groups whose members are members of {group.name} (Bugzilla's "Groups That Are a Member of This Group").
        Every member of an included group is thereby a member of {group.name}, and so on down a chain: if <code>a</code>{' '}
        is included in <code>b</code> and <code>b</code> in {group.name}, members of <code>a</code> are members of{' '}
        {group.name}. Built in, as in Bugzilla's default installation: members of <code>admin</code> are members of
        every group, members of <code>editbugs</code> and <code>bz_canusewhineatothers</code> of{' '}
        <code>bz_canusewhines</code>, and members of <code>bz_sudoers</code> of <code>bz_sudo_protect</code>.
      </p>
      {included.length === 0 ? (
        <p>{group.name} includes no other group.</p>
      ) : (
        <ul aria-label={`Groups included in ${group.name}`}>
          {included.map((name) => (
            <li key={name}>
              {name}{' '}
              <button type="button" onClick={() => setRemoving(name)}>
                Stop including {name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {removing && (
        <Confirm
          title={`Stop including ${removing} in ${group.name}?`}
          confirmLabel="Stop including the group"
          busy={act.busy}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const name = removing;
            setRemoving(null);
            void change('remove', name, `${name} is no longer included.`);
          }}
        >
          <p>
            Members of {removing} who are not members of {group.name} otherwise lose what {group.name} lets its members
            see and do, such as its bugs.
          </p>
        </Confirm>
      )}
      <ErrorMessage error={all.error} />
      {all.data && (
        <form
          class="admin-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!adding) return;
            const name = adding;
            setAdding('');
            void change('add', name, `${name} is included.`);
          }}
        >
          <label>
            Include the members of
            <select value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
              <option value="">(choose a group)</option>
              {candidates.map((other) => (
                <option key={other.id} value={other.name}>
                  {other.name}
                </option>
              ))}
            </select>
          </label>
          <p>
            <button type="submit" disabled={act.busy || adding === ''}>
              Include the group
            </button>
          </p>
        </form>
      )}
      <ErrorMessage error={act.error}>
        <p>The included groups were not changed.</p>
      </ErrorMessage>
      {act.done && <StatusLine text={act.done} />}
    </section>
  );
}

function Members({ group, onChanged }: { group: AdminGroup; onChanged: () => void }) {
  const [login, setLogin] = useState('');
  const [removing, setRemoving] = useState<AdminUser | null>(null);
  const act = useAction();
  const members = group.membership ?? [];
  const mayChange = inAnyGroup('editusers');
  return (
    <section aria-labelledby="group-members">
      <h2 id="group-members">Members</h2>
      {members.length === 0 ? (
        <p>{group.name} has no members.</p>
      ) : (
        <table class="admin-table">
          <caption>Members of {group.name}</caption>
          <thead>
            <tr>
              <th scope="col">Login</th>
              <th scope="col">Real name</th>
              {mayChange && <th scope="col">Change</th>}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id}>
                <td>
                  {mayChange ? <a href={adminHref('editusers', { action: 'edit', userid: m.id })}>{m.name}</a> : m.name}
                </td>
                <td>{m.real_name}</td>
                {mayChange && (
                  <td>
                    <button type="button" onClick={() => setRemoving(m)}>
                      Remove {m.name}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {removing && (
        <Confirm
          title={`Remove ${removing.name} from ${group.name}?`}
          confirmLabel="Remove the member"
          busy={act.busy}
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            const who = removing;
            setRemoving(null);
            if (
              await act.run(() => changeUser(who.id, { groups: { remove: [group.name] } }), `${who.name} is removed.`)
            )
              onChanged();
          }}
        >
          <p>
            {removing.name} loses what {group.name} lets its members see and do. If their login matches the group's user
            regexp, or another group makes them a member, they stay a member.
          </p>
        </Confirm>
      )}
      {mayChange && (
        <form
          class="admin-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const who = login.trim();
            if (!who) return;
            if (await act.run(() => changeUser(who, { groups: { add: [group.name] } }), `${who} is added.`)) {
              setLogin('');
              onChanged();
            }
          }}
        >
          <UserInput id="group-new-member" label="Add a member (login)" value={login} onInput={setLogin} />
          <p>
            <button type="submit" disabled={act.busy}>
              Add member
            </button>
          </p>
        </form>
      )}
      {!mayChange && <p class="hint">Adding and removing members needs the editusers group.</p>}
      <ErrorMessage error={act.error} />
      {act.done && <StatusLine text={act.done} />}
    </section>
  );
}
