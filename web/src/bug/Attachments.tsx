import { useState } from 'preact/hooks';
import type { Attachment } from '../api/types.ts';
import { AttachmentUpload } from '../attachment/AttachmentUpload.tsx';
import { formatSize, formatTime } from '../components/format.ts';
import { attachmentHref } from '../lib/routes.ts';

export function Attachments({
  bugId,
  attachments,
  canAttach,
  canPrivate,
  onChanged,
}: {
  bugId: number;
  attachments: readonly Attachment[];
  canAttach: boolean;
  canPrivate: boolean;
  onChanged: () => void;
}) {
  const [showObsolete, setShowObsolete] = useState(false);
  const obsolete = attachments.filter((a) => a.is_obsolete).length;
  const shown = attachments.filter((a) => showObsolete || !a.is_obsolete);
  return (
    <section aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">Attachments ({attachments.length})</h2>
      {shown.length > 0 && (
        <div class="table-wrap">
          <table class="responsive">
            <caption class="visually-hidden">Attachments of bug {bugId}</caption>
            <thead>
              <tr>
                <th scope="col">Attachment</th>
                <th scope="col">Type</th>
                <th scope="col">Size</th>
                <th scope="col">Created</th>
                <th scope="col">Flags</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((a) => (
                <tr key={a.id}>
                  <td data-label="Attachment" class={a.is_obsolete ? 'obsolete' : undefined}>
                    <a href={attachmentHref(a.id)}>{a.summary}</a> ({a.file_name})
                    {a.is_private && <strong> private</strong>}
                    {a.is_obsolete && <span> obsolete</span>}
                  </td>
                  <td data-label="Type">{a.is_patch ? 'patch' : a.content_type}</td>
                  <td data-label="Size">{formatSize(a.size)}</td>
                  <td data-label="Created">
                    {formatTime(a.creation_time)}, {a.creator}
                  </td>
                  <td data-label="Flags">
                    {a.flags.map((f) => `${f.name}${f.status}${f.requestee ? ` (${f.requestee})` : ''}`).join(', ')}
                  </td>
                  <td data-label="Actions">
                    <a href={attachmentHref(a.id, true)} aria-label={`Details of attachment ${a.id}`}>
                      Details
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {obsolete > 0 && (
        <button
          type="button"
          class="secondary"
          onClick={() => setShowObsolete(!showObsolete)}
          aria-pressed={showObsolete}
        >
          {showObsolete ? 'Hide' : 'Show'} obsolete attachments ({obsolete})
        </button>
      )}
      {canAttach && (
        <AttachmentUpload
          bugId={bugId}
          canPrivate={canPrivate}
          onDone={onChanged}
          replaceable={attachments.filter((a) => !a.is_obsolete)}
        />
      )}
    </section>
  );
}
