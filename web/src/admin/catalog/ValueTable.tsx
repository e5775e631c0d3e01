import { useState } from 'preact/hooks';
import { ErrorMessage, StatusLine } from '../../components/Messages.tsx';
import { TextField } from '../../components/Select.tsx';
import { bugCount, Confirm } from './Confirm.tsx';
import { useAction } from './useAction.ts';

export interface EditableValue {
  name: string;
  sort_key: number;
  is_active: boolean;
  /** A note beside the value (open or closed, the default milestone...). */
  note?: string;
  /** Why it cannot be renamed or disabled (the default milestone, UNCONFIRMED...), when so. */
  locked?: string;
}

/**
 * A list of values as Bugzilla's editversions, editmilestones and editvalues show it: each with
 * its sort key and whether it can still be chosen; add one, rename or re-sort one, disable or
 * enable it. Disabling says first how many bugs have the value; so does deleting, where the API
 * deletes (`remove`: versions and milestones), which Tracker refuses while bugs have it.
 */
export function ValueTable({
  noun,
  values,
  count,
  create,
  update,
  reload,
  remove,
  extraCreate,
}: {
  /** "version", "milestone", "value". */
  noun: string;
  values: readonly EditableValue[];
  /** How many bugs have the value (a count_only search). */
  count: (name: string) => Promise<number>;
  create: (value: { name: string; sort_key?: number }) => Promise<unknown>;
  update: (name: string, changes: { name?: string; sort_key?: number; is_active?: boolean }) => Promise<unknown>;
  reload: () => void;
  /** Deletes the value (none: the values cannot be deleted, and no Delete button shows). */
  remove?: (name: string) => Promise<unknown>;
  /** More inputs for the add form (an open/closed choice for statuses). */
  extraCreate?: preact.ComponentChildren;
}) {
  const action = useAction();
  const [newName, setNewName] = useState('');
  const [newSort, setNewSort] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const [editName, setEditName] = useState('');
  const [editSort, setEditSort] = useState('');
  const [disabling, setDisabling] = useState<{ name: string; effect: string | null } | null>(null);
  const [deleting, setDeleting] = useState<{ name: string; effect: string | null } | null>(null);

  const startDelete = (name: string) => {
    setDisabling(null);
    setDeleting({ name, effect: null });
    count(name).then(
      (n) =>
        setDeleting({
          name,
          effect:
            n === 0
              ? `No bug has ${noun} ${name}; it goes for good.`
              : `${bugCount(n)} ${n === 1 ? 'has' : 'have'} ${noun} ${name}: Tracker refuses to delete it while they do (move them to another ${noun}, or disable it instead).`,
        }),
      (e) => {
        setDeleting(null);
        action.run(() => Promise.reject(e), '');
      },
    );
  };

  const startDisable = (name: string) => {
    setDeleting(null);
    setDisabling({ name, effect: null });
    count(name).then(
      (n) =>
        setDisabling({
          name,
          effect: `${bugCount(n)} ${n === 1 ? 'has' : 'have'} ${noun} ${name}. They keep it, but it can no longer be chosen.`,
        }),
      (e) => {
        setDisabling(null);
        action.run(() => Promise.reject(e), '');
      },
    );
  };

  return (
    <div>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <table class="admin-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Sort key</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {values.map((value) =>
            editing === value.name ? (
              <tr key={value.name}>
                <td colSpan={4}>
                  <form
                    class="admin-form inline"
                    aria-label={`Edit ${noun} ${value.name}`}
                    onSubmit={(e) => {
                      e.preventDefault();
                      const changes: { name?: string; sort_key?: number } = {};
                      if (editName.trim() && editName.trim() !== value.name) changes.name = editName.trim();
                      if (editSort.trim() !== '' && Number(editSort) !== value.sort_key)
                        changes.sort_key = Number(editSort);
                      void action.run(
                        () => update(value.name, changes),
                        `The ${noun} ${value.name} was saved.`,
                        () => {
                          setEditing(null);
                          reload();
                        },
                      );
                    }}
                  >
                    <TextField label={`New name of ${value.name}`} value={editName} onInput={setEditName} />
                    <TextField label="Sort key" type="number" value={editSort} onInput={setEditSort} />
                    <button type="submit" disabled={action.busy}>
                      Save
                    </button>{' '}
                    <button type="button" onClick={() => setEditing(null)}>
                      Cancel
                    </button>
                  </form>
                </td>
              </tr>
            ) : (
              <tr key={value.name} class={value.is_active ? undefined : 'disabled'}>
                <th scope="row">{value.name}</th>
                <td class="number">{value.sort_key}</td>
                <td>
                  {value.is_active ? 'active' : 'disabled'}
                  {value.note ? `, ${value.note}` : ''}
                </td>
                <td>
                  {value.locked ? (
                    <span class="hint">{value.locked}</span>
                  ) : (
                    <>
                      <button
                        type="button"
                        aria-label={`Edit ${noun} ${value.name}`}
                        onClick={() => {
                          setEditing(value.name);
                          setEditName(value.name);
                          setEditSort(String(value.sort_key));
                        }}
                      >
                        Edit
                      </button>{' '}
                      {value.is_active ? (
                        <button
                          type="button"
                          aria-label={`Disable ${noun} ${value.name}`}
                          onClick={() => startDisable(value.name)}
                        >
                          Disable
                        </button>
                      ) : (
                        <button
                          type="button"
                          aria-label={`Enable ${noun} ${value.name}`}
                          onClick={() =>
                            void action.run(
                              () => update(value.name, { is_active: true }),
                              `The ${noun} ${value.name} is enabled.`,
                              reload,
                            )
                          }
                        >
                          Enable
                        </button>
                      )}
                      {remove && (
                        <>
                          {' '}
                          <button
                            type="button"
                            aria-label={`Delete ${noun} ${value.name}`}
                            onClick={() => startDelete(value.name)}
                          >
                            Delete
                          </button>
                        </>
                      )}
                    </>
                  )}
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      {disabling && (
        <Confirm
          question={`Disable the ${noun} ${disabling.name}?`}
          effect={disabling.effect}
          confirmLabel={`Disable ${disabling.name}`}
          busy={action.busy}
          onCancel={() => setDisabling(null)}
          onConfirm={() =>
            void action
              .run(
                () => update(disabling.name, { is_active: false }),
                `The ${noun} ${disabling.name} is disabled.`,
                () => {
                  setDisabling(null);
                  reload();
                },
              )
              .then((ok) => {
                if (!ok) setDisabling(null);
              })
          }
        />
      )}
      {deleting && remove && (
        <Confirm
          question={`Delete the ${noun} ${deleting.name}?`}
          effect={deleting.effect}
          confirmLabel={`Delete ${deleting.name}`}
          busy={action.busy}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            void action
              .run(() => remove(deleting.name), `The ${noun} ${deleting.name} was deleted.`, reload)
              .then(() => setDeleting(null))
          }
        />
      )}
      <form
        class="admin-form"
        aria-label={`Add a ${noun}`}
        onSubmit={(e) => {
          e.preventDefault();
          const name = newName.trim();
          void action.run(
            () => create({ name, ...(newSort.trim() !== '' ? { sort_key: Number(newSort) } : {}) }),
            `The ${noun} ${name} was added.`,
            () => {
              setNewName('');
              setNewSort('');
              reload();
            },
          );
        }}
      >
        <TextField label={`New ${noun}`} value={newName} onInput={setNewName} required />
        <TextField label={`Sort key of the new ${noun}`} type="number" value={newSort} onInput={setNewSort} />
        {extraCreate}
        <button type="submit" disabled={action.busy}>
          Add {noun}
        </button>
      </form>
    </div>
  );
}
