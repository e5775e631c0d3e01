import { useState } from 'preact/hooks';
import {
  type AdminFlagType,
  countMatching,
  createFlagType,
  deleteFlagType,
  listFlagTypes,
  updateFlagType,
} from '../../api/adminCatalog.ts';
import { ErrorMessage, Loading, StatusLine } from '../../components/Messages.tsx';
import { Select, TextField } from '../../components/Select.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { parseScopeLabels, scopeLabels } from '../../lib/groupControls.ts';
import { adminHref } from '../../lib/routes.ts';
import { navigate } from '../../state/router.ts';
import { AdminFrame } from '../AdminFrame.tsx';
import { bugCount, Confirm } from './Confirm.tsx';
import { useAction } from './useAction.ts';

/**
 * editflagtypes.cgi: every flag type for bugs and for attachments, where each applies, who may
 * grant and request it; `?action=enter` creates one, `?action=edit&id=` changes one.
 */
export function FlagTypesPage({ params }: { params: URLSearchParams }) {
  // Read again on every address (back on the list after a save, say).
  const types = useLoad(() => listFlagTypes(), [params.toString()]);
  const action = params.get('action');
  const id = Number(params.get('id'));
  const editing = action === 'edit' ? types.data?.find((t) => t.id === id) : undefined;
  const title = action === 'enter' ? 'New flag type' : editing ? `Flag type ${editing.name}` : undefined;
  return (
    <AdminFrame cgi="editflagtypes" title={title}>
      {types.loading && !types.data && <Loading what="flag types" />}
      <ErrorMessage error={types.error} />
      {types.data && action === 'enter' && <FlagTypeForm />}
      {types.data && editing && <FlagTypeForm key={editing.id} type={editing} />}
      {types.data && editing && <DeleteFlagType key={`delete-${editing.id}`} type={editing} />}
      {types.data && action === 'edit' && !editing && (
        <p class="message" role="alert">
          There is no flag type {params.get('id')}.
        </p>
      )}
      {types.data && !action && <FlagTypeList types={types.data} />}
    </AdminFrame>
  );
}

function FlagTypeList({ types }: { types: AdminFlagType[] }) {
  return (
    <>
      <p>
        <a href={adminHref('editflagtypes', { action: 'enter' })}>Create a flag type</a>
      </p>
      {(['bug', 'attachment'] as const).map((target) => (
        <section key={target} aria-labelledby={`flagtypes-${target}`}>
          <h2 id={`flagtypes-${target}`}>Flag types for {target}s</h2>
          <table class="admin-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Applies to</th>
                <th scope="col">Grant group</th>
                <th scope="col">Request group</th>
                <th scope="col">Properties</th>
              </tr>
            </thead>
            <tbody>
              {types
                .filter((t) => t.target_type === target)
                .map((t) => (
                  <tr key={t.id} class={t.is_active ? undefined : 'disabled'}>
                    <th scope="row">
                      <a href={adminHref('editflagtypes', { action: 'edit', id: t.id })}>{t.name}</a>
                    </th>
                    <td>{t.description}</td>
                    <td>
                      {scopeLabels(t.inclusions).join(', ') || 'nowhere'}
                      {scopeLabels(t.exclusions).length > 0 && ` (not ${scopeLabels(t.exclusions).join(', ')})`}
                    </td>
                    <td>{t.grant_group_name || 'anyone'}</td>
                    <td>{t.request_group_name || 'anyone'}</td>
                    <td>
                      {[
                        t.is_active ? 'active' : 'disabled',
                        t.is_requestable && 'requestable',
                        t.is_requesteeble && 'specific requestee',
                        t.is_multiplicable && 'multiplicable',
                      ]
                        .filter(Boolean)
                        .join(', ')}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
}

function FlagTypeForm({ type }: { type?: AdminFlagType }) {
  const action = useAction();
  const [form, setForm] = useState({
    name: type?.name ?? '',
    description: type?.description ?? '',
    target: type?.target_type ?? 'bug',
    inclusions: type ? scopeLabels(type.inclusions).join('\n') : '__Any__',
    exclusions: type ? scopeLabels(type.exclusions).join('\n') : '',
    cc: type?.cc_list ?? '',
    sortKey: String(type?.sort_key ?? 1),
    grant: type?.grant_group_name ?? '',
    request: type?.request_group_name ?? '',
    active: type?.is_active ?? true,
    requestable: type?.is_requestable ?? true,
    requesteeble: type?.is_requesteeble ?? true,
    multiplicable: type?.is_multiplicable ?? true,
  });
  const text = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const check = (key: keyof typeof form, label: string) => (
    <label class="check">
      <input
        type="checkbox"
        checked={Boolean(form[key])}
        onChange={(e) => setForm({ ...form, [key]: e.currentTarget.checked })}
      />{' '}
      {label}
    </label>
  );
  return (
    <>
      <p>
        <a href={adminHref('editflagtypes')}>All flag types</a>
      </p>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        class="admin-form"
        aria-label={type ? `Edit flag type ${type.name}` : 'New flag type'}
        onSubmit={(e) => {
          e.preventDefault();
          const body: Record<string, unknown> = {
            name: form.name.trim(),
            description: form.description,
            inclusions: parseScopeLabels(form.inclusions),
            exclusions: parseScopeLabels(form.exclusions),
            cc_list: form.cc,
            sort_key: Number(form.sortKey),
            grant_group: form.grant.trim(),
            request_group: form.request.trim(),
            is_active: form.active,
            is_requestable: form.requestable,
            is_requesteeble: form.requesteeble,
            is_multiplicable: form.multiplicable,
          };
          if (type) {
            void action.run(
              () => updateFlagType(type.id, body),
              `The flag type ${body.name} was saved.`,
              () => navigate(adminHref('editflagtypes')),
            );
          } else {
            void action.run(
              () => createFlagType({ ...body, target_type: form.target }),
              `The flag type ${body.name} was created.`,
              () => navigate(adminHref('editflagtypes')),
            );
          }
        }}
      >
        <TextField label="Flag name" value={form.name} onInput={text('name')} required />
        <TextField label="Flag description" value={form.description} onInput={text('description')} required />
        {!type && (
          <Select
            label="For"
            value={form.target}
            options={['bug', 'attachment']}
            labels={{ bug: 'bugs', attachment: 'attachments' }}
            onChange={(value) => setForm({ ...form, target: value as 'bug' | 'attachment' })}
          />
        )}
        <div class="field">
          <label for="flag-inclusions">Applies to</label>
          <textarea
            id="flag-inclusions"
            rows={3}
            value={form.inclusions}
            aria-describedby="flag-scope-hint"
            onInput={(e) => text('inclusions')(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="flag-exclusions">Except</label>
          <textarea
            id="flag-exclusions"
            rows={2}
            value={form.exclusions}
            aria-describedby="flag-scope-hint"
            onInput={(e) => text('exclusions')(e.currentTarget.value)}
          />
        </div>
        <small id="flag-scope-hint" class="hint">
          One per line: Product, Product:Component, or __Any__ for every product.
        </small>
        <TextField
          label="CC list"
          value={form.cc}
          onInput={text('cc')}
          hint="Addresses told of every request, separated by spaces or commas."
        />
        <TextField label="Sort key" type="number" value={form.sortKey} onInput={text('sortKey')} />
        <TextField
          label="Grant group"
          value={form.grant}
          onInput={text('grant')}
          hint="Only its members may set the flag to + or -; empty: anyone who can edit the bug."
        />
        <TextField
          label="Request group"
          value={form.request}
          onInput={text('request')}
          hint="Only its members (and the grant group's) may request the flag; empty: anyone."
        />
        {check('active', 'Active (may be set on bugs)')}
        {check('requestable', 'Requestable (may be set to ?)')}
        {check('requesteeble', 'Specifically requestable (a request may name someone)')}
        {check('multiplicable', 'Multiplicable (may be set more than once on a bug)')}
        <button type="submit" disabled={action.busy}>
          {type ? 'Save flag type' : 'Create flag type'}
        </button>
      </form>
    </>
  );
}

/** Regexp special characters escaped, for a search on a flag type's exact name. */
const escapeRegexp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * editflagtypes.cgi?action=confirmdelete: says first how many bugs carry a flag of the type (a
 * search on the bug's flags; attachment flags are counted by the API as it deletes), and Tracker
 * refuses while any flag of it is set (Bugzilla would delete them; deactivate the type instead).
 */
function DeleteFlagType({ type }: { type: AdminFlagType }) {
  const action = useAction();
  const [effect, setEffect] = useState<string | null | undefined>(undefined);
  const start = () => {
    if (type.target_type === 'attachment') {
      setEffect(
        `Flags of ${type.name} are set on attachments, which Tracker counts as it deletes: it refuses while any is set (deactivate the type instead).`,
      );
      return;
    }
    setEffect(null);
    countMatching({ f1: 'flagtypes.name', o1: 'regexp', v1: `^${escapeRegexp(type.name)}[-+?]` }).then(
      (n) =>
        setEffect(
          n === 0
            ? `No bug has a ${type.name} flag; the flag type goes for good.`
            : `${bugCount(n)} ${n === 1 ? 'has' : 'have'} a ${type.name} flag: Tracker refuses to delete the type while any is set (clear them, or deactivate the type instead).`,
        ),
      (e) => {
        setEffect(undefined);
        void action.run(() => Promise.reject(e), '');
      },
    );
  };
  return (
    <section aria-labelledby="flagtype-delete">
      <h2 id="flagtype-delete">Delete the flag type</h2>
      <ErrorMessage error={action.error} />
      {effect === undefined ? (
        <button type="button" class="danger" onClick={start}>
          Delete {type.name}
        </button>
      ) : (
        <Confirm
          question={`Delete the flag type ${type.name}?`}
          effect={effect}
          confirmLabel={`Delete ${type.name} for good`}
          busy={action.busy}
          onCancel={() => setEffect(undefined)}
          onConfirm={() =>
            void action
              .run(
                () => deleteFlagType(type.id),
                `The flag type ${type.name} was deleted.`,
                () => navigate(adminHref('editflagtypes')),
              )
              .then(() => setEffect(undefined))
          }
        />
      )}
    </section>
  );
}
