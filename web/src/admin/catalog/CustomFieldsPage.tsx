import { useState } from 'preact/hooks';
import { type CustomField, createCustomField, listCustomFields, updateCustomField } from '../../api/adminCatalog.ts';
import { ErrorMessage, Loading, StatusLine } from '../../components/Messages.tsx';
import { Select, TextField } from '../../components/Select.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { resetCatalog } from '../../state/catalog.ts';
import { AdminFrame } from '../AdminFrame.tsx';
import { useAction } from './useAction.ts';

/** Bugzilla's custom field types that Tracker creates (docs/api.md section 6). */
const TYPES: Record<string, string> = {
  '1': 'Free text',
  '2': 'Drop down',
  '3': 'Multiple-selection box',
  '4': 'Large text box',
  '5': 'Date/time',
  '6': 'Bug ID',
  '9': 'Date',
  '10': 'Integer',
};

/**
 * editfields.cgi: the custom fields with their type and where they show; a new one (its name
 * starts with cf_), and each one's description, sort key, mandatory, on-entry and obsolete marks;
 * the values of a drop-down are added and removed here too.
 */
export function CustomFieldsPage() {
  const fields = useLoad(() => listCustomFields(), []);
  const reload = () => {
    resetCatalog();
    fields.reload();
  };
  return (
    <AdminFrame cgi="editfields">
      {fields.loading && !fields.data && <Loading what="custom fields" />}
      <ErrorMessage error={fields.error} />
      {fields.data && (
        <>
          {fields.data.length === 0 ? (
            <p>There are no custom fields yet.</p>
          ) : (
            fields.data.map((field) => (
              <FieldEditor key={`${field.name}-${field.values?.length}`} field={field} reload={reload} />
            ))
          )}
          <NewField reload={reload} />
        </>
      )}
    </AdminFrame>
  );
}

function FieldEditor({ field, reload }: { field: CustomField; reload: () => void }) {
  const action = useAction();
  const [label, setLabel] = useState(field.display_name);
  const [sortKey, setSortKey] = useState(String(field.sort_key ?? 0));
  const [mandatory, setMandatory] = useState(field.is_mandatory);
  const [onEntry, setOnEntry] = useState(field.is_on_bug_entry);
  const [obsolete, setObsolete] = useState(field.is_obsolete === true);
  const [addValue, setAddValue] = useState('');
  const values = (field.values ?? []).map((v) => v.name).filter((v): v is string => Boolean(v) && v !== '---');
  const isSelect = field.type === 2 || field.type === 3;
  return (
    <section aria-labelledby={`field-${field.name}`}>
      <h2 id={`field-${field.name}`}>
        {field.display_name} <code>{field.name}</code> ({TYPES[String(field.type)] ?? `type ${field.type}`})
      </h2>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        class="admin-form"
        aria-label={`Edit field ${field.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          const changes: Record<string, unknown> = {};
          if (label !== field.display_name) changes.display_name = label;
          if (Number(sortKey) !== (field.sort_key ?? 0)) changes.sort_key = Number(sortKey);
          if (mandatory !== field.is_mandatory) changes.is_mandatory = mandatory;
          if (onEntry !== field.is_on_bug_entry) changes.is_on_bug_entry = onEntry;
          if (obsolete !== (field.is_obsolete === true)) changes.is_obsolete = obsolete;
          if (addValue.trim()) changes.values = { add: [addValue.trim()] };
          void action.run(
            () => updateCustomField(field.name, changes),
            `The field ${field.name} was saved.`,
            () => {
              setAddValue('');
              reload();
            },
          );
        }}
      >
        <TextField label={`Description of ${field.name}`} value={label} onInput={setLabel} required />
        <TextField label={`Sort key of ${field.name}`} type="number" value={sortKey} onInput={setSortKey} />
        <label class="check">
          <input type="checkbox" checked={mandatory} onChange={(e) => setMandatory(e.currentTarget.checked)} /> Required
        </label>
        <label class="check">
          <input type="checkbox" checked={onEntry} onChange={(e) => setOnEntry(e.currentTarget.checked)} /> Shown when a
          bug is filed
        </label>
        <label class="check">
          <input type="checkbox" checked={obsolete} onChange={(e) => setObsolete(e.currentTarget.checked)} /> Obsolete
          (hidden from forms and lists)
        </label>
        {isSelect && (
          <>
            <p>Values: {values.join(', ') || 'none yet'}</p>
            <TextField label={`New value of ${field.name}`} value={addValue} onInput={setAddValue} />
          </>
        )}
        <button type="submit" disabled={action.busy}>
          Save {field.name}
        </button>
      </form>
    </section>
  );
}

function NewField({ reload }: { reload: () => void }) {
  const action = useAction();
  const [name, setName] = useState('cf_');
  const [label, setLabel] = useState('');
  const [type, setType] = useState('1');
  const [values, setValues] = useState('');
  const [onEntry, setOnEntry] = useState(true);
  return (
    <section aria-labelledby="new-field">
      <h2 id="new-field">Add a custom field</h2>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        class="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const list = values
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          void action.run(
            () =>
              createCustomField({
                name: name.trim(),
                display_name: label,
                type: Number(type),
                is_on_bug_entry: onEntry,
                ...(type === '2' || type === '3' ? { values: list } : {}),
              }),
            `The field ${name.trim()} was created.`,
            () => {
              setName('cf_');
              setLabel('');
              setValues('');
              reload();
            },
          );
        }}
      >
        <TextField label="Field name" value={name} onInput={setName} required hint="Starts with cf_." />
        <TextField label="Field description" value={label} onInput={setLabel} required />
        <Select label="Type" value={type} options={Object.keys(TYPES)} labels={TYPES} onChange={setType} />
        {(type === '2' || type === '3') && (
          <TextField label="Values" value={values} onInput={setValues} hint="Separated by commas." />
        )}
        <label class="check">
          <input type="checkbox" checked={onEntry} onChange={(e) => setOnEntry(e.currentTarget.checked)} /> Shown when a
          bug is filed
        </label>
        <button type="submit" disabled={action.busy}>
          Add field
        </button>
      </form>
    </section>
  );
}
