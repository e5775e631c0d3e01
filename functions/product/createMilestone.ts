import { createValueEndpoint } from './productValueEndpoints.ts';

export const handler = createValueEndpoint('milestone');
