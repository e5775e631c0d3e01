import { useId } from 'preact/hooks';

interface Props {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  /** Words to show for some values (the value itself otherwise). */
  labels?: Readonly<Record<string, string>>;
  /** A first, empty choice with this text. */
  empty?: string;
  id?: string;
  disabled?: boolean;
  required?: boolean;
}

/** A labelled drop-down; a current value missing from the options is still shown. */
export function Select({ label, value, options, onChange, labels, empty, id, disabled, required }: Props) {
  const auto = useId();
  const selectId = id ?? `select-${auto}`;
  const all = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <div class="field">
      <label for={selectId}>{label}</label>
      <select
        id={selectId}
        value={value}
        disabled={disabled}
        required={required}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {all.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled multiple selection list. */
export function MultiSelect({
  label,
  values,
  options,
  onChange,
  id,
}: {
  label: string;
  values: readonly string[];
  options: readonly string[];
  onChange: (values: string[]) => void;
  id?: string;
}) {
  const auto = useId();
  const selectId = id ?? `multi-${auto}`;
  return (
    <div class="field">
      <label for={selectId}>{label}</label>
      <select
        id={selectId}
        multiple
        size={Math.min(6, Math.max(3, options.length))}
        onChange={(e) => onChange([...e.currentTarget.selectedOptions].map((o) => o.value))}
      >
        {options.map((o) => (
          <option key={o} value={o} selected={values.includes(o)}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TextField({
  label,
  value,
  onInput,
  id,
  type = 'text',
  required,
  autocomplete,
  hint,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  id?: string;
  type?: 'text' | 'password' | 'email' | 'date' | 'number' | 'search' | 'file';
  required?: boolean;
  autocomplete?: string;
  hint?: string;
}) {
  const auto = useId();
  const inputId = id ?? `text-${auto}`;
  return (
    <div class="field">
      <label for={inputId}>{label}</label>
      <input
        id={inputId}
        type={type as 'text'}
        value={value}
        required={required}
        autocomplete={autocomplete}
        aria-describedby={hint ? `${inputId}-hint` : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {hint && (
        <small id={`${inputId}-hint`} class="hint">
          {hint}
        </small>
      )}
    </div>
  );
}
