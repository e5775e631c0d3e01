import { useState } from 'preact/hooks';
import { countMatching, createFieldValue, updateFieldValue } from '../../api/adminCatalog.ts';
import { getFields } from '../../api/tracker.ts';
import type { FieldDefinition } from '../../api/types.ts';
import { ErrorMessage, Loading } from '../../components/Messages.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { adminHref } from '../../lib/routes.ts';
import { loadUserContext, parameters, resetCatalog } from '../../state/catalog.ts';
import { AdminFrame } from '../AdminFrame.tsx';
import { ValueTable } from './ValueTable.tsx';

/** The built-in drop-downs whose values editvalues.cgi edits, in its order. */
export const VALUE_FIELDS = [
  'bug_status',
  'resolution',
  'priority',
  'bug_severity',
  'rep_platform',
  'op_sys',
  'bug_type',
];

/** Values Bugzilla will not let go of (renamed or disabled), and why. */
function lockOf(field: string, value: string, duplicateStatus: string): string | undefined {
  if (field === 'bug_status' && value === 'UNCONFIRMED') return 'UNCONFIRMED cannot be renamed or disabled.';
  if (field === 'bug_status' && value === duplicateStatus)
    return 'The status of duplicates (duplicate_or_move_bug_status) cannot be renamed or disabled.';
  if (field === 'resolution' && (value === 'FIXED' || value === 'DUPLICATE'))
    return `${value} cannot be renamed or disabled.`;
  return undefined;
}

/** editvalues.cgi: pick a field, then add, rename, sort, disable and enable its values. */
export function FieldValuesPage({ params }: { params: URLSearchParams }) {
  const name = params.get('field') ?? '';
  const fields = useLoad(() => getFields(), [name]);
  const field = fields.data?.find((f) => f.name === name);
  return (
    <AdminFrame cgi="editvalues" title={field ? `Values of ${field.display_name}` : undefined}>
      {fields.loading && !fields.data && <Loading what="the fields" />}
      <ErrorMessage error={fields.error} />
      {fields.data && !field && (
        <ul>
          {VALUE_FIELDS.map((f) => fields.data!.find((d) => d.name === f))
            .filter((d): d is FieldDefinition => Boolean(d))
            .map((d) => (
              <li key={d.name}>
                <a href={adminHref('editvalues', { field: d.name })}>{d.display_name}</a>
              </li>
            ))}
        </ul>
      )}
      {field && (
        <>
          <p>
            <a href={adminHref('editvalues')}>All fields</a>
            {field.name === 'bug_status' && (
              <>
                {' · '}
                <a href={adminHref('editworkflow')}>Status workflow</a>
              </>
            )}
          </p>
          <FieldValues field={field} reload={fields.reload} />
        </>
      )}
    </AdminFrame>
  );
}

function FieldValues({ field, reload }: { field: FieldDefinition; reload: () => void }) {
  const [open, setOpen] = useState(true);
  const duplicateStatus = parameters.value.duplicate_or_move_bug_status ?? 'RESOLVED';
  const values = field.values
    .filter((v) => v.name !== null && v.name !== '')
    .map((v) => ({
      name: v.name!,
      sort_key: v.sort_key ?? 0,
      is_active: v.is_active !== false,
      note: field.name === 'bug_status' ? (v.is_open ? 'open' : 'closed') : undefined,
      locked: lockOf(field.name, v.name!, duplicateStatus),
    }));
  // The app's other pages read legal values once: they read them again after a change here.
  const reloadAll = () => {
    resetCatalog();
    void loadUserContext();
    reload();
  };
  return (
    <ValueTable
      noun="value"
      values={values}
      count={(value) => countMatching({ [field.name]: value })}
      create={(value) =>
        createFieldValue(field.name, { ...value, ...(field.name === 'bug_status' ? { is_open: open } : {}) })
      }
      update={(value, changes) => updateFieldValue(field.name, value, changes)}
      reload={reloadAll}
      extraCreate={
        field.name === 'bug_status' && (
          <label class="check">
            <input type="checkbox" checked={open} onChange={(e) => setOpen(e.currentTarget.checked)} /> The new status
            is open (unchecked: closed, needs a resolution)
          </label>
        )
      }
    />
  );
}
