import { errors } from '../../../errors.ts';
import { characterCount } from '../../inputLimits.ts';
import { truthy } from '../../inputValues.ts';
import { MAX_COMMENT_LENGTH } from '../bug.ts';
import { isInsider } from '../bugAccess.ts';
import type { NewBugContext } from './newBugContext.ts';

/**
 * The description, comment 0: within the comment length, the comment the workflow may require to
 * file in `status`, markdown only where enabled, private only for insiders.
 */
export function descriptionOf({ env, input }: NewBugContext, status: string) {
  const { parameters } = env;
  const text = input.description === undefined || input.description === null ? '' : String(input.description);
  if (characterCount(text) > MAX_COMMENT_LENGTH)
    throw errors.commentTooLong(`The description is too long: at most ${MAX_COMMENT_LENGTH} characters.`);
  env.values.requireComment(null, status, text);
  const isMarkdown = truthy(input.is_markdown);
  if (isMarkdown && parameters.markdown_enabled !== '1') throw errors.markdownDisabled();
  const isPrivate = truthy(input.comment_is_private);
  if (isPrivate && !isInsider(env.caller, parameters))
    throw errors.notInsider('You are not allowed to make the description private.');
  return { text, isMarkdown, isPrivate };
}
