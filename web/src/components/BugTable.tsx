import type { Bug } from '../api/types.ts';
import { bugHref } from '../lib/routes.ts';
import { display, formatTime } from './format.ts';

export interface TableColumn {
  field: string;
  heading: string;
  /** Sort button for the heading (bug list only). */
  sort?: { direction: 'ascending' | 'descending' | 'none'; onSort: () => void };
}

/** Bugs in a table: real <th scope>, the ID and summary link to the bug. */
export function BugTable({
  bugs,
  columns,
  caption,
  selection,
}: {
  bugs: readonly Bug[];
  columns: readonly TableColumn[];
  caption: string;
  selection?: { selected: ReadonlySet<number>; toggle: (id: number) => void; toggleAll: (on: boolean) => void };
}) {
  const allSelected = selection ? bugs.length > 0 && bugs.every((b) => selection.selected.has(b.id)) : false;
  return (
    <div class="table-wrap">
      <table class="responsive">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all bugs on this page"
                  checked={allSelected}
                  onChange={(e) => selection.toggleAll(e.currentTarget.checked)}
                />
              </th>
            )}
            {columns.map((c) => (
              <th
                key={c.field}
                scope="col"
                aria-sort={c.sort && c.sort.direction !== 'none' ? c.sort.direction : undefined}
              >
                {c.sort ? (
                  <button type="button" class="sort" onClick={c.sort.onSort}>
                    {c.heading}
                    <span aria-hidden="true">
                      {c.sort.direction === 'ascending' ? ' ▲' : c.sort.direction === 'descending' ? ' ▼' : ''}
                    </span>
                  </button>
                ) : (
                  c.heading
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {bugs.map((bug) => (
            <tr key={bug.id} class={bug.is_open === false ? 'closed' : undefined}>
              {selection && (
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select bug ${bug.id}`}
                    checked={selection.selected.has(bug.id)}
                    onChange={() => selection.toggle(bug.id)}
                  />
                </td>
              )}
              {columns.map((c) => (
                <td key={c.field} data-label={c.heading}>
                  <Cell bug={bug} field={c.field} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Cell({ bug, field }: { bug: Bug; field: string }) {
  const value = bug[field];
  if (field === 'id') return <a href={bugHref(bug.id)}>{bug.id}</a>;
  if (field === 'summary') return <a href={bugHref(bug.id)}>{bug.summary}</a>;
  if (field === 'creation_time' || field === 'last_change_time') return <>{formatTime(value as string)}</>;
  return <>{display(value)}</>;
}
