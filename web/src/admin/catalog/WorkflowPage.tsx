import { useState } from 'preact/hooks';
import { setWorkflow } from '../../api/adminCatalog.ts';
import { get } from '../../api/client.ts';
import type { FieldDefinition } from '../../api/types.ts';
import { ErrorMessage, Loading, StatusLine } from '../../components/Messages.tsx';
import { useLoad } from '../../components/useLoad.ts';
import { adminHref } from '../../lib/routes.ts';
import { describeMoveChanges, type Move, moveKey, movesOf, statusesOf } from '../../lib/workflowMatrix.ts';
import { loadUserContext, resetCatalog } from '../../state/catalog.ts';
import { AdminFrame } from '../AdminFrame.tsx';
import { useAction } from './useAction.ts';

async function statusField(): Promise<FieldDefinition> {
  return (await get<{ fields: FieldDefinition[] }>('/field/bug/bug_status')).fields[0]!;
}

/**
 * editworkflow.cgi and its comment page in one matrix: a row per status a bug is in (and "new
 * bug"), a column per status it may move to; each allowed move may also require a comment.
 */
export function WorkflowPage() {
  const field = useLoad(() => statusField(), []);
  return (
    <AdminFrame cgi="editworkflow">
      {field.loading && !field.data && <Loading what="the workflow" />}
      <ErrorMessage error={field.error} />
      {field.data && (
        <WorkflowMatrix key={JSON.stringify(field.data.values)} field={field.data} reload={field.reload} />
      )}
    </AdminFrame>
  );
}

function WorkflowMatrix({ field, reload }: { field: FieldDefinition; reload: () => void }) {
  const stored = movesOf(field.values);
  const [moves, setMoves] = useState(() => new Map(stored));
  const action = useAction();
  const statuses = statusesOf(field.values);
  const changes = describeMoveChanges(stored, moves);
  const toggle = (from: string | null, to: string, allowed: boolean) => {
    const next = new Map(moves);
    if (allowed) next.set(moveKey(from, to), { from, to, comment_required: false });
    else next.delete(moveKey(from, to));
    setMoves(next);
  };
  const requireComment = (from: string | null, to: string, required: boolean) => {
    const next = new Map(moves);
    next.set(moveKey(from, to), { from, to, comment_required: required });
    setMoves(next);
  };
  const rows: (string | null)[] = [null, ...statuses.map((s) => s.name)];
  const label = (from: string | null) => from ?? '(new bug)';
  return (
    <>
      <p>
        Check a cell to let a bug move from the row's status to the column's; check "comment" to require a comment for
        that move. Statuses are added and renamed on the{' '}
        <a href={adminHref('editvalues', { field: 'bug_status' })}>status values</a> page. Every open status keeps its
        move to the status of duplicates.
      </p>
      <ErrorMessage error={action.error} />
      {action.done && <StatusLine text={action.done} />}
      <form
        aria-label="Status workflow"
        onSubmit={(e) => {
          e.preventDefault();
          const transitions: Move[] = [...moves.values()];
          void action.run(
            () => setWorkflow(transitions),
            `The workflow was saved: ${changes.join('; ')}.`,
            () => {
              resetCatalog();
              void loadUserContext();
              reload();
            },
          );
        }}
      >
        <div class="table-wrap">
          <table class="admin-table workflow">
            <caption>From (rows) → To (columns)</caption>
            <thead>
              <tr>
                <td />
                {statuses.map((s) => (
                  <th scope="col" key={s.name} class={s.is_open ? 'open-status' : 'closed-status'}>
                    {s.name}
                    {s.is_active === false ? ' (disabled)' : ''}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((from) => (
                <tr key={label(from)}>
                  <th scope="row">{label(from)}</th>
                  {statuses.map((s) => {
                    const to = s.name!;
                    if (from === to) return <td key={to} class="same" />;
                    // A new bug starts only in an open status.
                    if (from === null && !s.is_open) return <td key={to} class="same" />;
                    const move = moves.get(moveKey(from, to));
                    return (
                      <td key={to}>
                        <input
                          type="checkbox"
                          checked={Boolean(move)}
                          aria-label={`From ${label(from)} to ${to}`}
                          onChange={(e) => toggle(from, to, e.currentTarget.checked)}
                        />
                        {move && (
                          <label class="check small">
                            <input
                              type="checkbox"
                              checked={move.comment_required}
                              aria-label={`Comment required from ${label(from)} to ${to}`}
                              onChange={(e) => requireComment(from, to, e.currentTarget.checked)}
                            />{' '}
                            comment
                          </label>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {changes.length > 0 && (
          <p role="status">
            {changes.length} unsaved {changes.length === 1 ? 'change' : 'changes'}: {changes.join('; ')}.
          </p>
        )}
        <button type="submit" disabled={action.busy || changes.length === 0}>
          Save workflow
        </button>
      </form>
    </>
  );
}
