import type { FieldDefinition } from '../api/types.ts';
import { MultiSelect, Select, TextField } from './Select.tsx';

/**
 * Custom fields (cf_*) the installation defines, shown when their visibility field allows:
 * free text, drop-downs, multiple selections, large text, dates, bug ids and integers.
 */
export function visibleCustomFields(
  fields: readonly FieldDefinition[],
  values: Record<string, unknown>,
  onEntry: boolean,
): FieldDefinition[] {
  return fields.filter((f) => {
    if (!f.is_custom || f.type === 7 || (f as { is_obsolete?: boolean }).is_obsolete) return false;
    if (onEntry && !f.is_on_bug_entry) return false;
    if (!f.visibility_field) return true;
    const controlling = values[f.visibility_field];
    const current = Array.isArray(controlling) ? controlling.map(String) : [String(controlling ?? '')];
    return current.some((v) => f.visibility_values?.includes(v));
  });
}

export function CustomFieldInputs({
  fields,
  values,
  onChange,
  product,
}: {
  fields: readonly FieldDefinition[];
  values: Record<string, string | string[]>;
  onChange: (name: string, value: string | string[]) => void;
  product: string;
}) {
  if (fields.length === 0) return null;
  return (
    <fieldset>
      <legend>Custom fields</legend>
      <div class="bug-fields">
        {fields.map((f) => {
          const value = values[f.name] ?? (f.type === 3 ? [] : '');
          const options = f.values
            .filter((v) => v.name && v.is_active !== false)
            .filter((v) => !v.visibility_values?.length || v.visibility_values.includes(product))
            .map((v) => v.name!);
          const id = `custom-${f.name}`;
          if (f.type === 2) {
            return (
              <Select
                key={f.name}
                id={id}
                label={f.display_name}
                value={String(value)}
                options={options}
                onChange={(v) => onChange(f.name, v)}
              />
            );
          }
          if (f.type === 3) {
            return (
              <MultiSelect
                key={f.name}
                id={id}
                label={f.display_name}
                values={Array.isArray(value) ? value : []}
                options={options}
                onChange={(v) => onChange(f.name, v)}
              />
            );
          }
          if (f.type === 4) {
            return (
              <div class="field" key={f.name}>
                <label for={id}>{f.display_name}</label>
                <textarea id={id} value={String(value)} onInput={(e) => onChange(f.name, e.currentTarget.value)} />
              </div>
            );
          }
          return (
            <TextField
              key={f.name}
              id={id}
              label={f.display_name}
              type={f.type === 9 ? 'date' : 'text'}
              value={String(value)}
              onInput={(v) => onChange(f.name, v)}
              hint={
                f.type === 5
                  ? 'YYYY-MM-DD HH:MM:SS'
                  : f.type === 6
                    ? 'A bug number'
                    : f.type === 10
                      ? 'A whole number'
                      : undefined
              }
            />
          );
        })}
      </div>
    </fieldset>
  );
}
