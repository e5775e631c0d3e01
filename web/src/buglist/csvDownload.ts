import { searchBugs } from '../api/tracker.ts';
import { searchParams } from '../lib/buglistQuery.ts';
import { columnByField } from '../lib/columns.ts';
import { toCsv } from '../lib/csv.ts';

/** Every result of the search (up to the API's maximum) with the shown columns, as a CSV file. */
export async function downloadCsv(params: URLSearchParams, columns: readonly string[]): Promise<number> {
  const query = searchParams(params);
  query.set('include_fields', columns.join(','));
  query.set('limit', '10000');
  const bugs = await searchBugs(query);
  const csv = toCsv(
    columns.map((c) => columnByField(c)?.heading ?? c),
    bugs.map((b) => columns.map((c) => b[c])),
  );
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'bugs.csv';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return bugs.length;
}
