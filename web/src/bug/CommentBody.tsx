import { useEffect, useRef, useState } from 'preact/hooks';
import { renderComment } from '../api/tracker.ts';
import type { Comment } from '../api/types.ts';
import { LinkedText } from '../components/LinkedText.tsx';

/** At most this many render calls at once, so a long bug does not flood the API. */
const queue: (() => Promise<void>)[] = [];
let running = 0;
function schedule(job: () => Promise<void>): void {
  queue.push(job);
  pump();
}
function pump(): void {
  while (running < 3 && queue.length) {
    const job = queue.shift()!;
    running++;
    job().finally(() => {
      running--;
      pump();
    });
  }
}

/**
 * A comment's body. Markdown comments show the API's own sanitised rendering
 * (POST /rest/bug/comment/render: markdown-it without raw HTML, then an allow-list sanitiser);
 * plain ones, and markdown ones until their rendering arrives, show the text with links built as
 * elements. Raw API text is never put into the page as HTML.
 */
export function CommentBody({ comment }: { comment: Comment }) {
  const [html, setHtml] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!comment.is_markdown || !comment.text) return;
    let live = true;
    schedule(async () => {
      if (!live) return;
      try {
        const r = await renderComment(comment.text, comment.bug_id);
        if (live) setHtml(r.html);
      } catch {
        // The text stays as it is.
      }
    });
    return () => {
      live = false;
    };
  }, [comment.id, comment.text, comment.is_markdown, comment.bug_id]);
  useEffect(() => {
    // The API's sanitised rendering (see above) is the one HTML the app inserts.
    if (html !== null && ref.current) ref.current.innerHTML = html;
  }, [html]);
  if (html !== null) return <div class="body markdown" ref={ref} />;
  return (
    <pre class="body">
      <LinkedText text={comment.text} />
    </pre>
  );
}
