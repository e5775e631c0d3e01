import { COLUMNS } from '../lib/columns.ts';

/** Checkboxes for the bug list's columns; the ID is always shown. */
export function ColumnChooser({
  columns,
  onChange,
}: {
  columns: readonly string[];
  onChange: (columns: string[]) => void;
}) {
  return (
    <details class="column-chooser">
      <summary>Columns</summary>
      <fieldset>
        <legend>Columns to show</legend>
        <div class="grid">
          {COLUMNS.filter((c) => c.field !== 'id').map((c) => (
            <label key={c.field} class="checkbox">
              <input
                type="checkbox"
                checked={columns.includes(c.field)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  const next = on
                    ? COLUMNS.map((x) => x.field).filter((f) => f === c.field || columns.includes(f))
                    : columns.filter((f) => f !== c.field);
                  onChange(next);
                }}
              />
              {c.heading}
            </label>
          ))}
        </div>
      </fieldset>
    </details>
  );
}
