import { Fragment } from 'preact';
import type { Bug } from '../api/types.ts';
import { display, formatTime } from '../components/format.ts';
import { bugHref } from '../lib/routes.ts';

const SKIP = new Set([
  'id',
  'summary',
  'flags',
  'cc_detail',
  'assigned_to_detail',
  'creator_detail',
  'qa_contact_detail',
  'update_token',
  'duplicates',
]);

const LABELS: Record<string, string> = {
  status: 'Status',
  resolution: 'Resolution',
  product: 'Product',
  component: 'Component',
  version: 'Version',
  target_milestone: 'Target milestone',
  priority: 'Priority',
  severity: 'Severity',
  platform: 'Hardware',
  op_sys: 'OS',
  assigned_to: 'Assignee',
  creator: 'Reporter',
  qa_contact: 'QA contact',
  cc: 'CC',
  keywords: 'Keywords',
  depends_on: 'Depends on',
  blocks: 'Blocks',
  see_also: 'See also',
  url: 'URL',
  whiteboard: 'Whiteboard',
  groups: 'Groups',
  creation_time: 'Reported',
  last_change_time: 'Modified',
  deadline: 'Deadline',
  estimated_time: 'Orig. est.',
  remaining_time: 'Hours left',
  actual_time: 'Hours worked',
};

/** Every field the caller may see, read-only. */
export function BugFacts({ bug }: { bug: Bug }) {
  const names = [
    ...Object.keys(LABELS).filter((k) => k in bug),
    ...Object.keys(bug).filter((k) => k.startsWith('cf_')),
  ].filter((k) => !SKIP.has(k));
  return (
    <section aria-labelledby="facts-heading">
      <h2 id="facts-heading">Details</h2>
      <dl class="facts">
        {names.map((k) => (
          <Fragment key={k}>
            <dt>{LABELS[k] ?? k}</dt>
            <dd>
              <Value name={k} value={bug[k]} />
            </dd>
          </Fragment>
        ))}
        {bug.flags.length > 0 && (
          <>
            <dt>Flags</dt>
            <dd>{bug.flags.map((f) => `${f.name}${f.status}${f.requestee ? ` (${f.requestee})` : ''}`).join(', ')}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

function Value({ name, value }: { name: string; value: unknown }) {
  if ((name === 'depends_on' || name === 'blocks') && Array.isArray(value)) {
    return (
      <>
        {value.map((id, i) => (
          <span key={id}>
            {i > 0 && ', '}
            <a href={bugHref(id as number)}>{String(id)}</a>
          </span>
        ))}
      </>
    );
  }
  if (name === 'creation_time' || name === 'last_change_time') return <>{formatTime(value as string)}</>;
  return <>{display(value)}</>;
}
