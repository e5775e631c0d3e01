import { sweepOrphanBodies } from '../../shared/application/bug/attachmentSweep.ts';

/**
 * Scheduled (EventBridge), not an API route: removes attachment bodies that no metadata refers to
 * (attachmentSweep.ts), with a role that may only list and delete bodies and read or claim
 * attachment pointers (lib/trackerStack.ts).
 */
export const handler = async () => {
  const { checked, deleted } = await sweepOrphanBodies();
  console.log(
    JSON.stringify({
      message: 'attachment orphan sweep',
      checked,
      deleted: deleted.length,
      keys: deleted.slice(0, 50),
    }),
  );
  return { checked, deleted: deleted.length };
};
