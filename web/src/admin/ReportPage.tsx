import { useState } from 'preact/hooks';
import { get } from '../api/client.ts';
import type { Product } from '../api/types.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { loadProducts } from '../state/catalog.ts';
import { navigate } from '../state/router.ts';
import { AdminFrame } from './AdminFrame.tsx';
import {
  cellHref,
  countReport,
  REPORT_FIELDS,
  type ReportField,
  type ReportTable,
  reportField,
} from './reportLogic.ts';

/** report.cgi's parameters; every other parameter of the address restricts the bugs counted. */
const REPORT_ONLY = new Set(['x_axis_field', 'y_axis_field', 'z_axis_field', 'format', 'action']);

/**
 * report.cgi: bugs counted by one field down (rows), optionally another across (columns) and a
 * third into several tables; each count links to the bug list it counts.
 */
export function ReportPage({ params }: { params: URLSearchParams }) {
  const rows = reportField(params.get('y_axis_field'));
  return (
    <AdminFrame cgi="report">
      <ReportForm params={params} />
      {rows && <ReportResult key={params.toString()} params={params} rows={rows} />}
    </AdminFrame>
  );
}

function restrictionsOf(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of params) if (!REPORT_ONLY.has(name)) out.append(name, value);
  return out;
}

function FieldSelect({
  id,
  label,
  value,
  onChange,
  optional,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  optional?: boolean;
}) {
  return (
    <label for={id}>
      {label}
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {optional && <option value="">(none)</option>}
        {REPORT_FIELDS.map((f) => (
          <option key={f.name} value={f.name}>
            {f.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function ReportForm({ params }: { params: URLSearchParams }) {
  const products = useLoad(() => loadProducts('selectable'), []);
  const [rows, setRows] = useState(params.get('y_axis_field') ?? 'product');
  const [columns, setColumns] = useState(params.get('x_axis_field') ?? 'bug_status');
  const [tables, setTables] = useState(params.get('z_axis_field') ?? '');
  const [product, setProduct] = useState(params.get('product') ?? '');
  const [openOnly, setOpenOnly] = useState(params.has('resolution') && params.get('resolution') === '');
  return (
    <form
      class="admin-form report-form"
      onSubmit={(e) => {
        e.preventDefault();
        const query = new URLSearchParams({ y_axis_field: rows, x_axis_field: columns, z_axis_field: tables });
        if (product) query.set('product', product);
        if (openOnly) query.set('resolution', '');
        query.set('format', 'table');
        navigate(`/report.cgi?${query.toString()}`);
      }}
    >
      <FieldSelect id="report-rows" label="Rows (vertical axis)" value={rows} onChange={setRows} />
      <FieldSelect
        id="report-columns"
        label="Columns (horizontal axis)"
        value={columns}
        onChange={setColumns}
        optional
      />
      <FieldSelect id="report-tables" label="Separate tables by" value={tables} onChange={setTables} optional />
      <label for="report-product">
        Product
        <select id="report-product" value={product} onChange={(e) => setProduct(e.currentTarget.value)}>
          <option value="">(all products)</option>
          {(products.data ?? []).map((p: Product) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label class="check">
        <input type="checkbox" checked={openOnly} onChange={(e) => setOpenOnly(e.currentTarget.checked)} />
        Open bugs only
      </label>
      <p>
        <button type="submit">Generate report</button>
      </p>
    </form>
  );
}

async function loadReport(params: URLSearchParams, fields: ReportField[]) {
  const restrictions = restrictionsOf(params);
  const query = new URLSearchParams(restrictions);
  query.set('include_fields', ['id', ...fields.map((f) => f.bugKey)].join(','));
  query.set('limit', '0');
  const countQuery = new URLSearchParams(restrictions);
  countQuery.set('count_only', '1');
  const [list, count] = await Promise.all([
    get<{ bugs: Record<string, unknown>[] }>('/bug', query),
    get<{ bug_count: number }>('/bug', countQuery),
  ]);
  return { bugs: list.bugs, total: count.bug_count, restrictions };
}

function ReportResult({ params, rows }: { params: URLSearchParams; rows: ReportField }) {
  const columns = reportField(params.get('x_axis_field'));
  const tables = reportField(params.get('z_axis_field'));
  const fields = [rows, columns, tables].filter((f): f is ReportField => f !== undefined);
  const report = useLoad(() => loadReport(params, fields), [params.toString()]);
  if (report.error) return <ErrorMessage error={report.error} />;
  if (!report.data) return <Loading what="the report" />;
  const { bugs, total, restrictions } = report.data;
  const result = countReport(bugs, rows, columns, tables);
  return (
    <section aria-labelledby="report-result">
      <h2 id="report-result">
        {total} bugs by {rows.label}
        {columns ? ` and ${columns.label}` : ''}
        {tables ? `, one table per ${tables.label}` : ''}
      </h2>
      {bugs.length < total && (
        <p class="message" role="alert">
          Only the first {bugs.length} of {total} bugs are counted (the installation's max_search_results).
        </p>
      )}
      {result.length === 0 && <p>No bugs match.</p>}
      {result.map((t) => (
        <CountTable key={t.table} table={t} base={restrictions} rows={rows} columns={columns} tables={tables} />
      ))}
    </section>
  );
}

function CountTable({
  table,
  base,
  rows,
  columns,
  tables,
}: {
  table: ReportTable;
  base: URLSearchParams;
  rows: ReportField;
  columns: ReportField | undefined;
  tables: ReportField | undefined;
}) {
  const tableAxis: [ReportField | undefined, string | undefined] = [tables, tables ? table.table : undefined];
  const href = (row?: string, column?: string) =>
    cellHref(base, [tableAxis, [rows, row], [columns, columns ? column : undefined]]);
  return (
    <table class="admin-table report-table">
      <caption>{tables ? `${tables.label}: ${table.table}` : `Bugs by ${rows.label}`}</caption>
      <thead>
        <tr>
          <th scope="col">
            {rows.label}
            {columns ? ` / ${columns.label}` : ''}
          </th>
          {columns &&
            table.columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {table.rows.map((r) => (
          <tr key={r}>
            <th scope="row">{r}</th>
            {columns &&
              table.columns.map((c) => {
                const n = table.counts[r]?.[c] ?? 0;
                return (
                  <td class="number" key={c}>
                    {n > 0 ? (
                      <a href={href(r, c)} aria-label={`${n} bugs: ${r}, ${c}`}>
                        {n}
                      </a>
                    ) : (
                      '.'
                    )}
                  </td>
                );
              })}
            <td class="number">
              <a href={href(r)} aria-label={`${table.rowTotals[r]} bugs: ${r}, all`}>
                {table.rowTotals[r]}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          {columns &&
            table.columns.map((c) => (
              <td class="number" key={c}>
                <a href={href(undefined, c)} aria-label={`${table.columnTotals[c]} bugs: all, ${c}`}>
                  {table.columnTotals[c]}
                </a>
              </td>
            ))}
          <td class="number">
            <a href={href()} aria-label={`${table.total} bugs in all`}>
              {table.total}
            </a>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
