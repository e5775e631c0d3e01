import { useState } from 'preact/hooks';
import { BugTable, type TableColumn } from '../components/BugTable.tsx';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { hasCriteria, pagingOf } from '../lib/buglistQuery.ts';
import { columnByField, normaliseColumns, parseOrder, toggleSort } from '../lib/columns.ts';
import { savedSearchRun } from '../lib/savedSearches.ts';
import { announce, navigate } from '../state/router.ts';
import { inGroup, session } from '../state/session.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { storeColumns, storedColumns } from './columnPrefs.ts';
import { downloadCsv } from './csvDownload.ts';
import { listColumns, loadBuglist } from './loadBuglist.ts';
import { MassChange } from './MassChange.tsx';
import { SaveSearchForm } from './SaveSearchForm.tsx';

function withParam(params: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(params);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) next.delete(k);
    else next.set(k, v);
  }
  return `/buglist.cgi?${next.toString()}`;
}

export function BuglistPage({ params }: { params: URLSearchParams }) {
  const key = params.toString();
  const [chosen, setChosen] = useState<string[]>(() => storedColumns());
  const columns = listColumns(params, chosen);
  const paging = pagingOf(params);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [csvError, setCsvError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);

  const criteria = hasCriteria(params);
  const loaded = useLoad(async () => {
    if (!criteria) return null;
    const found = await loadBuglist(params, columns);
    announce(`${found.total} bugs found.`);
    return found;
  }, [key, columns.join(',')]);

  const order = parseOrder(params.get('order'));
  const tableColumns: TableColumn[] = columns.map((field) => {
    const col = columnByField(field)!;
    const first = order[0];
    const direction = first && first.column === col.column ? (first.descending ? 'descending' : 'ascending') : 'none';
    return {
      field,
      heading: col.heading,
      sort: {
        direction,
        onSort: () => navigate(withParam(params, { order: toggleSort(params.get('order'), col.column), offset: null })),
      },
    };
  });

  const quick = params.get('quicksearch');
  const saved = savedSearchRun(params);
  const data = loaded.data;
  const first = paging.offset + 1;
  const last = data ? paging.offset + data.bugs.length : 0;

  return (
    <>
      <h1>Bug list</h1>
      {quick && <p>Quick search: “{quick}”</p>}
      {saved && <p>Saved search: “{saved.name}”</p>}
      {!criteria && (
        <p class="message">
          This search has no criteria. Use the <a href="/query.cgi">search form</a> or the quick search.
        </p>
      )}
      <ErrorMessage error={loaded.error} />
      {loaded.loading && <Loading what="bugs" />}
      {data && (
        <>
          <p role="status">
            {data.total === 0
              ? 'Zarro Boogs found.'
              : data.total === 1
                ? 'One bug found.'
                : `${data.total} bugs found${data.total > data.bugs.length ? `, showing ${first}–${last}` : ''}.`}
          </p>
          <div class="actions">
            <ColumnChooser
              columns={columns}
              onChange={(next) => {
                const normal = normaliseColumns(next);
                storeColumns(normal);
                setChosen(normal);
                if (params.has('columnlist')) navigate(withParam(params, { columnlist: null }), true);
              }}
            />
            <button
              type="button"
              class="secondary"
              onClick={async () => {
                setCsvError(null);
                try {
                  const n = await downloadCsv(params, columns);
                  announce(`CSV of ${n} bugs downloaded.`);
                } catch (e) {
                  setCsvError(e);
                }
              }}
            >
              Download as CSV
            </button>
            <SortSelect params={params} columns={columns} />
            {!saved && <a href={`/query.cgi?${params.toString()}`}>Edit search</a>}
            {session.value && inGroup('editbugs') && data.bugs.length > 0 && (
              <button type="button" class="secondary" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Change several bugs at once
              </button>
            )}
          </div>
          <ErrorMessage error={csvError} />
          {data.bugs.length > 0 && (
            <BugTable
              bugs={data.bugs}
              columns={tableColumns}
              caption="Bugs found"
              selection={
                editing
                  ? {
                      selected,
                      toggle: (id) => {
                        const next = new Set(selected);
                        if (next.has(id)) next.delete(id);
                        else next.add(id);
                        setSelected(next);
                      },
                      toggleAll: (on) => setSelected(on ? new Set(data.bugs.map((b) => b.id)) : new Set()),
                    }
                  : undefined
              }
            />
          )}
          {session.value && !saved && <SaveSearchForm params={params} />}
          <nav class="pager" aria-label="Pages">
            {paging.offset > 0 && (
              <a
                href={withParam(params, {
                  offset: String(Math.max(0, paging.offset - paging.limit)),
                  limit: String(paging.limit),
                })}
              >
                Previous page
              </a>
            )}
            {last < data.total && (
              <a
                href={withParam(params, { offset: String(paging.offset + paging.limit), limit: String(paging.limit) })}
              >
                Next page
              </a>
            )}
          </nav>
          {editing && session.value && (
            <MassChange
              ids={[...selected].filter((id) => data.bugs.some((b) => b.id === id))}
              onDone={() => {
                setSelected(new Set());
                loaded.reload();
              }}
            />
          )}
        </>
      )}
    </>
  );
}

/** Sorting without the table's headings (they are hidden on a phone-sized screen). */
function SortSelect({ params, columns }: { params: URLSearchParams; columns: readonly string[] }) {
  const first = parseOrder(params.get('order'))[0];
  const value = first ? `${first.column}${first.descending ? ' DESC' : ''}` : '';
  const options = columns.flatMap((field) => {
    const col = columnByField(field)!;
    return [
      [col.column, `${col.heading} (ascending)`],
      [`${col.column} DESC`, `${col.heading} (descending)`],
    ];
  });
  return (
    <div class="sort-select">
      <label for="buglist-sort">Sort by</label>{' '}
      <select
        id="buglist-sort"
        value={value}
        onChange={(e) => {
          const chosen = e.currentTarget.value;
          const rest = parseOrder(params.get('order'))
            .slice(1)
            .filter((k) => k.column !== chosen.split(' ')[0]);
          const order = [chosen, ...rest.map((k) => (k.descending ? `${k.column} DESC` : k.column))]
            .filter(Boolean)
            .join(',');
          navigate(withParam(params, { order: order || null, offset: null }));
        }}
      >
        <option value="">(default order)</option>
        {options.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
