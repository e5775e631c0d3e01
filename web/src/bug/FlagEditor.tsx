import { useId } from 'preact/hooks';
import type { FlagType } from '../api/types.ts';
import { UserInput } from '../components/UserInput.tsx';
import type { FlagDraft } from '../lib/bugDraft.ts';

/** Existing flags (change or clear) and a row per flag type to set or request a new one. */
export function FlagEditor({
  flags,
  types,
  onChange,
  legend = 'Flags',
}: {
  flags: readonly FlagDraft[];
  types: readonly FlagType[];
  onChange: (flags: FlagDraft[]) => void;
  legend?: string;
}) {
  const rows = [...flags];
  for (const t of types) {
    if (!t.is_active) continue;
    const has = rows.some((f) => f.type_id === t.id);
    if (!has || t.is_multiplicable) {
      if (!rows.some((f) => f.type_id === t.id && f.id === undefined)) {
        rows.push({ type_id: t.id, name: t.name, status: '', requestee: '' });
      }
    }
  }
  if (rows.length === 0) return null;
  const set = (index: number, patch: Partial<FlagDraft>) => {
    const next = rows.map((r, i) => (i === index ? { ...r, ...patch } : r));
    onChange(next);
  };
  return (
    <fieldset class="flags">
      <legend>{legend}</legend>
      {rows.map((row, i) => (
        <FlagRow
          key={row.id ?? `new-${row.type_id}`}
          row={row}
          type={types.find((t) => t.id === row.type_id)}
          sibling={row.id === undefined && rows.some((r) => r.id !== undefined && r.type_id === row.type_id)}
          ordinal={ordinalOf(rows, i)}
          onChange={(patch) => set(i, patch)}
        />
      ))}
    </fieldset>
  );
}

function FlagRow({
  row,
  type,
  sibling,
  ordinal,
  onChange,
}: {
  row: FlagDraft;
  type?: FlagType;
  /** A new flag beside an existing one of its type: its requestee field says "(new)" too. */
  sibling: boolean;
  /** Among several existing flags of one type, this one's number (1, 2...); 0 when it is alone. */
  ordinal: number;
  onChange: (patch: Partial<FlagDraft>) => void;
}) {
  const id = useId();
  const requestable = type ? type.is_requestable : true;
  const requesteeble = type ? type.is_requesteeble : true;
  const label = row.id === undefined ? `${row.name} (new)` : ordinal ? `${row.name} ${ordinal}` : row.name;
  return (
    <div class="custom-row">
      <div class="field">
        <label for={`flag-${id}`}>{label}</label>
        <select id={`flag-${id}`} value={row.status} onChange={(e) => onChange({ status: e.currentTarget.value })}>
          <option value="">{row.id === undefined ? '(not set)' : '(clear)'}</option>
          {(requestable || row.status === '?') && <option value="?">? (request)</option>}
          <option value="+">+ (grant)</option>
          <option value="-">- (deny)</option>
        </select>
      </div>
      {row.status === '?' && requesteeble && (
        <UserInput
          label={row.id !== undefined ? `Ask ${label} of` : sibling ? `Ask ${row.name} (new) of` : `Ask ${row.name} of`}
          value={row.requestee}
          onInput={(requestee) => onChange({ requestee })}
        />
      )}
    </div>
  );
}

/** Existing flags of one type are numbered when there are several, so each control has its own name. */
function ordinalOf(rows: readonly FlagDraft[], index: number): number {
  const row = rows[index]!;
  if (row.id === undefined) return 0;
  const same = rows.filter((r) => r.id !== undefined && r.type_id === row.type_id);
  return same.length > 1 ? same.indexOf(row) + 1 : 0;
}
