import { jobQueueStatus } from '../../shared/domain/instance/instanceInfo.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';
import { defineStorelessEndpoint } from '../../shared/http/storelessEndpoint.ts';

export const handler = defineStorelessEndpoint({ access: 'login', input: noInput(), run: jobQueueStatus });
