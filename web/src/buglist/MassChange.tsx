import { useEffect, useState } from 'preact/hooks';
import { updateBugs } from '../api/tracker.ts';
import { splitList } from '../components/format.ts';
import { ErrorMessage } from '../components/Messages.tsx';
import { Select, TextField } from '../components/Select.tsx';
import { UserInput } from '../components/UserInput.tsx';
import { legalValues, loadFields } from '../state/catalog.ts';
import { announce } from '../state/router.ts';

const KEEP = '--- do not change ---';

/** "Change several bugs at once": one PUT /rest/bug with the chosen ids. */
export function MassChange({ ids, onDone }: { ids: readonly number[]; onDone: () => void }) {
  const [status, setStatus] = useState('');
  const [resolution, setResolution] = useState('');
  const [priority, setPriority] = useState('');
  const [severity, setSeverity] = useState('');
  const [assignee, setAssignee] = useState('');
  const [ccAdd, setCcAdd] = useState('');
  const [keywordsAdd, setKeywordsAdd] = useState('');
  const [keywordsRemove, setKeywordsRemove] = useState('');
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [, setReady] = useState(false);
  useEffect(() => {
    loadFields().then(() => setReady(true), setError);
  }, []);

  const submit = async () => {
    const changes: Record<string, unknown> = {};
    if (status) changes.status = status;
    if (resolution) changes.resolution = resolution;
    if (priority) changes.priority = priority;
    if (severity) changes.severity = severity;
    if (assignee.trim()) changes.assigned_to = assignee.trim();
    if (ccAdd.trim()) changes.cc = { add: splitList(ccAdd) };
    if (keywordsAdd.trim() || keywordsRemove.trim()) {
      changes.keywords = { add: splitList(keywordsAdd), remove: splitList(keywordsRemove) };
    }
    if (comment.trim()) changes.comment = { body: comment };
    if (Object.keys(changes).length === 0) {
      setError(new Error('Choose at least one change.'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const results = await updateBugs(ids, changes);
      const changed = results.filter((r) => Object.keys(r.changes).length > 0).length;
      announce(`${results.length} bugs saved, ${changed} changed.`);
      setComment('');
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="mass-change"
      aria-labelledby="mass-change-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id="mass-change-heading">Change several bugs at once</h2>
      <p>{ids.length === 0 ? 'Select bugs in the list first.' : `${ids.length} bugs selected.`}</p>
      <ErrorMessage error={error} />
      <div class="grid">
        <Select label="Status" value={status} options={legalValues('bug_status')} onChange={setStatus} empty={KEEP} />
        <Select
          label="Resolution"
          value={resolution}
          options={legalValues('resolution').filter(Boolean)}
          onChange={setResolution}
          empty={KEEP}
        />
        <Select
          label="Priority"
          value={priority}
          options={legalValues('priority')}
          onChange={setPriority}
          empty={KEEP}
        />
        <Select
          label="Severity"
          value={severity}
          options={legalValues('bug_severity')}
          onChange={setSeverity}
          empty={KEEP}
        />
        <UserInput label="Assignee" value={assignee} onInput={setAssignee} />
        <UserInput label="Add to CC" value={ccAdd} onInput={setCcAdd} multiple />
        <TextField label="Add keywords" value={keywordsAdd} onInput={setKeywordsAdd} />
        <TextField label="Remove keywords" value={keywordsRemove} onInput={setKeywordsRemove} />
      </div>
      <div class="field">
        <label for="mass-comment">Comment</label>
        <textarea id="mass-comment" value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled={busy || ids.length === 0}>
        Commit changes to {ids.length} bugs
      </button>
    </form>
  );
}
