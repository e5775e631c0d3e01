import { errors } from '../../../errors.ts';
import { characterCount } from '../../inputLimits.ts';
import { truthy } from '../../inputValues.ts';
import { MAX_COMMENT_LENGTH } from '../bug.ts';
import { isInsider } from '../bugAccess.ts';
import type { BugUpdateContext } from './updateContext.ts';

export interface CommentInput {
  body: string;
  isPrivate: boolean;
  isMarkdown: boolean;
}

/** The request's comment: a string (with comment_is_private) or an object such as {"body": "..."}. */
export function commentInput(input: Record<string, unknown>): CommentInput | undefined {
  const raw = input.comment;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string')
    return { body: raw, isPrivate: truthy(input.comment_is_private), isMarkdown: truthy(input.is_markdown) };
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw errors.invalidParameter('The comment must be an object such as {"body": "..."}.');
  const object = raw as Record<string, unknown>;
  const body = object.body ?? object.comment ?? '';
  if (typeof body !== 'string') throw errors.invalidParameter('The comment body must be text.');
  return { body, isPrivate: truthy(object.is_private), isMarkdown: truthy(object.is_markdown) };
}

/**
 * The comment, unless it is blank: it becomes the text of the duplicate notice when the update
 * marks the bug a duplicate, as Bugzilla does, or a comment of its own.
 */
export function applyComment({ env, bugId, outcome }: BugUpdateContext, comment: CommentInput | undefined): void {
  if (!comment || comment.body.trim() === '') return;
  const { parameters } = env;
  if (characterCount(comment.body) > MAX_COMMENT_LENGTH) throw errors.commentOverLength(MAX_COMMENT_LENGTH);
  if (comment.isPrivate && !isInsider(env.caller, parameters)) throw errors.privateCommentsDenied();
  if (comment.isMarkdown && parameters.markdown_enabled !== '1') throw errors.markdownDisabled();
  const text = { rawText: comment.body, isPrivate: comment.isPrivate, isMarkdown: comment.isMarkdown };
  const dupeNotice = outcome.comments.find((entry) => entry.bugId === bugId && entry.commentType === 'dupe_of');
  if (dupeNotice) Object.assign(dupeNotice, text);
  else outcome.comments.push({ bugId, creatorId: env.caller.user.id, ...text, workTime: 0, creationTime: env.now });
}
