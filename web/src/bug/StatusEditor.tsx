import { Select, TextField } from '../components/Select.tsx';
import type { Draft } from '../lib/bugDraft.ts';
import { isOpenStatus, type StatusValue, transitionsFrom } from '../lib/workflow.ts';

/** Status through the workflow (only moves allowed from the current status), resolution, duplicate of. */
export function StatusEditor({
  current,
  draft,
  statuses,
  resolutions,
  update,
}: {
  current: string;
  draft: Draft;
  statuses: readonly StatusValue[];
  resolutions: readonly string[];
  update: (patch: Partial<Draft>) => void;
}) {
  const moves = transitionsFrom(statuses, current);
  const closed = !isOpenStatus(statuses, draft.status);
  const needsComment = moves.find((m) => m.name === draft.status)?.commentRequired;
  return (
    <fieldset class="status-editor">
      <legend>Status</legend>
      <div class="grid">
        <Select
          label="Status"
          id="bug-status"
          value={draft.status}
          options={moves.map((m) => m.name)}
          onChange={(status) =>
            update({
              status,
              resolution: isOpenStatus(statuses, status) ? '' : draft.resolution || resolutions[0] || '',
            })
          }
        />
        {closed && (
          <Select
            label="Resolution"
            id="bug-resolution"
            value={draft.resolution}
            options={resolutions}
            onChange={(resolution) => update({ resolution })}
          />
        )}
        {closed && draft.resolution === 'DUPLICATE' && (
          <TextField
            label="Duplicate of bug"
            id="bug-dupe-of"
            value={draft.dupe_of}
            onInput={(dupe_of) => update({ dupe_of })}
          />
        )}
      </div>
      {needsComment && <p class="hint">This change of status needs a comment.</p>}
    </fieldset>
  );
}
