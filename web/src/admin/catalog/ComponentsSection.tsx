import { useState } from 'preact/hooks';
import {
  type AdminComponent,
  type AdminProduct,
  countMatching,
  createComponent,
  deleteComponent,
  updateComponent,
} from '../../api/adminCatalog.ts';
import { ErrorMessage, StatusLine } from '../../components/Messages.tsx';
import { TextField } from '../../components/Select.tsx';
import { UserInput } from '../../components/UserInput.tsx';
import { bugCount, Confirm } from './Confirm.tsx';
import { useAction } from './useAction.ts';

interface ComponentForm {
  name: string;
  description: string;
  assignee: string;
  qa: string;
  cc: string;
  triage: string;
  open: boolean;
}

const emptyForm: ComponentForm = { name: '', description: '', assignee: '', qa: '', cc: '', triage: '', open: true };

const ccList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * editcomponents.cgi for one product: the components with their default assignee, QA contact and
 * triage owner; add one (with its initial CC), change one, delete one (after saying how many bugs
 * it holds: Bugzilla refuses to delete a component with bugs unless allowbugdeletion is on).
 */
export function ComponentsSection({ product, reload }: { product: AdminProduct; reload: () => void }) {
  const action = useAction();
  const [editing, setEditing] = useState<AdminComponent | null>(null);
  // A new add form (empty) after each component added.
  const [added, setAdded] = useState(0);
  const [deleting, setDeleting] = useState<{ name: string; effect: string | null } | null>(null);

  const startDelete = (name: string) => {
    setDeleting({ name, effect: null });
    countMatching({ product: product.name, component: name }).then(
      (n) =>
        setDeleting({
          name,
          effect:
            n === 0
              ? 'No bug is in this component.'
              : `${bugCount(n)} ${n === 1 ? 'is' : 'are'} in this component; Tracker refuses to delete it while they are.`,
        }),
      (e) => {
        setDeleting(null);
        void action.run(() => Promise.reject(e), '');
      },
    );
  };

  return (
    <section aria-labelledby="product-components">
      <h2 id="product-components">Components</h2>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <table class="admin-table">
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">Description</th>
            <th scope="col">Default assignee</th>
            <th scope="col">Default QA contact</th>
            <th scope="col">Triage owner</th>
            <th scope="col">Open for bugs</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {product.components.map((c) => (
            <tr key={c.id}>
              <th scope="row">{c.name}</th>
              <td>{c.description}</td>
              <td>{c.default_assigned_to}</td>
              <td>{c.default_qa_contact}</td>
              <td>{c.triage_owner}</td>
              <td>{c.is_active ? 'yes' : 'no'}</td>
              <td>
                <button type="button" aria-label={`Edit component ${c.name}`} onClick={() => setEditing(c)}>
                  Edit
                </button>{' '}
                <button type="button" aria-label={`Delete component ${c.name}`} onClick={() => startDelete(c.name)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deleting && (
        <Confirm
          question={`Delete the component ${deleting.name}?`}
          effect={deleting.effect}
          confirmLabel={`Delete ${deleting.name}`}
          busy={action.busy}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            void action
              .run(
                () => deleteComponent(product.name, deleting.name),
                `The component ${deleting.name} was deleted.`,
                reload,
              )
              .then(() => setDeleting(null))
          }
        />
      )}
      {editing ? (
        <ComponentEditor
          key={editing.id}
          title={`Edit component ${editing.name}`}
          initial={{
            name: editing.name,
            description: editing.description,
            assignee: editing.default_assigned_to,
            qa: editing.default_qa_contact,
            cc: '',
            triage: editing.triage_owner,
            open: editing.is_active,
          }}
          ccHint="Leave empty to keep the initial CC list; type logins to replace it."
          busy={action.busy}
          onCancel={() => setEditing(null)}
          onSubmit={(form) => {
            const changes: Record<string, unknown> = {};
            if (form.name !== editing.name) changes.name = form.name;
            if (form.description !== editing.description) changes.description = form.description;
            if (form.assignee !== editing.default_assigned_to) changes.default_assignee = form.assignee;
            if (form.qa !== editing.default_qa_contact) changes.default_qa_contact = form.qa;
            if (form.triage !== editing.triage_owner) changes.triage_owner = form.triage;
            if (form.open !== editing.is_active) changes.is_active = form.open;
            if (ccList(form.cc).length > 0) changes.default_cc = ccList(form.cc);
            void action.run(
              () => updateComponent(product.name, editing.name, changes),
              `The component ${form.name} was saved.`,
              () => {
                setEditing(null);
                reload();
              },
            );
          }}
        />
      ) : (
        <ComponentEditor
          key={`new-${added}`}
          title="Add a component"
          initial={emptyForm}
          busy={action.busy}
          onSubmit={(form) =>
            void action.run(
              () =>
                createComponent({
                  product: product.name,
                  name: form.name,
                  description: form.description,
                  default_assignee: form.assignee,
                  ...(form.qa ? { default_qa_contact: form.qa } : {}),
                  ...(ccList(form.cc).length ? { default_cc: ccList(form.cc) } : {}),
                  is_open: form.open,
                }).then(async () => {
                  if (form.triage) await updateComponent(product.name, form.name, { triage_owner: form.triage });
                }),
              `The component ${form.name} was added.`,
              () => {
                setAdded((n) => n + 1);
                reload();
              },
            )
          }
        />
      )}
    </section>
  );
}

function ComponentEditor({
  title,
  initial,
  ccHint,
  busy,
  onSubmit,
  onCancel,
}: {
  title: string;
  initial: ComponentForm;
  ccHint?: string;
  busy: boolean;
  onSubmit: (form: ComponentForm) => void;
  onCancel?: () => void;
}) {
  const [form, setForm] = useState(initial);
  const set = (key: keyof ComponentForm) => (value: string) => setForm({ ...form, [key]: value });
  return (
    <form
      class="admin-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ ...form, name: form.name.trim() });
      }}
    >
      <h3>{title}</h3>
      <TextField label="Component name" value={form.name} onInput={set('name')} required />
      <TextField label="Component description" value={form.description} onInput={set('description')} required />
      <UserInput label="Default assignee" value={form.assignee} onInput={set('assignee')} required />
      <UserInput label="Default QA contact" value={form.qa} onInput={set('qa')} />
      <UserInput label="Initial CC" value={form.cc} onInput={set('cc')} multiple />
      {ccHint && <small class="hint">{ccHint}</small>}
      <UserInput label="Triage owner" value={form.triage} onInput={set('triage')} />
      <label class="check">
        <input
          type="checkbox"
          checked={form.open}
          onChange={(e) => setForm({ ...form, open: e.currentTarget.checked })}
        />{' '}
        Open for bug entry
      </label>
      <button type="submit" disabled={busy}>
        {onCancel ? 'Save component' : 'Add component'}
      </button>
      {onCancel && (
        <>
          {' '}
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </>
      )}
    </form>
  );
}
