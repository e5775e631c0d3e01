import { announce } from '../../state/router.ts';
import { useAction as useAdminAction } from '../useAction.ts';

/**
 * The admin pages' useAction (../useAction.ts: busy, the API's message on refusal, a status line
 * on success), plus what the catalogue pages need after a success: the words announced to screen
 * readers, then `after` (read the page's data again, go back to a list).
 */
export function useAction() {
  const action = useAdminAction();
  return {
    ...action,
    async run(work: () => Promise<unknown>, success: string, after?: () => void): Promise<boolean> {
      const ok = await action.run(work, success);
      if (ok) {
        announce(success);
        after?.();
      }
      return ok;
    },
  };
}
