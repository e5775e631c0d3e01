import { extensions } from '../../shared/domain/instanceInfo.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

export const handler = defineEndpoint({ access: 'public', loginExempt: true, input: noInput(), run: extensions });
