import { useId, useState } from 'preact/hooks';
import { createAttachment } from '../api/tracker.ts';
import type { Attachment } from '../api/types.ts';
import { ErrorMessage } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { announce } from '../state/router.ts';
import { fileToBase64, guessContentType, looksLikePatch } from './files.ts';

export interface AttachmentDraft {
  file: File | null;
  summary: string;
  contentType: string;
  isPatch: boolean;
  isPrivate: boolean;
  comment: string;
  /** Attachments this one replaces (marked obsolete). */
  obsoletes: number[];
}

export const emptyAttachment = (): AttachmentDraft => ({
  file: null,
  summary: '',
  contentType: '',
  isPatch: false,
  isPrivate: false,
  comment: '',
  obsoletes: [],
});

export async function sendAttachment(bugId: number, a: AttachmentDraft): Promise<number> {
  if (!a.file) throw new Error('Choose a file to attach.');
  const data = await fileToBase64(a.file);
  const r = await createAttachment(bugId, {
    data,
    file_name: a.file.name,
    summary: a.summary.trim() || a.file.name,
    content_type: a.isPatch ? 'text/plain' : a.contentType || 'application/octet-stream',
    is_patch: a.isPatch,
    is_private: a.isPrivate,
    ...(a.comment.trim() ? { comment: a.comment } : {}),
    ...(a.obsoletes.length ? { obsoletes: a.obsoletes } : {}),
  });
  return r.ids[0]!;
}

/** The file, description and type of an attachment: a file input that also takes a dropped file. */
export function AttachmentFields({
  value,
  onChange,
  canPrivate,
  withComment,
}: {
  value: AttachmentDraft;
  onChange: (v: AttachmentDraft) => void;
  canPrivate: boolean;
  withComment?: boolean;
}) {
  const id = useId();
  const [over, setOver] = useState(false);
  const choose = (file: File | undefined) => {
    if (!file) return;
    onChange({
      ...value,
      file,
      summary: value.summary || file.name,
      contentType: guessContentType(file),
      isPatch: looksLikePatch(file),
    });
  };
  return (
    <>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the file input inside is the keyboard way */}
      <div
        class={over ? 'dropzone over' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          choose(e.dataTransfer?.files[0]);
        }}
      >
        <label for={`file-${id}`}>File (or drop one here)</label>{' '}
        <input id={`file-${id}`} type="file" onChange={(e) => choose(e.currentTarget.files?.[0])} />
        {value.file && <p>Chosen: {value.file.name}</p>}
      </div>
      <TextField
        label="Attachment description"
        value={value.summary}
        onInput={(summary) => onChange({ ...value, summary })}
      />
      <TextField
        label="Content type"
        value={value.contentType}
        onInput={(contentType) => onChange({ ...value, contentType })}
        hint="For example text/plain, image/png, application/pdf"
      />
      <label class="checkbox">
        <input
          type="checkbox"
          checked={value.isPatch}
          onChange={(e) => onChange({ ...value, isPatch: e.currentTarget.checked })}
        />
        This is a patch
      </label>
      {canPrivate && (
        <label class="checkbox">
          <input
            type="checkbox"
            checked={value.isPrivate}
            onChange={(e) => onChange({ ...value, isPrivate: e.currentTarget.checked })}
          />
          Private (only the insider group sees it)
        </label>
      )}
      {withComment && (
        <div class="field">
          <label for={`att-comment-${id}`}>Comment (optional)</label>
          <textarea
            id={`att-comment-${id}`}
            value={value.comment}
            onInput={(e) => onChange({ ...value, comment: e.currentTarget.value })}
          />
        </div>
      )}
    </>
  );
}

/** "Add an attachment" on the bug page. */
export function AttachmentUpload({
  bugId,
  canPrivate,
  onDone,
  replaceable = [],
}: {
  bugId: number;
  canPrivate: boolean;
  onDone: () => void;
  /** The bug's attachments that are not obsolete: the new one may replace them. */
  replaceable?: readonly Attachment[];
}) {
  const [draft, setDraft] = useState(emptyAttachment);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <details class="attachment-upload">
      <summary>Add an attachment</summary>
      <form
        aria-label="Add an attachment"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const id = await sendAttachment(bugId, draft);
            announce(`Attachment ${id} added.`);
            setDraft(emptyAttachment());
            onDone();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <ErrorMessage error={error} />
        <AttachmentFields value={draft} onChange={setDraft} canPrivate={canPrivate} withComment />
        {replaceable.length > 0 && (
          <fieldset>
            <legend>Obsoletes</legend>
            {replaceable.map((a) => (
              <label key={a.id} class="checkbox">
                <input
                  type="checkbox"
                  checked={draft.obsoletes.includes(a.id)}
                  onChange={(e) =>
                    setDraft({
                      ...draft,
                      obsoletes: e.currentTarget.checked
                        ? [...draft.obsoletes, a.id]
                        : draft.obsoletes.filter((x) => x !== a.id),
                    })
                  }
                />
                Attachment {a.id}: {a.summary}
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" disabled={busy || !draft.file}>
          Attach file
        </button>
      </form>
    </details>
  );
}
