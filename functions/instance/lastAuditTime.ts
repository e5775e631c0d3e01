import * as z from 'zod';
import { lastAuditTimeOf } from '../../shared/application/instance/auditTimes.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { list } from '../../shared/http/inputSchemas.ts';

/** Class names as Bugzilla writes them are accepted too: `Bugzilla::Product` means `Tracker::Product`. */
const auditClass = z
  .string()
  .regex(/^(Tracker|Bugzilla)(::\w+)+$/, 'class names look like Tracker::Product')
  .transform((name) => name.replace(/^Bugzilla::/, 'Tracker::'));

export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ class: list(auditClass).optional() }),
  run: ({ input }) => lastAuditTimeOf(input.class ?? []),
});
