import { useState } from 'preact/hooks';
import { updateCommentTags } from '../api/tracker.ts';
import type { Comment } from '../api/types.ts';
import { formatTime } from '../components/format.ts';
import { ErrorMessage } from '../components/Messages.tsx';
import { attachmentHref } from '../lib/routes.ts';
import { CommentBody } from './CommentBody.tsx';

/** The comments in order; reply quotes one into the comment box; taggers may tag them. */
export function Comments({
  comments,
  canTag,
  onReply,
}: {
  comments: readonly Comment[];
  canTag: boolean;
  onReply?: (comment: Comment) => void;
}) {
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments ({comments.length})</h2>
      {comments.map((c) => (
        <CommentView key={c.id} comment={c} canTag={canTag} onReply={onReply} />
      ))}
    </section>
  );
}

function CommentView({
  comment,
  canTag,
  onReply,
}: {
  comment: Comment;
  canTag: boolean;
  onReply?: (c: Comment) => void;
}) {
  const [tags, setTags] = useState(comment.tags ?? []);
  const [newTag, setNewTag] = useState('');
  const [error, setError] = useState<unknown>(null);
  const label = comment.count === 0 ? 'Description' : `Comment ${comment.count}`;
  const change = async (change: { add?: string[]; remove?: string[] }) => {
    setError(null);
    try {
      setTags(await updateCommentTags(comment.id, change));
      setNewTag('');
    } catch (e) {
      setError(e);
    }
  };
  return (
    <article class={comment.is_private ? 'comment private' : 'comment'} id={`c${comment.count}`} aria-label={label}>
      <header>
        <a href={`#c${comment.count}`}>{label}</a>
        <span>{comment.creator}</span>
        <time dateTime={comment.creation_time}>{formatTime(comment.creation_time)}</time>
        {comment.is_private && <strong>Private</strong>}
        {comment.attachment_id && (
          <a href={attachmentHref(comment.attachment_id, true)}>Attachment {comment.attachment_id}</a>
        )}
        {onReply && (
          <button
            type="button"
            class="secondary"
            onClick={() => onReply(comment)}
            aria-label={`Reply to ${label.toLowerCase()}`}
          >
            Reply
          </button>
        )}
      </header>
      <CommentBody comment={comment} />
      {(tags.length > 0 || canTag) && (
        <div class="comment-tags">
          <ul class="tags" aria-label="Comment tags">
            {tags.map((t) => (
              <li key={t}>
                {t}
                {canTag && (
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Remove tag ${t}`}
                    onClick={() => change({ remove: [t] })}
                  >
                    ×
                  </button>
                )}
              </li>
            ))}
          </ul>
          {canTag && (
            <form
              class="custom-row"
              onSubmit={(e) => {
                e.preventDefault();
                if (newTag.trim()) void change({ add: [newTag.trim()] });
              }}
            >
              <label for={`tag-${comment.id}`} class="visually-hidden">
                New tag for {label.toLowerCase()}
              </label>
              <input
                id={`tag-${comment.id}`}
                value={newTag}
                onInput={(e) => setNewTag(e.currentTarget.value)}
                size={12}
              />
              <button type="submit" class="secondary">
                Add tag
              </button>
            </form>
          )}
          <ErrorMessage error={error} />
        </div>
      )}
    </article>
  );
}
