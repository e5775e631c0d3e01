import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client.ts';
import { addComment, getBug, getComments, getHistory, recordVisit, updateBugs } from '../api/tracker.ts';
import type { Comment } from '../api/types.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { type Draft, draftChanges, draftOf, draftProblems } from '../lib/bugDraft.ts';
import { replyText } from '../lib/comments.ts';
import { bugHref } from '../lib/routes.ts';
import type { StatusValue } from '../lib/workflow.ts';
import { canTagComments, field, isInsider, loadProducts, productLists } from '../state/catalog.ts';
import { announce } from '../state/router.ts';
import { inGroup, session } from '../state/session.ts';
import { Attachments } from './Attachments.tsx';
import { BugEditForm } from './BugEditForm.tsx';
import { BugFacts } from './BugFacts.tsx';
import { Collision, type CollisionInfo } from './Collision.tsx';
import { CommentForm } from './CommentForm.tsx';
import { Comments } from './Comments.tsx';
import { History } from './History.tsx';
import { loadBug } from './loadBug.ts';
import { PersonalTags } from './PersonalTags.tsx';

export function BugPage({ id }: { id: string }) {
  const loaded = useLoad(() => loadBug(id), [id, session.value?.login]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [collision, setCollision] = useState<CollisionInfo | null>(null);
  const data = loaded.data;
  const bug = data?.bug;

  // A fresh draft for each bug as loaded; a comment being typed survives a reload. Before the
  // browser paints (a layout effect): the form, not the read-only facts, is the first thing shown.
  useLayoutEffect(() => {
    if (!bug) return;
    setDraft((old) => ({
      ...draftOf(bug),
      comment: old?.comment ?? '',
      comment_private: old?.comment_private ?? false,
    }));
  }, [bug]);

  // Products the bug may move to: those the person may file bugs in (the catalogue keeps them).
  useEffect(() => {
    if (session.value) loadProducts('enterable').catch(() => undefined);
  }, [session.value?.login]);
  const enterable = session.value ? (productLists.value.enterable ?? []) : [];

  // The visit is recorded when a logged-in person opens the bug (1300 if not involved: ignored).
  useEffect(() => {
    if (bug && session.value) recordVisit(bug.id).catch(() => undefined);
  }, [bug?.id]);

  // A link to a comment (#c3) finds it once the comments are there.
  useEffect(() => {
    const hash = window.location.hash;
    if (data && /^#c\d+$/.test(hash)) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [data]);

  useEffect(() => {
    if (bug) document.title = `Bug ${bug.id} – ${bug.summary}`;
  }, [bug?.id, bug?.summary]);

  if (loaded.loading && !data) return <Loading what={`bug ${id}`} />;
  if (loaded.error && !data) {
    const denied = loaded.error instanceof ApiError && loaded.error.code === 102 && !session.value;
    return (
      <>
        <h1>Bug {id}</h1>
        <ErrorMessage error={loaded.error} />
        {denied && (
          <p>
            <a href={`/login?return=${encodeURIComponent(bugHref(id))}`}>Log in</a> to see it if you may.
          </p>
        )}
      </>
    );
  }
  if (!data || !bug) return null;

  const me = session.value?.login;
  const statuses = (field('bug_status')?.values ?? []) as StatusValue[];
  const canEdit = Boolean(me) && (inGroup('editbugs') || [bug.assigned_to, bug.creator, bug.qa_contact].includes(me!));
  const canPrivate = Boolean(me) && isInsider();
  const canTag = Boolean(me) && canTagComments();

  const update = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  const save = async (force: boolean) => {
    if (!draft) return;
    const found = draftProblems(bug, draft, statuses);
    setProblems(found);
    if (found.length) return;
    const changes = draftChanges(bug, draft, statuses);
    if (Object.keys(changes).length === 0) {
      announce('Nothing changed: nothing to save.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (!force) {
        const now = await getBug(String(bug.id), 'last_change_time');
        if (now.last_change_time !== bug.last_change_time) {
          const [history, comments] = await Promise.all([
            getHistory(bug.id, bug.last_change_time),
            getComments(bug.id, bug.last_change_time),
          ]);
          setCollision({ lastChangeTime: now.last_change_time, history, comments });
          return;
        }
      }
      await updateBugs([bug.id], changes);
      setCollision(null);
      setDraft((d) => (d ? { ...d, comment: '', comment_private: false, work_time: '' } : d));
      announce(`Changes to bug ${bug.id} saved.`);
      loaded.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const reply = (c: Comment) => {
    update({ comment: `${draft?.comment ?? ''}${replyText(c)}` });
    window.setTimeout(() => document.getElementById('bug-comment')?.focus(), 0);
  };

  return (
    <>
      <h1>
        Bug {bug.id} – {bug.summary}
      </h1>
      <p class="bug-state">
        <strong>
          {bug.status} {bug.resolution}
        </strong>
        {bug.dupe_of && (
          <>
            {' '}
            of <a href={bugHref(bug.dupe_of)}>bug {bug.dupe_of}</a>
          </>
        )}{' '}
        — {bug.product} / {bug.component}
        {bug.alias && ` — alias ${Array.isArray(bug.alias) ? bug.alias.join(', ') : bug.alias}`}
      </p>
      {loaded.error && (
        <ErrorMessage error={loaded.error}>
          <p>The bug could not be read again; what is shown may be out of date.</p>
        </ErrorMessage>
      )}
      {collision && draft && (
        <Collision
          info={collision}
          busy={busy}
          onOverwrite={() => void save(true)}
          onReload={() => {
            setCollision(null);
            loaded.reload();
          }}
        />
      )}
      {problems.length > 0 && (
        <div class="message error" role="alert">
          {problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      )}
      <ErrorMessage error={error}>
        <p>Your changes were not saved; they are still in the form.</p>
      </ErrorMessage>
      {canEdit && draft ? (
        <BugEditForm
          ctx={{ bug, product: data.product, products: enterable, statuses, canPrivate }}
          draft={draft}
          update={update}
          busy={busy}
          onSubmit={() => void save(false)}
        />
      ) : (
        <BugFacts bug={bug} />
      )}
      {me && <PersonalTags bug={bug} />}
      {bug.duplicates.length > 0 && (
        <section aria-labelledby="dupes-heading">
          <h2 id="dupes-heading">Duplicates ({bug.duplicates.length})</h2>
          <ul>
            {bug.duplicates.map((d) => (
              <li key={d}>
                <a href={bugHref(d)}>Bug {d}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Attachments
        bugId={bug.id}
        attachments={data.attachments}
        canAttach={Boolean(me)}
        canPrivate={canPrivate}
        onChanged={loaded.reload}
      />
      <Comments comments={data.comments} canTag={canTag} onReply={me ? reply : undefined} />
      {me && !canEdit && draft && (
        <CommentForm
          text={draft.comment}
          isPrivate={draft.comment_private}
          canPrivate={canPrivate}
          onChange={(comment, comment_private) => update({ comment, comment_private })}
          onSend={async () => {
            await addComment(bug.id, { comment: draft.comment, is_private: draft.comment_private });
            update({ comment: '', comment_private: false });
            announce('Comment added.');
            loaded.reload();
          }}
        />
      )}
      {canEdit && (
        <p>
          <a href="#bug-comment">Add a comment</a> (in the form above)
        </p>
      )}
      {!me && (
        <p>
          <a href={`/login?return=${encodeURIComponent(bugHref(bug.id))}`}>Log in</a> to comment on or change this bug.
        </p>
      )}
      <History bugId={bug.id} />
    </>
  );
}
