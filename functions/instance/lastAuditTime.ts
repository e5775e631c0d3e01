import * as z from 'zod';
import { lastAuditTime } from '../../shared/domain/instance/audit.ts';
import { storageTimeToBugzilla } from '../../shared/domain/time.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { list } from '../../shared/http/inputSchemas.ts';
import { latestAuditTimes } from '../../shared/storage/instance/auditStore.ts';

/** Class names as Bugzilla writes them are accepted too: `Bugzilla::Product` means `Tracker::Product`. */
const auditClass = z
  .string()
  .regex(/^(Tracker|Bugzilla)(::\w+)+$/, 'class names look like Tracker::Product')
  .transform((name) => name.replace(/^Bugzilla::/, 'Tracker::'));

export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ class: list(auditClass).optional() }),
  run: async ({ input }) => {
    const latest = lastAuditTime(await latestAuditTimes(), input.class ?? []);
    return { last_audit_time: latest === null ? null : storageTimeToBugzilla(latest) };
  },
});
