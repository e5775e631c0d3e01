import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { matchUsers } from '../api/tracker.ts';
import type { User } from '../api/types.ts';

interface Props {
  label: string;
  value: string;
  onInput: (value: string) => void;
  /** Several comma-separated logins (CC); completion applies to the last one. */
  multiple?: boolean;
  id?: string;
  required?: boolean;
  placeholder?: string;
}

/**
 * A login field with completion from GET /rest/user?match=: an ARIA combobox with a listbox of
 * suggestions; arrows move, Enter picks, Escape closes.
 */
export function UserInput({ label, value, onInput, multiple, id, required, placeholder }: Props) {
  const autoId = useId();
  const inputId = id ?? `user-${autoId}`;
  const listId = `${inputId}-list`;
  const [options, setOptions] = useState<User[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<number | undefined>(undefined);
  const controller = useRef<AbortController | null>(null);

  const term = (multiple ? value.split(',').pop() : value)?.trim() ?? '';

  useEffect(() => {
    window.clearTimeout(timer.current);
    if (term.length < 2) {
      setOptions([]);
      return;
    }
    timer.current = window.setTimeout(() => {
      controller.current?.abort();
      const c = new AbortController();
      controller.current = c;
      matchUsers(term, c.signal).then(
        (users) => {
          setOptions(users.slice(0, 10));
          setActive(-1);
        },
        () => setOptions([]),
      );
    }, 250);
    return () => window.clearTimeout(timer.current);
  }, [term]);

  const pick = (user: User) => {
    if (multiple) {
      const parts = value.split(',').map((p) => p.trim());
      parts[parts.length - 1] = user.name;
      onInput(`${parts.filter(Boolean).join(', ')}, `);
    } else {
      onInput(user.name);
    }
    setOpen(false);
  };

  const showList = open && options.length > 0;
  return (
    <div class="combobox">
      <label for={inputId}>{label}</label>
      <input
        id={inputId}
        type="text"
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        value={value}
        required={required}
        placeholder={placeholder}
        onInput={(e) => {
          onInput(e.currentTarget.value);
          setOpen(true);
        }}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (!showList) return;
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => (a + 1) % options.length);
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => (a <= 0 ? options.length - 1 : a - 1));
          } else if (e.key === 'Enter' && active >= 0) {
            e.preventDefault();
            pick(options[active]!);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      <div id={listId} role="listbox" class="suggestions" hidden={!showList} aria-label="Suggestions">
        {options.map((u, i) => (
          <div
            key={u.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            tabIndex={-1}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(u);
            }}
          >
            {u.real_name ? `${u.real_name} <${u.name}>` : u.name}
          </div>
        ))}
      </div>
    </div>
  );
}
