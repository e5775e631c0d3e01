import { renderComment } from '../../domain/bug/commentRender.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { visibleBugs } from './bugVisibility.ts';
import { visibilityContext } from './comments.ts';

/**
 * POST /rest/bug/comment/render. Kept apart from comments.ts so that only the render function
 * bundles the Markdown parser and the sanitizer.
 */

/** POST /rest/bug/comment/render: with `id`, the bug must be visible and "comment N" links into it. */
export async function renderCommentText(
  caller: Caller,
  text: string,
  bugReference?: string | number,
): Promise<{ html: string }> {
  const context = await visibilityContext();
  let bugId: number | undefined;
  if (bugReference !== undefined && bugReference !== '') {
    [
      {
        bug: { id: bugId },
      },
    ] = await visibleBugs(caller, [bugReference], context);
  }
  return {
    html: renderComment(text, {
      bugId,
      urlBase: context.parameters.urlbase ?? '',
      markdown: context.parameters.markdown_enabled === '1',
    }),
  };
}
