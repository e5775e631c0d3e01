import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { get } from '../api/client.ts';
import { getHistory } from '../api/tracker.ts';
import type { Product } from '../api/types.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { loadFields, loadProducts } from '../state/catalog.ts';
import { navigate } from '../state/router.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { type BugTimeline, openBugsPerDay, timelineOf } from './reportLogic.ts';

/** The most bugs whose history the chart reads (one request each); a larger product is refused with a message. */
const MAX_BUGS = 300;
const PARALLEL = 4;

/** chart.cgi?product=X: how many of a product's bugs were open at the end of each day. */
export function ChartPage({ params }: { params: URLSearchParams }) {
  const product = params.get('product') ?? '';
  return (
    <AdminFrame cgi="chart" title={product ? `Open bugs over time: ${product}` : 'Open bugs over time'}>
      <ProductChooser product={product} />
      {product && <Chart key={product} product={product} />}
    </AdminFrame>
  );
}

function ProductChooser({ product }: { product: string }) {
  const products = useLoad(() => loadProducts('selectable'), []);
  const [chosen, setChosen] = useState(product);
  return (
    <form
      class="admin-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) navigate(`/chart.cgi?product=${encodeURIComponent(chosen)}`);
      }}
    >
      <label for="chart-product">
        Product
        <select id="chart-product" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
          <option value="">(choose one)</option>
          {(products.data ?? []).map((p: Product) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <p>
        <button type="submit">Draw the chart</button>
      </p>
    </form>
  );
}

async function loadTimelines(product: string): Promise<{ timelines: BugTimeline[]; openStatuses: Set<string> }> {
  const [fields, count] = await Promise.all([
    loadFields(),
    get<{ bug_count: number }>('/bug', { product, count_only: 1 }),
  ]);
  if (count.bug_count > MAX_BUGS) {
    throw new Error(
      `${product} has ${count.bug_count} bugs; this chart reads the history of at most ${MAX_BUGS}. Use the tabular report instead.`,
    );
  }
  const status = fields.find((f) => f.name === 'bug_status');
  const openStatuses = new Set((status?.values ?? []).filter((v) => v.is_open && v.name).map((v) => v.name!));
  const { bugs } = await get<{ bugs: { id: number; creation_time: string; status: string }[] }>('/bug', {
    product,
    include_fields: 'id,creation_time,status',
    limit: 0,
  });
  const timelines: BugTimeline[] = [];
  for (let i = 0; i < bugs.length; i += PARALLEL) {
    const batch = bugs.slice(i, i + PARALLEL);
    const histories = await Promise.all(batch.map((b) => getHistory(b.id)));
    for (const [j, b] of batch.entries()) timelines.push(timelineOf(b, histories[j]!));
  }
  return { timelines, openStatuses };
}

function Chart({ product }: { product: string }) {
  const data = useLoad(() => loadTimelines(product), [product]);
  if (data.error) return <ErrorMessage error={data.error} />;
  if (!data.data) return <Loading what="the history of the bugs" />;
  const { timelines, openStatuses } = data.data;
  if (timelines.length === 0) return <p>{product} has no bugs.</p>;
  const events = timelines.flatMap((t) => [t.created, ...t.changes.map((c) => c.when)]).sort();
  const today = new Date().toISOString();
  const last = events[events.length - 1]! > today ? events[events.length - 1]! : today;
  const points = openBugsPerDay(timelines, (s) => openStatuses.has(s), events[0]!, last);
  return (
    <>
      <Plot points={points} product={product} />
      <details open={points.length <= 31}>
        <summary>The numbers</summary>
        <table class="admin-table">
          <caption>Open bugs of {product} at the end of each day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Open bugs</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.day}>
                <th scope="row">{p.day}</th>
                <td class="number">{p.open}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

/** The line chart (uPlot on a canvas); the table above carries the same numbers for everyone. */
function Plot({ points, product }: { points: { day: string; open: number }[]; product: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const xs = points.map((p) => Date.parse(`${p.day}T23:59:59Z`) / 1000);
    const ys = points.map((p) => p.open);
    const plot = new uPlot(
      {
        width: Math.min(900, box.current.clientWidth || 900),
        height: 320,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [{}, { label: 'Open bugs', stroke: '#0a58ca', width: 2, points: { show: points.length <= 60 } }],
        axes: [{}, { label: 'Open bugs' }],
      },
      [xs, ys],
      box.current,
    );
    return () => plot.destroy();
  }, [points]);
  return (
    <div class="chart" ref={box} role="img" aria-label={`Line chart of the open bugs of ${product}, one point a day`} />
  );
}
