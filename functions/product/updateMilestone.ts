import { updateValueEndpoint } from './productValueEndpoints.ts';

export const handler = updateValueEndpoint('milestone');
