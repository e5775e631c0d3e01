import { useEffect, useState } from 'preact/hooks';
import { attachmentDownloadUrl, getAttachment, getBug, getProducts, updateAttachment } from '../api/tracker.ts';
import type { Attachment, FlagType } from '../api/types.ts';
import { FlagEditor } from '../bug/FlagEditor.tsx';
import { formatSize, formatTime } from '../components/format.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { TextField } from '../components/Select.tsx';
import { useLoad } from '../components/useLoad.ts';
import { inlineKind } from '../lib/attachments.ts';
import { type FlagDraft, flagChanges } from '../lib/bugDraft.ts';
import { attachmentHref, bugHref } from '../lib/routes.ts';
import { isInsider } from '../state/catalog.ts';
import { announce } from '../state/router.ts';
import { session } from '../state/session.ts';
import { base64ToBytes } from './files.ts';

async function loadAttachment(id: string) {
  const meta = await getAttachment(id, false);
  if (!meta) throw new Error(`There is no attachment ${id}, or you may not see it.`);
  const bug = await getBug(String(meta.bug_id), 'id,summary,product,component');
  const products = await getProducts('accessible', [bug.product]).catch(() => []);
  const component = products[0]?.components.find((c) => c.name === bug.component);
  return { meta, bug, flagTypes: component?.flag_types?.attachment ?? ([] as FlagType[]) };
}

export function AttachmentPage({ id, edit }: { id: string; edit: boolean }) {
  const loaded = useLoad(() => loadAttachment(id), [id, session.value?.login]);
  if (loaded.loading && !loaded.data) return <Loading what={`attachment ${id}`} />;
  if (!loaded.data) {
    return (
      <>
        <h1>Attachment {id}</h1>
        <ErrorMessage error={loaded.error} />
      </>
    );
  }
  const { meta, bug, flagTypes } = loaded.data;
  return (
    <>
      <h1>
        Attachment {meta.id}: {meta.summary}
      </h1>
      <p>
        On <a href={bugHref(bug.id)}>bug {bug.id}</a> – {bug.summary}
      </p>
      <dl class="facts">
        <dt>File name</dt>
        <dd>{meta.file_name}</dd>
        <dt>Content type</dt>
        <dd>{meta.content_type}</dd>
        <dt>Size</dt>
        <dd>{formatSize(meta.size)}</dd>
        <dt>Created</dt>
        <dd>
          {formatTime(meta.creation_time)} by {meta.creator}
        </dd>
        <dt>Flags</dt>
        <dd>
          {meta.flags.map((f) => `${f.name}${f.status}${f.requestee ? ` (${f.requestee})` : ''}`).join(', ') || 'none'}
        </dd>
      </dl>
      {edit ? (
        session.value ? (
          <AttachmentEditForm attachment={meta} flagTypes={flagTypes} onSaved={loaded.reload} />
        ) : (
          <p>
            <a href={`/login?return=${encodeURIComponent(attachmentHref(meta.id, true))}`}>Log in</a> to change this
            attachment.
          </p>
        )
      ) : (
        <p>
          <a href={attachmentHref(meta.id, true)}>Details and changes</a>
        </p>
      )}
      <AttachmentBody attachment={meta} />
    </>
  );
}

/** The body: text as text, images through a blob: URL, anything else as a download. */
function AttachmentBody({ attachment }: { attachment: Attachment }) {
  const kind = inlineKind(attachment);
  const [text, setText] = useState<string | null>(null);
  const [imageUrl, setImageUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!kind) return;
    let url: string | null = null;
    let live = true;
    getAttachment(attachment.id, true).then(
      (a) => {
        if (!live || !a?.data) return;
        const bytes = base64ToBytes(a.data);
        if (kind === 'text') setText(new TextDecoder().decode(bytes));
        else {
          url = URL.createObjectURL(new Blob([bytes], { type: attachment.content_type }));
          setImageUrl(url);
        }
      },
      (e) => live && setError(e),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [attachment.id, kind]);

  const download = async () => {
    setError(null);
    try {
      const a = await getAttachment(attachment.id, true);
      let href: string;
      if (a?.data) {
        href = URL.createObjectURL(new Blob([base64ToBytes(a.data)], { type: 'application/octet-stream' }));
      } else {
        const url = await attachmentDownloadUrl(attachment.id);
        if (!url) throw new Error('The attachment could not be downloaded.');
        href = url;
      }
      const link = document.createElement('a');
      link.href = href;
      link.download = attachment.file_name;
      document.body.append(link);
      link.click();
      link.remove();
      if (href.startsWith('blob:')) setTimeout(() => URL.revokeObjectURL(href), 10_000);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section aria-labelledby="body-heading">
      <h2 id="body-heading">Content</h2>
      <ErrorMessage error={error} />
      {kind === 'text' && (text === null ? <Loading what="the content" /> : <pre class="text-body">{text}</pre>)}
      {kind === 'image' && imageUrl && <img class="attachment-image" src={imageUrl} alt={attachment.summary} />}
      <button type="button" class="secondary" onClick={download}>
        Download {attachment.file_name}
      </button>
    </section>
  );
}

function AttachmentEditForm({
  attachment,
  flagTypes,
  onSaved,
}: {
  attachment: Attachment;
  flagTypes: FlagType[];
  onSaved: () => void;
}) {
  const initialFlags = (): FlagDraft[] =>
    attachment.flags.map((f) => ({
      id: f.id,
      type_id: f.type_id,
      name: f.name,
      status: f.status,
      requestee: f.requestee ?? '',
    }));
  const [summary, setSummary] = useState(attachment.summary);
  const [fileName, setFileName] = useState(attachment.file_name);
  const [contentType, setContentType] = useState(attachment.content_type);
  const [isPatch, setIsPatch] = useState(attachment.is_patch);
  const [isObsolete, setIsObsolete] = useState(attachment.is_obsolete);
  const [isPrivate, setIsPrivate] = useState(attachment.is_private);
  const [flags, setFlags] = useState<FlagDraft[]>(initialFlags);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const canPrivate = isInsider();

  const submit = async () => {
    const changes: Record<string, unknown> = {};
    if (summary !== attachment.summary) changes.summary = summary;
    if (fileName !== attachment.file_name) changes.file_name = fileName;
    if (contentType !== attachment.content_type && !isPatch) changes.content_type = contentType;
    if (isPatch !== attachment.is_patch) changes.is_patch = isPatch;
    if (isObsolete !== attachment.is_obsolete) changes.is_obsolete = isObsolete;
    if (isPrivate !== attachment.is_private) changes.is_private = isPrivate;
    const f = flagChanges(attachment, flags);
    if (f.length) changes.flags = f;
    if (comment.trim()) changes.comment = comment;
    if (Object.keys(changes).length === 0) {
      announce('Nothing changed: nothing to save.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await updateAttachment(attachment.id, changes);
      setComment('');
      announce(`Attachment ${attachment.id} saved.`);
      onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-label={`Edit attachment ${attachment.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2>Change the attachment</h2>
      <ErrorMessage error={error}>
        <p>Nothing was saved; your changes are still in the form.</p>
      </ErrorMessage>
      <TextField label="Description" value={summary} onInput={setSummary} required />
      <TextField label="File name" value={fileName} onInput={setFileName} required />
      <TextField label="Content type" value={contentType} onInput={setContentType} />
      <label class="checkbox">
        <input type="checkbox" checked={isPatch} onChange={(e) => setIsPatch(e.currentTarget.checked)} />
        Patch
      </label>
      <label class="checkbox">
        <input type="checkbox" checked={isObsolete} onChange={(e) => setIsObsolete(e.currentTarget.checked)} />
        Obsolete
      </label>
      {canPrivate && (
        <label class="checkbox">
          <input type="checkbox" checked={isPrivate} onChange={(e) => setIsPrivate(e.currentTarget.checked)} />
          Private
        </label>
      )}
      <FlagEditor flags={flags} types={flagTypes} onChange={setFlags} legend="Attachment flags" />
      <div class="field">
        <label for="attachment-comment">Comment</label>
        <textarea id="attachment-comment" value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled={busy}>
        Save attachment
      </button>
    </form>
  );
}
